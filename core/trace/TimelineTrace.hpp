#pragma once

#include "timeline/StepTimeline.hpp"
#include "training/Scenario.hpp"
#include "training/StepPlan.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace podscope::trace {

struct TimelineTraceOptions {
    // Chips shown span by span besides chip 0 and the chip the others wait for.
    std::vector<ChipId> chips;
    // Time bins of the aggregated counters (chips per activity, link use).
    int timeBins = 200;
    // Counters of link use by traffic kind (TimelineLinkUse).
    bool linkCounters = true;
};

// The chip the others wait for in the detailed step: the one that waited least at barriers
// (ties: the lowest id). Chip 0 when every chip ran alike.
ChipId chipOthersWaitFor(const StepTimeline& timeline);

// The step timeline as a Chrome trace (docs/step-timeline.md): a process per chip shown, with
// tracks for input, barriers, compute by layer group, model-parallel traffic, batch-norm sums,
// gradient buckets, the gradient sync after the backward pass, weight-update exchanges, the
// optimizer and evaluation; and a process "all chips aggregated" with counters of how many chips
// do what and how busy the links are, by traffic kind. `plan` is the plan the timeline replayed
// (for layer names and FLOPs); the scenario and the summary go under otherData.
nlohmann::json buildTimelineTrace(const Scenario& scenario, const StepPlan& plan,
                                  const StepTimeline& timeline,
                                  const TimelineTraceOptions& options = {});

} // namespace podscope::trace
