#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace podscope {

// Runs work(worker, failed) for worker 0 .. threads - 1: worker 0 on the calling thread, the
// others on threads of their own; returns when all have returned. `failed` is set as soon as one
// throws, so that the others can give up early; the exception is rethrown here once every worker
// has stopped (the lowest worker's, when several throw). The search and its timeline
// confirmation share it; their results never depend on which worker did what.
void runWorkers(
    int threads,
    const std::function<void(std::size_t worker, const std::atomic<bool>& failed)>& work);

} // namespace podscope
