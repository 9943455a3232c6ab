#pragma once

#include <atomic>
#include <stdexcept>

namespace podscope {

// A long computation (the event engine, the step timeline) takes an optional stop flag that
// another thread may set: the computation then throws Cancelled at its next check, soon after,
// rather than finishing work nobody will see (the app's Cancel, or a newer request).
class Cancelled : public std::runtime_error {
public:
    Cancelled()
        : std::runtime_error("cancelled") {}
};

using StopFlag = std::atomic<bool>;

inline void throwIfStopped(const StopFlag* stop) {
    if (stop && stop->load(std::memory_order_relaxed)) {
        throw Cancelled();
    }
}

} // namespace podscope
