#include "common/Workers.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace podscope {

void runWorkers(
    int threads,
    const std::function<void(std::size_t worker, const std::atomic<bool>& failed)>& work) {
    std::vector<std::exception_ptr> failures(static_cast<std::size_t>(std::max(threads, 1)));
    std::atomic<bool> failed{false};
    const auto guarded = [&](std::size_t worker) {
        try {
            work(worker, failed);
        } catch (...) {
            failures[worker] = std::current_exception();
            failed = true;
        }
    };
    {
        std::vector<std::jthread> pool;
        for (std::size_t t = 1; t < failures.size(); ++t) {
            pool.emplace_back(guarded, t);
        }
        guarded(0);
    } // the jthreads join here
    for (const auto& failure : failures) {
        if (failure) {
            std::rethrow_exception(failure);
        }
    }
}

} // namespace podscope
