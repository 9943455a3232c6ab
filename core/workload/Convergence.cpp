#include "workload/Convergence.hpp"

#include "common/InputError.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace podscope {

double Convergence::examplesToTarget(double globalBatch, const std::string& framework) const {
    if (!(globalBatch > 0)) {
        throw InputError("global_batch", "must be positive");
    }
    std::map<double, double> curve; // batch -> examples
    for (const auto& p : points) {
        if (p.framework == "any") {
            curve.emplace(p.globalBatch, p.examples);
        }
    }
    for (const auto& p : points) {
        if (p.framework == framework) {
            curve[p.globalBatch] = p.examples;
        }
    }
    if (curve.empty()) {
        throw InputError("convergence", "the workload has no convergence point");
    }
    const auto first = curve.begin();
    if (globalBatch <= first->first) {
        return first->second;
    }
    const auto last = std::prev(curve.end());
    if (globalBatch >= last->first) {
        double slope = extrapolationExponent;
        if (slope < 0) {
            slope = 0;
            if (curve.size() >= 2) {
                const auto before = std::prev(last);
                slope =
                    std::log(last->second / before->second) / std::log(last->first / before->first);
            }
        }
        return last->second * std::pow(globalBatch / last->first, slope);
    }
    const auto hi = curve.upper_bound(globalBatch);
    const auto lo = std::prev(hi);
    const double t = std::log(globalBatch / lo->first) / std::log(hi->first / lo->first);
    return std::exp(std::log(lo->second) + t * std::log(hi->second / lo->second));
}

} // namespace podscope
