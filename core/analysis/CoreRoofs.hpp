#pragma once

#include "training/StepPlan.hpp"

namespace podscope::analysis {

// The ceilings of the roofline: what a core can do at most, from the core model.
struct CoreRoofs {
    double peakFlops = 0;     // nominal: MXUs x rows x columns x 2 x clock
    double mxuEfficiency = 1; // calibrated share of the MXU cycles that stream results
    double hbmBytesPerS = 0;  // achieved HBM bandwidth (nominal x measured DMA efficiency)

    double mxuRoofFlops() const { return peakFlops * mxuEfficiency; }
    // Where the HBM roof meets the MXU roof (FLOP per byte).
    double ridgeIntensity() const { return hbmBytesPerS > 0 ? mxuRoofFlops() / hbmBytesPerS : 0; }
};

inline CoreRoofs coreRoofs(const StepPlan& plan) {
    return {plan.core.peakFlops(), plan.core.mxuEfficiency,
            plan.core.hbmBps * plan.core.hbmEfficiency};
}

} // namespace podscope::analysis
