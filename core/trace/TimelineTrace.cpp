#include "trace/TimelineTrace.hpp"

#include "common/InputError.hpp"
#include "timeline/TimelineLinkUse.hpp"
#include "trace/TraceEvents.hpp"
#include "training/ScenarioJson.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>

namespace podscope::trace {
namespace {

// Track ids double as their sort order: input and waiting on top, then compute by layer group,
// then communication, then the end of the step.
constexpr int kStepTid = 1;
constexpr int kInputTid = 2;
constexpr int kBarrierTid = 3;
constexpr int kFirstComputeTid = 10;
constexpr int kModelParallelTid = 1000;
constexpr int kBatchNormTid = 1001;
constexpr int kBucketTid = 1002;
constexpr int kGradientTid = 1003;
constexpr int kWeightUpdateTid = 1004;
constexpr int kOptimizerTid = 1005;
constexpr int kOverheadTid = 1006;
constexpr int kEvaluationTid = 1007;
constexpr int kAggregatePid = 1000;

struct Track {
    int tid = 0;
    std::string name;
};

// The tracks of a chip's process, by item.
class Tracks {
public:
    Tracks(const StepPlan& plan, const StepTimeline& timeline)
        : plan_(plan) {
        for (const TimelineItem& item : timeline.items) {
            if (item.activity == ChipActivity::Forward || item.activity == ChipActivity::Backward) {
                if (!computeTid_.count(item.group)) {
                    const int tid = kFirstComputeTid + static_cast<int>(computeTid_.size());
                    computeTid_.emplace(item.group, tid);
                }
            }
        }
    }

    Track of(const TimelineItem& item) const {
        switch (item.activity) {
        case ChipActivity::WaitingForInput:
            return {kInputTid, "input (waiting for the host's batch)"};
        case ChipActivity::Forward:
        case ChipActivity::Backward:
            return {computeTid_.at(item.group), "compute: " + item.group};
        case ChipActivity::ModelParallel:
            return {kModelParallelTid, "model-parallel traffic"};
        case ChipActivity::BatchNormSync:
            return {kBatchNormTid, "batch-norm sums"};
        case ChipActivity::GradientSync:
            if (item.background) {
                return {kBucketTid, "gradient buckets (under the backward pass)"};
            }
            if (item.exchange >= 0) {
                const ExchangeKind kind =
                    plan_.exchanges[static_cast<std::size_t>(item.exchange)].kind;
                if (kind == ExchangeKind::GradientGather || kind == ExchangeKind::LayerNormSum) {
                    return {kWeightUpdateTid, "weight update: norms and all-gather"};
                }
            }
            return {kGradientTid, "gradient sync (after the backward pass)"};
        case ChipActivity::Optimizer:
            return {kOptimizerTid, "optimizer"};
        case ChipActivity::Evaluating:
            return {kEvaluationTid, "evaluation"};
        case ChipActivity::Idle:
        case ChipActivity::WaitingAtBarrier:
            break;
        }
        return {kOverheadTid, "framework overhead"};
    }

private:
    const StepPlan& plan_;
    std::map<std::string, int> computeTid_;
};

// What a chip does while it waits for an item (as StepTimeline::activityAt says).
ChipActivity waitingFor(const TimelineItem& item) {
    return item.activity == ChipActivity::WaitingForInput ||
                   item.activity == ChipActivity::GradientSync
               ? item.activity
               : ChipActivity::WaitingAtBarrier;
}

nlohmann::json argsOf(const TimelineItem& item, const ChipSpan& span, const StepPlan& plan) {
    nlohmann::json args = {{"item", item.name}, {"activity", toString(item.activity)}};
    if (item.layer >= 0) {
        const auto layer = static_cast<std::size_t>(item.layer);
        args["layer"] = plan.graph->layers[layer].name;
        args["layer_group"] = plan.graph->layers[layer].group;
    }
    if (item.activity == ChipActivity::Forward || item.activity == ChipActivity::Backward) {
        const LayerCost& cost = plan.layers[static_cast<std::size_t>(item.layer)];
        const PassCost& pass =
            item.activity == ChipActivity::Forward ? cost.forward : cost.backward;
        args["flops_per_core"] = pass.work.flops;
        args["hbm_bytes_per_core"] = pass.work.hbmBytes;
    }
    if (item.exchange >= 0) {
        args["exchange"] = item.group;
        args["bytes_per_chip"] = item.bytes;
        const Exchange& e = plan.exchanges[static_cast<std::size_t>(item.exchange)];
        if (e.collective) {
            args["collective"] =
                toString(e.collective->op) + " (" + toString(e.collective->algorithm) + ")";
        }
    }
    if (span.startS > span.readyS) {
        args[item.background ? "queued_us" : "waited_us"] =
            toTraceMicros(span.startS - span.readyS);
    }
    return args;
}

void appendChip(TraceEvents& events, int pid, ChipId chip, const std::string& name,
                const StepPlan& plan, const StepTimeline& timeline, const Tracks& tracks) {
    events.processName(pid, name, pid);
    std::map<int, std::string> used;
    double stepEnd = 0;
    for (const TimelineItem& item : timeline.items) {
        const ChipSpan& span = item.spanOf(chip);
        if (!item.background) {
            stepEnd = std::max(stepEnd, span.endS);
        }
        if (!item.background && span.startS > span.readyS) {
            const bool input = item.activity == ChipActivity::WaitingForInput;
            const int tid = input ? kInputTid : kBarrierTid;
            used.emplace(tid, input ? tracks.of(item).name : "waiting (barriers)");
            events.spanBetween(pid, tid, input ? "waiting for input" : "waiting: " + item.name,
                               span.readyS, span.startS,
                               {{"for", item.name}, {"activity", toString(waitingFor(item))}});
        }
        if (span.endS > span.startS) {
            const Track track = tracks.of(item);
            used.emplace(track.tid, track.name);
            events.spanBetween(pid, track.tid, item.name, span.startS, span.endS,
                               argsOf(item, span, plan));
        }
    }
    used.emplace(kStepTid, "step");
    events.spanBetween(pid, kStepTid, "training step", 0.0, stepEnd,
                       {{"chip", chip}, {"step_us", toTraceMicros(stepEnd)}});
    for (const auto& [tid, trackName] : used) {
        events.threadName(pid, tid, trackName, tid);
    }
}

// How many chips do what, averaged over each time bin (chip-seconds / bin width).
void appendActivityCounters(TraceEvents& events, const StepTimeline& timeline, int bins) {
    double endS = 0;
    for (const TimelineItem& item : timeline.items) {
        endS = std::max(endS, item.common.endS);
        for (const auto& e : item.exceptions) {
            endS = std::max(endS, e.second.endS);
        }
    }
    if (!(endS > 0)) {
        return;
    }
    const double binS = endS / bins;
    std::vector<std::array<double, kChipActivityCount>> chipSeconds(static_cast<std::size_t>(bins));
    std::array<bool, kChipActivityCount> seen{};
    const auto add = [&](ChipActivity activity, double fromS, double toS, double chips) {
        if (!(toS > fromS) || chips <= 0) {
            return;
        }
        const auto a = static_cast<std::size_t>(activity);
        seen[a] = true;
        for (int b = std::clamp(static_cast<int>(fromS / binS), 0, bins - 1); b < bins; ++b) {
            const double lo = std::max(fromS, b * binS);
            const double hi = std::min(toS, (b + 1) * binS);
            if (hi > lo) {
                chipSeconds[static_cast<std::size_t>(b)][a] += chips * (hi - lo);
            }
            if ((b + 1) * binS >= toS) {
                break;
            }
        }
    };
    const auto addSpan = [&](const TimelineItem& item, const ChipSpan& s, double chips) {
        add(waitingFor(item), s.readyS, s.startS, chips);
        add(item.activity, s.startS, s.endS, chips);
    };
    for (const TimelineItem& item : timeline.items) {
        if (item.background) {
            continue; // the chips compute meanwhile
        }
        addSpan(item, item.common,
                static_cast<double>(timeline.chips) - static_cast<double>(item.exceptions.size()));
        for (const auto& e : item.exceptions) {
            addSpan(item, e.second, 1.0);
        }
    }
    const std::string name = "chips by activity";
    for (int b = 0; b < bins; ++b) {
        nlohmann::json values = nlohmann::json::object();
        for (std::size_t a = 0; a < seen.size(); ++a) {
            if (seen[a]) {
                values[toString(static_cast<ChipActivity>(a))] =
                    chipSeconds[static_cast<std::size_t>(b)][a] / binS;
            }
        }
        events.counter(kAggregatePid, name, b * binS, std::move(values));
    }
    nlohmann::json zero = nlohmann::json::object();
    for (std::size_t a = 0; a < seen.size(); ++a) {
        if (seen[a]) {
            zero[toString(static_cast<ChipActivity>(a))] = 0.0;
        }
    }
    events.counter(kAggregatePid, name, endS, std::move(zero));
}

// The links during the step (TimelineLinkUse), per time bin: how much of all links' capacity
// each kind of traffic uses (the mean of kSamples moments in the bin, so that exchanges shorter
// than a bin still show), and the busiest link's utilisation over the bin.
void appendLinkCounters(TraceEvents& events, const StepPlan& plan, const StepTimeline& timeline,
                        int bins) {
    constexpr int kSamples = 4;
    const Topology& topology = plan.topology;
    std::vector<bool> exists(static_cast<std::size_t>(topology.linkSlotCount()));
    double links = 0;
    for (LinkId l = 0; l < topology.linkSlotCount(); ++l) {
        exists[static_cast<std::size_t>(l)] = topology.linkExists(l);
        links += exists[static_cast<std::size_t>(l)] ? 1 : 0;
    }
    if (links == 0 || !(timeline.stepS > 0)) {
        return;
    }
    const TimelineLinkUse use(topology, plan, timeline);
    constexpr std::array<ChipActivity, 3> kKinds{
        ChipActivity::GradientSync, ChipActivity::ModelParallel, ChipActivity::BatchNormSync};
    const double binS = timeline.stepS / bins;
    std::vector<float> utilisation;
    std::vector<ChipActivity> kind;
    const std::string byKind = "link use by traffic kind (% of all links' capacity)";
    const std::string busiest = "busiest link (% of its capacity)";
    for (int b = 0; b < bins; ++b) {
        std::array<double, kChipActivityCount> sum{};
        for (int k = 0; k < kSamples; ++k) {
            const double t = (b + (k + 0.5) / kSamples) * binS;
            use.utilisation(t, 0.0, utilisation);
            use.kind(t, kind);
            for (std::size_t l = 0; l < utilisation.size(); ++l) {
                if (exists[l]) {
                    sum[static_cast<std::size_t>(kind[l])] += utilisation[l];
                }
            }
        }
        nlohmann::json values = nlohmann::json::object();
        for (const ChipActivity k : kKinds) {
            values[toString(k)] = 100.0 * sum[static_cast<std::size_t>(k)] / (kSamples * links);
        }
        events.counter(kAggregatePid, byKind, b * binS, std::move(values));
        use.utilisation((b + 1) * binS, binS, utilisation);
        double most = 0;
        for (std::size_t l = 0; l < utilisation.size(); ++l) {
            most = exists[l] ? std::max(most, static_cast<double>(utilisation[l])) : most;
        }
        events.counter(kAggregatePid, busiest, b * binS, {{"utilisation", 100.0 * most}});
    }
    nlohmann::json zero = nlohmann::json::object();
    for (const ChipActivity k : kKinds) {
        zero[toString(k)] = 0.0;
    }
    events.counter(kAggregatePid, byKind, timeline.stepS, std::move(zero));
    events.counter(kAggregatePid, busiest, timeline.stepS, {{"utilisation", 0.0}});
}

} // namespace

ChipId chipOthersWaitFor(const StepTimeline& timeline) {
    // Chips without exceptions all ran the common spans, like the first of them; only chips with
    // an exception can differ.
    std::vector<ChipId> candidates{0};
    for (const TimelineItem& item : timeline.items) {
        for (const auto& e : item.exceptions) {
            candidates.push_back(e.first);
        }
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    ChipId best = 0;
    double bestWait = -1;
    for (const ChipId chip : candidates) {
        double wait = 0;
        for (const int i : timeline.foreground) {
            const TimelineItem& item = timeline.items[static_cast<std::size_t>(i)];
            if (item.activity != ChipActivity::WaitingForInput) {
                const ChipSpan& s = item.spanOf(chip);
                wait += s.startS - s.readyS;
            }
        }
        if (bestWait < 0 || wait < bestWait) {
            best = chip;
            bestWait = wait;
        }
    }
    return best;
}

nlohmann::json buildTimelineTrace(const Scenario& scenario, const StepPlan& plan,
                                  const StepTimeline& timeline, const TimelineTraceOptions& o) {
    if (o.timeBins < 10 || o.timeBins > 2000) {
        throw InputError("bins", "must be between 10 and 2000");
    }
    for (const ChipId chip : o.chips) {
        if (chip < 0 || chip >= timeline.chips) {
            throw InputError("trace-chip",
                             "must name a chip from 0 to " + std::to_string(timeline.chips - 1));
        }
    }
    const ChipId slowest = chipOthersWaitFor(timeline);
    std::vector<std::pair<ChipId, std::string>> shown{{0, "chip 0"}};
    if (slowest != 0) {
        shown.emplace_back(slowest, "slowest chip (chip " + std::to_string(slowest) + ")");
    }
    for (const ChipId chip : o.chips) {
        const bool listed = std::any_of(shown.begin(), shown.end(),
                                        [chip](const auto& s) { return s.first == chip; });
        if (!listed) {
            shown.emplace_back(chip, "chip " + std::to_string(chip));
        }
    }
    TraceEvents events;
    const Tracks tracks(plan, timeline);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        appendChip(events, static_cast<int>(i) + 1, shown[i].first, shown[i].second, plan, timeline,
                   tracks);
    }
    events.processName(kAggregatePid,
                       "all chips aggregated (" + std::to_string(timeline.chips) + " chips)",
                       kAggregatePid);
    appendActivityCounters(events, timeline, o.timeBins);
    if (o.linkCounters) {
        appendLinkCounters(events, plan, timeline, o.timeBins);
    }

    nlohmann::json chips = nlohmann::json::array();
    for (const auto& s : shown) {
        chips.push_back(s.first);
    }
    nlohmann::json other = {{"generator", "podscope step timeline"},
                            {"scenario", toJson(scenario)},
                            {"chips", timeline.chips},
                            {"chips_shown", chips},
                            {"slowest_chip", slowest},
                            {"step_s", timeline.stepS},
                            {"analytic_train_step_s", timeline.analyticTrainStepS},
                            {"difference", timeline.difference},
                            {"mean_step_s", timeline.meanStepS},
                            {"p50_step_s", timeline.p50StepS},
                            {"p99_step_s", timeline.p99StepS}};
    return events.toJson(std::move(other));
}

} // namespace podscope::trace
