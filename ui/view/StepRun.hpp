#pragma once

#include "timeline/StepTimeline.hpp"
#include "timeline/TimelineLinkUse.hpp"
#include "training/Scenario.hpp"
#include "training/StepPlan.hpp"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace podscope::ui {

// What the 3-D view replays: one collective (the gradient sync, as the event engine records it)
// or the whole training step of the step timeline, with or without the evaluations' share after it.
enum class ReplayKind { Collective, Step, StepWithEvaluation };

// "collective", "step", "step-eval"; InputError("replay", ...) for anything else.
ReplayKind parseReplayKind(const std::string& text);
std::string toString(ReplayKind kind);

// How many chips do each activity, averaged over equal time bins of the step (the panel's
// aggregated track). Built off the UI thread from the timeline's spans, not by sampling.
struct ActivityCounts {
    double binS = 0;
    // chips[bin * kChipActivityCount + activity]: mean number of chips in that activity.
    std::vector<float> chips;
    int bins() const { return static_cast<int>(chips.size() / kChipActivityCount); }
    float at(int bin, podscope::ChipActivity activity) const {
        return chips[static_cast<std::size_t>(bin) * kChipActivityCount +
                     static_cast<std::size_t>(activity)];
    }
};
ActivityCounts countActivities(const StepTimeline& timeline, int bins);

// A simulated step, immutable once built and shared by pointer.
struct StepRun {
    Scenario scenario;
    ReplayKind kind = ReplayKind::Step;
    StepPlan plan; // its topology is the one the timeline runs on
    StepTimeline timeline;
    ActivityCounts counts;
    std::unique_ptr<TimelineLinkUse> linkUse; // the traffic on every link, from the timeline
    double wallS = 0;

    StepRun(Scenario s, ReplayKind k, StepPlan p)
        : scenario(std::move(s))
        , kind(k)
        , plan(std::move(p)) {}
    StepRun(const StepRun&) = delete;
    StepRun& operator=(const StepRun&) = delete;
    const Topology& topology() const { return plan.topology; }
};

// Simulates the scenario's step (with the evaluations' share for StepWithEvaluation). Throws
// InputError on a configuration the model refuses, Cancelled once `stop` is set.
std::shared_ptr<const StepRun> runStep(const Scenario& scenario, ReplayKind kind,
                                       const StopFlag* stop = nullptr);

} // namespace podscope::ui
