#include "api/TimelineRun.hpp"
#include "common/InputError.hpp"
#include "trace/TimelineTrace.hpp"
#include "training/ScenarioJson.hpp"

namespace podscope::api {
namespace {

void checkIndex(std::int64_t index, std::int64_t count, const std::string& field,
                const std::string& what) {
    if (index < 0 || index >= count) {
        throw InputError(field, "must name a " + what + " from 0 to " + std::to_string(count - 1));
    }
}

} // namespace

TimelineOptions checkedTimelineOptions(const TimelineRequest& r) {
    TimelineOptions t;
    if (r.steps < 1 || r.steps > 10000) {
        throw InputError("steps", "must be between 1 and 10000");
    }
    t.steps = static_cast<int>(r.steps);
    if (r.seed < 0) {
        throw InputError("seed", "must be 0 or more");
    }
    t.seed = static_cast<std::uint64_t>(r.seed);
    if (!(r.hostJitter >= 0 && r.hostJitter <= 2)) {
        throw InputError("host-jitter", "must be a coefficient of variation from 0 to 2");
    }
    t.hostJitter = r.hostJitter;
    t.withEvaluation = r.withEvaluation;
    t.contention = r.contention;
    if (r.slowFactor) {
        if (!r.slowChip && !r.slowHost) {
            throw InputError("slow-factor", "give --slow-chip or --slow-host too");
        }
        if (!(*r.slowFactor >= 1 && *r.slowFactor <= 100)) {
            throw InputError("slow-factor", "must be between 1 and 100");
        }
        t.slowChipFactor = *r.slowFactor;
        t.slowHostFactor = *r.slowFactor;
    }
    return t;
}

void setSlowChipAndHost(const TimelineRequest& r, const StepPlan& plan, TimelineOptions& options) {
    if (r.slowChip) {
        checkIndex(*r.slowChip, plan.topology.chipCount(), "slow-chip", "chip");
        options.slowChip = static_cast<ChipId>(*r.slowChip);
    }
    if (r.slowHost) {
        checkIndex(*r.slowHost, plan.topology.hostCount(), "slow-host", "host");
        options.slowHost = static_cast<int>(*r.slowHost);
    }
}

double trainingSeconds(const StepTimeline& t) {
    return t.stepS - t.secondsByActivity[static_cast<std::size_t>(ChipActivity::Evaluating)];
}

nlohmann::json timelineJson(const Scenario& s, const StepPlan& plan, const StepTimeline& t,
                            ChipId reference, ChipId slowest) {
    nlohmann::json byActivity = nlohmann::json::object();
    for (int a = 0; a < kChipActivityCount; ++a) {
        byActivity[toString(static_cast<ChipActivity>(a))] =
            t.secondsByActivity[static_cast<std::size_t>(a)];
    }
    nlohmann::json json = {{"scenario", podscope::toJson(s)},
                           {"chips", t.chips},
                           {"step_s", t.stepS},
                           {"analytic_train_step_s", t.analyticTrainStepS},
                           {"training_step_s", trainingSeconds(t)},
                           {"difference_fraction", trainingSeconds(t) / t.analyticTrainStepS - 1},
                           {"difference", t.difference},
                           {"reference_chip", reference},
                           {"seconds_by_activity", byActivity},
                           {"slowest_chip", slowest},
                           {"steps", t.stepTimesS.size()},
                           {"step_times_s", t.stepTimesS},
                           {"mean_step_s", t.meanStepS},
                           {"p50_step_s", t.p50StepS},
                           {"p99_step_s", t.p99StepS},
                           {"items", t.items.size()},
                           {"network", toString(t.network)}};
    if (plan.slices > 1) {
        // Multislice: the timeline is one slice's (chips above); the DCN stage is one item.
        json["multislice"] = {{"slices", plan.slices},
                              {"replicas_per_slice", plan.parallelism.replicas},
                              {"replicas", plan.parallelism.replicas * plan.slices},
                              {"dcn_sync_s", plan.dcn.seconds()},
                              {"dcn_bytes_per_host", plan.dcn.bytesPerHost}};
    }
    return json;
}

TimelineResult timeline(const Configuration& configuration, const TimelineRequest& request) {
    TimelineOptions options = checkedTimelineOptions(request);
    const Scenario& s = configuration.scenario();
    const StepPlan plan = buildStepPlan(s); // one plan for the request
    setSlowChipAndHost(request, plan, options);
    const StepTimeline t = simulateStepTimeline(s, plan, options);
    TimelineResult result;
    result.chips = t.chips;
    result.stepS = t.stepS;
    result.analyticTrainStepS = t.analyticTrainStepS;
    result.trainingStepS = trainingSeconds(t);
    result.difference = t.difference;
    result.stepTimesS = t.stepTimesS;
    for (int a = 0; a < kChipActivityCount; ++a) {
        result.secondsByActivity[toString(static_cast<ChipActivity>(a))] =
            t.secondsByActivity[static_cast<std::size_t>(a)];
    }
    result.referenceChip = options.slowChip.value_or(0);
    result.slowestChip = trace::chipOthersWaitFor(t);
    result.json = timelineJson(s, plan, t, static_cast<ChipId>(result.referenceChip),
                               static_cast<ChipId>(result.slowestChip));
    return result;
}

} // namespace podscope::api
