#pragma once

#include "training/Scenario.hpp"
#include "training/StepPlan.hpp"

namespace podscope {

// Where a plan's HBM exceeds the core's and the policy is Auto, recomputes layers in the backward
// pass instead of keeping their outputs, cheapest first (least forward time per byte of
// activations spared, XLA's rematerialization order), until the plan fits or no layer is left
// (docs/training-model.md, "Rematerialization"). Sets the chosen layers' LayerCost::recompute,
// lowers plan.memory.activations and fills plan.memory.recompute; their forward exchanges run
// again before their backward pass and gradient buckets wait for the recompute. A plan that fits
// is left as it is.
void rematerialize(StepPlan& plan, RematPolicy policy);

} // namespace podscope
