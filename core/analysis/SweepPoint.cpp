#include "analysis/SweepPoint.hpp"

#include "common/InputError.hpp"
#include "training/StepPlan.hpp"

namespace podscope::analysis {

SweepPoint evaluatePoint(const Scenario& scenario) {
    SweepPoint p;
    p.globalBatch = scenario.globalBatch;
    try {
        const StepPlan plan = buildStepPlan(scenario);
        p.result = evaluateStepPlan(plan, scenario);
        p.chips = p.result->chips;
        return p;
    } catch (const InputError& e) {
        p.error = e.what();
    }
    // Refused: say what a core would need when HBM is the reason (a second plan, unchecked).
    try {
        const StepPlan plan = buildStepPlanUnchecked(scenario);
        p.chips = plan.topology.chipCount();
        if (!plan.memory.fits()) {
            p.exceedsHbm = plan.memory;
        }
    } catch (const InputError&) {
        // refused for another reason first
    }
    return p;
}

} // namespace podscope::analysis
