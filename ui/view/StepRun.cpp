#include "view/StepRun.hpp"

#include "common/InputError.hpp"

#include <algorithm>
#include <chrono>

namespace podscope::ui {
namespace {

struct KindName {
    ReplayKind kind;
    const char* name;
};
constexpr KindName kKindNames[] = {{ReplayKind::Collective, "collective"},
                                   {ReplayKind::Step, "step"},
                                   {ReplayKind::StepWithEvaluation, "step-eval"}};

// Adds a chip's time in `activity` over [from, to) to the bins it overlaps.
void spread(ActivityCounts& counts, podscope::ChipActivity activity, double from, double to,
            double chips) {
    if (!(to > from) || counts.binS <= 0) {
        return;
    }
    const int last = counts.bins() - 1;
    const int first = std::clamp(static_cast<int>(from / counts.binS), 0, last);
    const int end = std::clamp(static_cast<int>(to / counts.binS), 0, last);
    for (int b = first; b <= end; ++b) {
        const double lo = std::max(from, b * counts.binS);
        const double hi = std::min(to, (b + 1) * counts.binS);
        if (hi > lo) {
            counts.chips[static_cast<std::size_t>(b) * kChipActivityCount +
                         static_cast<std::size_t>(activity)] +=
                static_cast<float>(chips * (hi - lo) / counts.binS);
        }
    }
}

// What a chip does between being ready for an item and starting it (as activityAt says).
podscope::ChipActivity waitingFor(const TimelineItem& item) {
    return item.activity == podscope::ChipActivity::WaitingForInput ||
                   item.activity == podscope::ChipActivity::GradientSync
               ? item.activity
               : podscope::ChipActivity::WaitingAtBarrier;
}

void addSpan(ActivityCounts& counts, const TimelineItem& item, const ChipSpan& span, double chips) {
    spread(counts, waitingFor(item), span.readyS, span.startS, chips);
    spread(counts, item.activity, span.startS, span.endS, chips);
}

} // namespace

ReplayKind parseReplayKind(const std::string& text) {
    for (const auto& entry : kKindNames) {
        if (text == entry.name) {
            return entry.kind;
        }
    }
    throw InputError("replay", "unknown replay '" + text + "' (collective, step, step-eval)");
}

std::string toString(ReplayKind kind) {
    for (const auto& entry : kKindNames) {
        if (entry.kind == kind) {
            return entry.name;
        }
    }
    return "?";
}

ActivityCounts countActivities(const StepTimeline& timeline, int bins) {
    ActivityCounts counts;
    bins = std::max(bins, 1);
    counts.binS = timeline.stepS > 0 ? timeline.stepS / bins : 0;
    counts.chips.assign(static_cast<std::size_t>(bins) * kChipActivityCount, 0.0f);
    // Most chips share an item's common span; only the exceptions are visited one by one.
    for (const int index : timeline.foreground) {
        const TimelineItem& item = timeline.items[static_cast<std::size_t>(index)];
        const double common =
            static_cast<double>(timeline.chips) - static_cast<double>(item.exceptions.size());
        addSpan(counts, item, item.common, common);
        for (const auto& [chip, span] : item.exceptions) {
            addSpan(counts, item, span, 1.0);
        }
    }
    // The rest of each bin's chip-time is idle.
    for (int b = 0; b < bins; ++b) {
        float busy = 0;
        for (int a = 0; a < kChipActivityCount; ++a) {
            busy += counts.chips[static_cast<std::size_t>(b) * kChipActivityCount +
                                 static_cast<std::size_t>(a)];
        }
        counts.chips[static_cast<std::size_t>(b) * kChipActivityCount +
                     static_cast<std::size_t>(podscope::ChipActivity::Idle)] +=
            std::max(0.0f, static_cast<float>(timeline.chips) - busy);
    }
    return counts;
}

std::shared_ptr<const StepRun> runStep(const Scenario& scenario, ReplayKind kind,
                                       const StopFlag* stop) {
    const auto started = std::chrono::steady_clock::now();
    auto run = std::make_shared<StepRun>(scenario, kind, buildStepPlan(scenario));
    TimelineOptions options;
    options.withEvaluation = kind == ReplayKind::StepWithEvaluation;
    options.stop = stop;
    run->timeline = simulateStepTimeline(scenario, run->plan, options);
    run->counts = countActivities(run->timeline, 2000);
    run->linkUse = std::make_unique<TimelineLinkUse>(run->plan.topology, run->plan, run->timeline);
    run->wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return run;
}

} // namespace podscope::ui
