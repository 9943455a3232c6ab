#pragma once

#include "timeline/StepTimeline.hpp"
#include "training/Scenario.hpp"
#include "training/StepPlan.hpp"

#include <nlohmann/json.hpp>
#include <podscope/timeline.hpp>

namespace podscope::api {

// The request's options that need no simulation, checked (InputError naming the CLI's flag).
TimelineOptions checkedTimelineOptions(const TimelineRequest& request);
// The slow chip and host, checked against the plan's chips and hosts, into `options`.
void setSlowChipAndHost(const TimelineRequest& request, const StepPlan& plan,
                        TimelineOptions& options);

// The step without its evaluations' share, which the analytic training step leaves out.
double trainingSeconds(const StepTimeline& timeline);

// The object `podscope-cli timeline --json` prints (without "trace"); a multislice plan adds
// its DCN stage ("multislice").
nlohmann::json timelineJson(const Scenario& scenario, const StepPlan& plan,
                            const StepTimeline& timeline, ChipId reference, ChipId slowest);

} // namespace podscope::api
