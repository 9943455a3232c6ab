#pragma once

namespace podscope::ui {

// A unit for an axis of durations, chosen per axis so that its numbers read 1 to 999.
struct TimeUnit {
    const char* symbol; // "s", "ms" or "µs" (UTF-8)
    double perSecond;   // values in seconds times this
};

inline TimeUnit timeUnitFor(double largestSeconds) {
    if (largestSeconds >= 1) {
        return {"s", 1};
    }
    if (largestSeconds >= 1e-3) {
        return {"ms", 1e3};
    }
    return {"\xC2\xB5s", 1e6};
}

} // namespace podscope::ui
