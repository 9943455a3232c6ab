#pragma once

#include <string>
#include <vector>

namespace podscope {

// A measured Google TPU-v3 run: training examples it needed to reach the quality target at its
// global batch. `framework` is "any" when the TF and JAX submissions agree.
struct ConvergencePoint {
    double globalBatch = 0;
    double examples = 0;
    std::string framework = "any";
};

struct ConvergenceEstimate {
    double examples = 0;
    bool extrapolated = false; // the batch lies outside every measured point
};

// Examples to reach the target against global batch B, after McCandlish et al. 2018
// (arXiv 1812.06162): E(B) = E_min (1 + B / B_noise), fitted per model on other submitters'
// measured points (resources/generators/gen_workloads.py). A framework with a measured point of
// its own (a different recipe) scales the curve to pass through it; other frameworks use the
// "any" point when there is one, else the fit alone. Outside [smallest, largest] measured batch
// (the fitted points and the Google points) the result is marked extrapolated.
struct Convergence {
    double examplesMin = 0;
    double batchNoise = 0;
    double measuredBatchMin = 0;
    double measuredBatchMax = 0;
    std::vector<ConvergencePoint> points;

    double fitted(double globalBatch) const { return examplesMin * (1 + globalBatch / batchNoise); }
    double recipeFactor(const std::string& framework) const;
    ConvergenceEstimate estimate(double globalBatch, const std::string& framework) const;
    // The whole measured range, Google points included.
    double lowestMeasuredBatch() const;
    double highestMeasuredBatch() const;
};

} // namespace podscope
