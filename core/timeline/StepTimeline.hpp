#pragma once

#include "collective/ConcurrentCollectives.hpp"
#include "common/Cancelled.hpp"
#include "topology/Topology.hpp"
#include "training/Scenario.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podscope {

// What a chip is doing at a moment of the step (the 3-D view colours chips by it).
enum class ChipActivity : std::uint8_t {
    Idle,
    WaitingForInput, // the host's batch is not in HBM yet
    Forward,
    Backward,
    ModelParallel,    // halo swaps, tensor all-reduces
    BatchNormSync,    // cross-replica batch-norm sums
    GradientSync,     // gradient reduce, weight gather, norms of sharded weights
    Optimizer,        // the update (or the update of a shard)
    WaitingAtBarrier, // a collective waits for a slower member of its group
    Evaluating,
};
inline constexpr int kChipActivityCount = 10;
const char* toString(ChipActivity activity);

// What-ifs the timeline can play (docs/step-timeline.md).
struct TimelineOptions {
    int steps = 1;               // consecutive training steps; the detail is kept for the last
    bool withEvaluation = false; // append the evaluations' share of the step after it
    // Exchanges that overlap in time (gradient buckets under the backward pass) share the links
    // in the event engine; off, each is timed alone.
    bool contention = true;
    std::optional<ChipId> slowChip;
    double slowChipFactor = 1.5; // the slow chip's compute takes this much longer
    std::optional<int> slowHost;
    double slowHostFactor = 2.0; // the slow host needs this much longer per batch
    double hostJitter = 0;       // coefficient of variation of a host's time per batch
    std::uint64_t seed = 1;
    // Set from another thread, the simulation throws Cancelled soon after (the app's Cancel).
    const StopFlag* stop = nullptr;
};

// When a chip was at an item of the step: it was ready from `readyS` and ran from `startS`
// (later when it waited for its group or its input) to `endS`. Seconds from the step's start.
struct ChipSpan {
    double readyS = 0;
    double startS = 0;
    double endS = 0;
};

// One piece of the step, as every chip runs it, in the plan's order.
struct TimelineItem {
    ChipActivity activity = ChipActivity::Idle;
    std::string name;        // "group1.block2.conv2 forward", "gradient reduce, bucket 3 of 9"
    std::string group;       // the layer group ("group3", "layer07") or the exchange kind
    int layer = -1;          // index into the plan's layers
    int exchange = -1;       // index into the plan's exchanges
    double bytes = 0;        // per chip, for exchanges
    bool background = false; // runs beside the chip's compute (gradient buckets)
    ChipSpan common;         // the span most chips have
    std::vector<std::pair<ChipId, ChipSpan>> exceptions; // chips whose span differs, by chip

    const ChipSpan& spanOf(ChipId chip) const;
};

struct StepTimeline {
    std::int64_t chips = 0;
    std::vector<TimelineItem> items;
    double stepS = 0;               // the detailed step: start to the last chip's end
    std::vector<double> stepTimesS; // every simulated step
    double meanStepS = 0, p50StepS = 0, p99StepS = 0;
    double analyticTrainStepS = 0; // the analytic evaluator's step for the same plan
    // Where the timeline and the analytic model differ, and why ("contention between gradient
    // buckets", "the slow chip", ...); empty when they agree within 2 %.
    std::string difference;
    // Seconds of the detailed step the reference chip (chip 0, or the slow chip's group) spent
    // in each activity.
    std::vector<double> secondsByActivity = std::vector<double>(kChipActivityCount, 0.0);
    std::vector<int> foreground; // the items that occupy a chip (not background), in order
    // How the collectives were timed: ring step by ring step (the event engine), or as flows
    // sharing the links max-min fairly where the ring steps would be too many (the flow
    // engine; docs/step-timeline.md, "Contention at scale").
    NetworkModel network = NetworkModel::RingSteps;

    // The item a chip is at (-1 before the first and after the last), and what it is doing then.
    int itemAt(ChipId chip, double t) const;
    ChipActivity activityAt(ChipId chip, double t) const;
};

// Simulates the plan's step on every chip (docs/step-timeline.md). The plan is the caller's,
// built once for `scenario` (buildStepPlan); `analytic` is the analytic evaluator's result for
// it (evaluateStepPlan), which the timeline compares itself with. Throws InputError naming the
// field.
StepTimeline simulateStepTimeline(const Scenario& scenario, const StepPlan& plan,
                                  const TrainingResult& analytic,
                                  const TimelineOptions& options = {});
// The same, evaluating the plan analytically first.
StepTimeline simulateStepTimeline(const Scenario& scenario, const StepPlan& plan,
                                  const TimelineOptions& options = {});

} // namespace podscope
