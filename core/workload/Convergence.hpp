#pragma once

#include <string>
#include <vector>

namespace podscope {

// One measured point: training examples needed to reach the quality target at a global batch.
// `framework` is "any" unless the reference measured the submission of one framework only
// (the recipes, hence the convergence, differ between the TF and JAX code bases).
struct ConvergencePoint {
    double globalBatch = 0;
    double examples = 0;
    std::string framework = "any";
};

// Examples to reach the target as a function of global batch. Rule (docs/training-model.md):
// points of the scenario's framework replace "any" points at the same batch; between points,
// piecewise linear in log(batch)-log(examples); below the smallest batch, constant; above the
// largest, examples grow as batch^extrapolationExponent (the slope of the last segment when
// there are two or more points and the exponent is not given).
struct Convergence {
    std::vector<ConvergencePoint> points;
    double extrapolationExponent = -1; // < 0: slope of the last segment

    double examplesToTarget(double globalBatch, const std::string& framework) const;
};

} // namespace podscope
