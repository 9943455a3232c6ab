#include "workload/Convergence.hpp"

#include "common/InputError.hpp"

#include <algorithm>

namespace podscope {

double Convergence::recipeFactor(const std::string& framework) const {
    const ConvergencePoint* chosen = nullptr;
    for (const auto& p : points) {
        if (p.framework == framework) {
            chosen = &p;
        } else if (p.framework == "any" && !chosen) {
            chosen = &p;
        }
    }
    return chosen ? chosen->examples / fitted(chosen->globalBatch) : 1.0;
}

double Convergence::lowestMeasuredBatch() const {
    double lo = measuredBatchMin;
    for (const auto& p : points) {
        lo = std::min(lo, p.globalBatch);
    }
    return lo;
}

double Convergence::highestMeasuredBatch() const {
    double hi = measuredBatchMax;
    for (const auto& p : points) {
        hi = std::max(hi, p.globalBatch);
    }
    return hi;
}

ConvergenceEstimate Convergence::estimate(double globalBatch, const std::string& framework) const {
    if (!(globalBatch > 0)) {
        throw InputError("global_batch", "must be positive");
    }
    ConvergenceEstimate e;
    e.examples = fitted(globalBatch) * recipeFactor(framework);
    constexpr double kTolerance = 1e-9;
    e.extrapolated = globalBatch < lowestMeasuredBatch() * (1 - kTolerance) ||
                     globalBatch > highestMeasuredBatch() * (1 + kTolerance);
    return e;
}

} // namespace podscope
