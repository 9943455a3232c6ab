#include "timeline/StepTimeline.hpp"

#include "collective/EventEngine.hpp"
#include "collective/MultisliceSum.hpp"
#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "timeline/TileExchangeTimer.hpp"
#include "training/Framework.hpp"
#include "training/ResourceCache.hpp"
#include "training/StepModel.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>

namespace podscope {
namespace {

// An item before it is timed: what it is and how long it takes on a chip of normal speed.
struct Work {
    TimelineItem item;
    double seconds = 0;
    bool compute = false;         // slowed by a slow chip
    bool input = false;           // waits for the host's batch
    bool waitsForBuckets = false; // the end of the backward pass waits for the gradient buckets
    const std::vector<int>* groups = nullptr; // per chip; null: every chip on its own
    int afterItem = -1;                       // background items: start when this item has ended
};

// Ring steps the timeline gives the event engine for the gradient buckets together; beyond,
// the flow engine times them (docs/step-timeline.md, "Contention at scale").
constexpr std::int64_t kMaxTimelineRingSteps = limits::kMaxEventEngineEvents;

std::string pct(double fraction) {
    std::ostringstream s;
    s.precision(2);
    s << std::fixed << 100 * fraction << " %";
    return s.str();
}

class Simulator {
public:
    Simulator(const Scenario& scenario, const StepPlan& plan, const TrainingResult& analytic,
              const TimelineOptions& options)
        : scenario_(scenario)
        , options_(options)
        , plan_(plan)
        , analytic_(analytic)
        , timer_(plan_)
        , chips_(plan_.topology.chipCount()) {
        timer_.setStop(options_.stop);
    }

    StepTimeline run() {
        throwIfStopped(options_.stop);
        validate();
        const TrainingResult& analytic = analytic_;
        analyticStepS_ = analytic.trainStepS;
        deviceStepS_ = analytic.trainStepS - analytic.input.stallS;
        // Each host of every slice prepares its share of the global batch.
        hostBatchS_ = analytic.input.capacityExamplesPerSPerHost > 0
                          ? static_cast<double>(scenario_.globalBatch) / plan_.slices /
                                plan_.topology.hostCount() /
                                analytic.input.capacityExamplesPerSPerHost
                          : 0.0;
        buildWork();
        setUpChips();
        int steps = std::max(options_.steps, 1);
        const int prefetch = std::max(scenario_.input.prefetchBatches, 1);
        if (analytic.input.inputBound || options_.hostJitter > 0 || options_.slowHost) {
            // The host falls behind only once the prefetched batches are used up.
            steps = std::max(steps, prefetch + 2);
        }
        StepTimeline timeline;
        timeline.chips = chips_;
        timeline.analyticTrainStepS = analyticStepS_;
        double stepStart = 0;
        for (int t = 0; t < steps; ++t) {
            throwIfStopped(options_.stop);
            const bool detail = t == steps - 1;
            const double end = simulateStep(t, prefetch, stepStart, detail ? &timeline : nullptr);
            timeline.stepTimesS.push_back(end - stepStart);
            stepStart = end;
        }
        summarise(timeline);
        if (flows_ || timer_.usedFlows()) {
            timeline.network = NetworkModel::Flows;
        }
        return timeline;
    }

private:
    void validate() const {
        if (options_.steps < 1 || options_.steps > 10000) {
            throw InputError("steps", "must be between 1 and 10000");
        }
        if (options_.slowChip && (*options_.slowChip < 0 || *options_.slowChip >= chips_)) {
            throw InputError("slow-chip",
                             "must name a chip from 0 to " + std::to_string(chips_ - 1));
        }
        if (options_.slowHost &&
            (*options_.slowHost < 0 || *options_.slowHost >= plan_.topology.hostCount())) {
            throw InputError("slow-host", "must name a host from 0 to " +
                                              std::to_string(plan_.topology.hostCount() - 1));
        }
        if (!(options_.slowChipFactor >= 1 && options_.slowChipFactor <= 100) ||
            !(options_.slowHostFactor >= 1 && options_.slowHostFactor <= 100)) {
            throw InputError("slow-factor", "must be between 1 and 100");
        }
        if (!(options_.hostJitter >= 0 && options_.hostJitter <= 2)) {
            throw InputError("host-jitter", "must be a coefficient of variation from 0 to 2");
        }
    }

    const std::vector<int>* groupsOf(const GroupLayout& layout) {
        std::string key = std::to_string(static_cast<int>(layout.kind));
        for (int t : layout.tile) {
            key += 'x'; // appended apart: GCC 12 at -O3 reports a false -Wrestrict for "x" + string
            key += std::to_string(t);
        }
        auto it = groupCache_.find(key);
        if (it == groupCache_.end()) {
            std::vector<int> ids(static_cast<std::size_t>(chips_));
            for (ChipId c = 0; c < chips_; ++c) {
                ids[static_cast<std::size_t>(c)] = groupOf(plan_.topology, layout, c);
            }
            it = groupCache_.emplace(key, std::move(ids)).first;
        }
        return &it->second;
    }

    const std::vector<int>* exchangeGroups(const Exchange& e) {
        if (e.collective) {
            return groupsOf(e.collective->groups);
        }
        const bool replica =
            e.kind == ExchangeKind::Halo || e.kind == ExchangeKind::TensorAllReduce;
        if (replica && plan_.parallelism.chipsPerReplica > 1) {
            GroupLayout tile;
            tile.kind = GroupLayout::Kind::WithinTile;
            tile.tile = plan_.parallelism.replicaTile;
            return groupsOf(tile);
        }
        return nullptr; // the chip's own two cores
    }

    static ChipActivity activityOf(ExchangeKind kind) {
        switch (kind) {
        case ExchangeKind::Halo:
        case ExchangeKind::TensorAllReduce:
            return ChipActivity::ModelParallel;
        case ExchangeKind::BatchNormSum:
            return ChipActivity::BatchNormSync;
        default:
            return ChipActivity::GradientSync;
        }
    }

    void addExchange(int index, const std::string& name) {
        const Exchange& e = plan_.exchanges[static_cast<std::size_t>(index)];
        Work w;
        w.item.activity = activityOf(e.kind);
        w.item.name = name;
        w.item.group = toString(e.kind);
        w.item.layer = e.layer;
        w.item.exchange = index;
        w.item.bytes =
            e.collective ? e.collective->bytesPerChip : std::max(e.onChipBytes, e.iciBytes);
        w.seconds = timer_.seconds(e);
        w.groups = exchangeGroups(e);
        work_.push_back(std::move(w));
    }

    void buildWork() {
        const auto& layers = plan_.graph->layers;
        // Exchanges by layer and pass.
        std::multimap<std::pair<int, StepPhase>, int> byLayer;
        std::vector<int> buckets, afterBackward, update;
        for (std::size_t i = 0; i < plan_.exchanges.size(); ++i) {
            const Exchange& e = plan_.exchanges[i];
            const int index = static_cast<int>(i);
            if (e.kind == ExchangeKind::GradientReduce) {
                (e.phase == StepPhase::Backward ? buckets : afterBackward).push_back(index);
            } else if (e.kind == ExchangeKind::GradientGather ||
                       e.kind == ExchangeKind::LayerNormSum) {
                update.push_back(index);
            } else {
                byLayer.emplace(std::pair{e.layer, e.phase}, index);
            }
        }
        Work input;
        input.item.activity = ChipActivity::WaitingForInput;
        input.item.name = "input batch";
        input.item.group = "input";
        input.input = true;
        work_.push_back(input);
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const int layer = static_cast<int>(i);
            auto exchanges = byLayer.equal_range({layer, StepPhase::Forward});
            for (auto it = exchanges.first; it != exchanges.second; ++it) {
                const ExchangeKind kind =
                    plan_.exchanges[static_cast<std::size_t>(it->second)].kind;
                if (kind == ExchangeKind::Halo) {
                    addExchange(it->second, layers[i].name + " halo");
                }
            }
            Work w;
            w.item.activity = ChipActivity::Forward;
            w.item.name = layers[i].name + " forward";
            w.item.group = layers[i].group;
            w.item.layer = layer;
            w.seconds = plan_.layers[i].forward.seconds;
            w.compute = true;
            work_.push_back(std::move(w));
            for (auto it = exchanges.first; it != exchanges.second; ++it) {
                const ExchangeKind kind =
                    plan_.exchanges[static_cast<std::size_t>(it->second)].kind;
                if (kind != ExchangeKind::Halo) {
                    addExchange(it->second, layers[i].name + " " + toString(kind));
                }
            }
        }
        auto addRecompute = [&](std::size_t index) {
            if (plan_.layers[index].recompute.seconds > 0) {
                Work again;
                again.item.activity = ChipActivity::Forward;
                again.item.name = layers[index].name + " recompute";
                again.item.group = layers[index].group;
                again.item.layer = static_cast<int>(index);
                again.seconds = plan_.layers[index].recompute.seconds;
                again.compute = true;
                work_.push_back(std::move(again));
            }
        };
        for (std::size_t i = layers.size(); i-- > 0;) {
            const int layer = static_cast<int>(i);
            // A recomputed layer's output is needed by the next layer's backward pass: the
            // recompute runs just before it (the last layer's before its own).
            if (i + 1 == layers.size()) {
                addRecompute(i);
            }
            if (i > 0) {
                addRecompute(i - 1);
            }
            Work w;
            w.item.activity = ChipActivity::Backward;
            w.item.name = layers[i].name + " backward";
            w.item.group = layers[i].group;
            w.item.layer = layer;
            w.seconds = plan_.layers[i].backward.seconds;
            w.compute = true;
            work_.push_back(std::move(w));
            const int backwardItem = static_cast<int>(work_.size()) - 1;
            auto exchanges = byLayer.equal_range({layer, StepPhase::Backward});
            for (auto it = exchanges.first; it != exchanges.second; ++it) {
                const ExchangeKind kind =
                    plan_.exchanges[static_cast<std::size_t>(it->second)].kind;
                addExchange(it->second, layers[i].name + " " + toString(kind) + " (backward)");
            }
            for (std::size_t b = 0; b < buckets.size(); ++b) {
                if (plan_.exchanges[static_cast<std::size_t>(buckets[b])].layer == layer) {
                    addExchange(buckets[b], "gradient reduce, bucket " + std::to_string(b + 1) +
                                                " of " + std::to_string(buckets.size()));
                    work_.back().item.background = true;
                    work_.back().afterItem = backwardItem;
                    followed_.insert(backwardItem);
                }
            }
        }
        if (!buckets.empty()) {
            Work wait;
            wait.item.activity = ChipActivity::GradientSync;
            wait.item.name = "gradient buckets (waiting for the last)";
            wait.item.group = toString(ExchangeKind::GradientReduce);
            wait.waitsForBuckets = true;
            work_.push_back(std::move(wait));
        }
        for (int index : afterBackward) {
            addExchange(index,
                        "gradient " + std::string(plan_.weightUpdateSharded ? "reduce-scatter"
                                                                            : "all-reduce"));
        }
        if (plan_.slices > 1) {
            // Multislice: each chip's shard all-reduced across the slices over the hosts' NICs,
            // between the ICI reduce-scatter and all-gather (docs/multislice.md). No ICI link.
            Work dcn;
            dcn.item.activity = ChipActivity::GradientSync;
            dcn.item.name = dcnStageName(plan_.slices);
            dcn.item.group = "dcn";
            dcn.item.bytes = plan_.dcn.bytesPerHost;
            dcn.seconds = plan_.dcn.seconds();
            work_.push_back(std::move(dcn));
        }
        for (int index : update) {
            if (plan_.exchanges[static_cast<std::size_t>(index)].kind ==
                ExchangeKind::LayerNormSum) {
                addExchange(index, "layer norms of the shards");
            }
        }
        Work optimizer;
        optimizer.item.activity = ChipActivity::Optimizer;
        optimizer.item.name =
            (plan_.weightUpdateSharded ? "sharded " : "") + plan_.optimizer.name + " update";
        optimizer.item.group = "optimizer";
        optimizer.seconds = kernelTime(plan_.optimizer.work, plan_.core).seconds;
        optimizer.compute = true;
        work_.push_back(std::move(optimizer));
        for (int index : update) {
            if (plan_.exchanges[static_cast<std::size_t>(index)].kind ==
                ExchangeKind::GradientGather) {
                addExchange(index, "weight all-gather");
            }
        }
        const Framework& fw = *plan_.framework;
        if (fw.perStepOverheadS > 0) {
            Work overhead;
            overhead.item.activity = ChipActivity::Idle;
            overhead.item.name = "framework overhead";
            overhead.item.group = "overhead";
            overhead.seconds = fw.perStepOverheadS;
            work_.push_back(std::move(overhead));
        }
        if (options_.withEvaluation) {
            addEvaluation();
        }
        if (options_.contention) {
            timeBucketsTogether();
        }
    }

    // The evaluations' share of the step, the parts the analytic model charges
    // (EvaluationShare): the device passes (slowed by a slow chip), the host's metric that a
    // synchronous evaluation waits for, the first evaluation's compile, the loops' round trips.
    // A run of unknown length has no share: the timeline then plays one whole evaluation pass.
    void addEvaluation() {
        auto add = [&](std::string name, double seconds, bool compute) {
            if (!(seconds > 0)) {
                return;
            }
            Work eval;
            eval.item.activity = ChipActivity::Evaluating;
            eval.item.name = std::move(name);
            eval.item.group = "evaluation";
            eval.seconds = seconds;
            eval.compute = compute;
            work_.push_back(std::move(eval));
        };
        if (analytic_.steps <= 0) {
            add("evaluation pass (one; the run's length is unknown)",
                evaluationDeviceSeconds(plan_, plan_.workload->evalExamples), true);
            return;
        }
        const EvaluationShare& share = analytic_.evalShare;
        // Each part as the run spreads it over its steps.
        const std::string spread = " (" + std::to_string(analytic_.evaluations) +
                                   " evaluations over " + std::to_string(analytic_.steps) +
                                   " steps)";
        add("evaluation passes on the chips" + spread, share.deviceS, true);
        add("host metric wait" + spread, share.hostMetricWaitS, false);
        add("first evaluation's compile (over " + std::to_string(analytic_.steps) + " steps)",
            share.compileS, false);
        add("device loop round trips" + spread, share.loopRoundTripS, false);
    }

    // Buckets overlap each other (and would queue on the links): the event engine runs them
    // together from the times the backward pass makes them ready, so they contend for links.
    void timeBucketsTogether() {
        std::vector<CollectiveLaunch> launches;
        std::vector<std::size_t> items;
        double backward = 0;
        for (std::size_t i = 0; i < work_.size(); ++i) {
            const Work& w = work_[i];
            if (w.item.activity == ChipActivity::Backward) {
                backward += w.seconds;
            }
            if (w.item.background) {
                const Exchange& e = plan_.exchanges[static_cast<std::size_t>(w.item.exchange)];
                if (e.collective) {
                    launches.push_back({*e.collective, backward});
                    items.push_back(i);
                }
            }
        }
        if (launches.size() < 2) {
            return;
        }
        for (const auto& launch : launches) {
            validateCollective(plan_.topology, launch.spec);
        }
        // Ring step by ring step where the event engine takes them, as flows beyond.
        const ConcurrentTimes run =
            timeConcurrently(plan_.topology, launches, options_.stop, kMaxTimelineRingSteps);
        flows_ = run.model == NetworkModel::Flows;
        // The engine starts each bucket when it is ready; it ends later than alone when it
        // waits for links the others hold. The timeline queues a group's buckets itself (start
        // at the later of ready and the previous bucket's end), so each gets the duration that
        // reproduces the engine's end from there.
        double previousEnd = 0;
        for (std::size_t k = 0; k < items.size(); ++k) {
            Work& w = work_[items[k]];
            const double end = launches[k].startS + run.timeS[k];
            const double start = std::max(launches[k].startS, previousEnd);
            const double onChip = w.seconds - timer_.collectiveSeconds(launches[k].spec);
            const double contended = std::max(end - start, 0.0) + onChip;
            if (contended > w.seconds * (1 + 1e-9)) {
                contended_ = true;
            }
            w.seconds = std::max(w.seconds, contended);
            previousEnd = end;
        }
    }

    void setUpChips() {
        const auto n = static_cast<std::size_t>(chips_);
        speed_.assign(n, 1.0);
        host_.assign(n, 0);
        for (ChipId c = 0; c < chips_; ++c) {
            host_[static_cast<std::size_t>(c)] = plan_.topology.hostOf(c);
        }
        if (options_.slowChip) {
            speed_[static_cast<std::size_t>(*options_.slowChip)] = options_.slowChipFactor;
        }
        const int hosts = plan_.topology.hostCount();
        hostDone_.assign(static_cast<std::size_t>(hosts), {});
        drained_.assign(static_cast<std::size_t>(hosts), false);
        for (int h = 0; h < hosts; ++h) {
            const double nominal = options_.slowHost && *options_.slowHost == h
                                       ? hostBatchS_ * options_.slowHostFactor
                                       : hostBatchS_;
            drained_[static_cast<std::size_t>(h)] = nominal > deviceStepS_;
        }
        hostTaken_.assign(static_cast<std::size_t>(hosts), {});
        ready_.assign(n, 0.0);
        random_.seed(options_.seed);
    }

    double hostBatchSeconds(int host) {
        double t = hostBatchS_;
        if (options_.slowHost && *options_.slowHost == host) {
            t *= options_.slowHostFactor;
        }
        if (options_.hostJitter > 0) {
            // Lognormal with the given coefficient of variation and the same mean.
            const double sigma2 = std::log(1 + options_.hostJitter * options_.hostJitter);
            std::normal_distribution<double> normal(-sigma2 / 2, std::sqrt(sigma2));
            t *= std::exp(normal(random_));
        }
        return t;
    }

    // Simulates step t from the chips' current ready times; returns when the last chip ends.
    double simulateStep(int t, int prefetch, double stepStart, StepTimeline* detail) {
        const auto n = static_cast<std::size_t>(chips_);
        const int hosts = plan_.topology.hostCount();
        // The hosts: batch t is ready when the host finished it, having started once batch t-1
        // was done and a buffer slot was free (batch t - prefetch taken).
        std::vector<double> batchReady(static_cast<std::size_t>(hosts));
        for (int h = 0; h < hosts; ++h) {
            auto& done = hostDone_[static_cast<std::size_t>(h)];
            auto& taken = hostTaken_[static_cast<std::size_t>(h)];
            // The timeline shows a long run's steady steps: a host that keeps up starts them with
            // its buffer full, one slower than the chips on average has long since drained it.
            double ready = 0;
            if (t >= prefetch || drained_[static_cast<std::size_t>(h)]) {
                const double previous = done.empty() ? 0.0 : done.back();
                const double slot =
                    t >= prefetch ? taken[static_cast<std::size_t>(t - prefetch)] : 0.0;
                ready = std::max(previous, slot) + hostBatchSeconds(h);
            } else {
                hostBatchSeconds(h); // keep the random sequence independent of the prefetch depth
            }
            done.push_back(ready);
            batchReady[static_cast<std::size_t>(h)] = ready;
        }
        std::vector<ChipSpan> spans(n);
        std::vector<double> groupStart;
        std::vector<double> bucketEnd(n, 0.0); // per chip: when its groups' buckets are done
        std::vector<std::vector<double>> endsOf(work_.size()); // for the items buckets follow
        for (std::size_t i = 0; i < work_.size(); ++i) {
            throwIfStopped(options_.stop); // each item visits every chip: 65,536 at most
            const Work& w = work_[i];
            if (w.input) {
                for (std::size_t c = 0; c < n; ++c) {
                    const double ready =
                        std::max(ready_[c], batchReady[static_cast<std::size_t>(host_[c])]);
                    spans[c] = {ready_[c], ready, ready};
                    ready_[c] = ready;
                }
                for (int h = 0; h < hosts; ++h) {
                    hostTaken_[static_cast<std::size_t>(h)].push_back(0);
                }
                for (std::size_t c = 0; c < n; ++c) {
                    double& taken = hostTaken_[static_cast<std::size_t>(host_[c])].back();
                    taken = std::max(taken, ready_[c]);
                }
            } else if (w.item.background) {
                // Starts when its last gradient is ready on every member of the group and the
                // previous bucket of the group is done; the chips go on computing.
                const std::vector<double>& after = endsOf[static_cast<std::size_t>(w.afterItem)];
                runGroups(w, after, bucketEnd, spans, /*advance=*/false);
                for (std::size_t c = 0; c < n; ++c) {
                    bucketEnd[c] = spans[c].endS;
                }
            } else if (w.waitsForBuckets) {
                for (std::size_t c = 0; c < n; ++c) {
                    const double end = std::max(ready_[c], bucketEnd[c]);
                    spans[c] = {ready_[c], ready_[c], end};
                    ready_[c] = end;
                }
            } else if (w.compute || w.seconds == 0 || w.item.exchange < 0) {
                for (std::size_t c = 0; c < n; ++c) {
                    const double d = w.compute ? w.seconds * speed_[c] : w.seconds;
                    spans[c] = {ready_[c], ready_[c], ready_[c] + d};
                    ready_[c] += d;
                }
            } else {
                runGroups(w, ready_, ready_, spans, /*advance=*/true);
            }
            if (followed_.count(static_cast<int>(i))) {
                endsOf[i].resize(n);
                for (std::size_t c = 0; c < n; ++c) {
                    endsOf[i][c] = spans[c].endS;
                }
            }
            if (detail) {
                record(w, spans, stepStart, *detail);
            }
        }
        return *std::max_element(ready_.begin(), ready_.end());
    }

    // An exchange among groups: it starts when the last member is ready (and, for a queue such
    // as the gradient buckets, when the group's previous one is done).
    void runGroups(const Work& w, const std::vector<double>& ready,
                   const std::vector<double>& queue, std::vector<ChipSpan>& spans, bool advance) {
        const auto n = static_cast<std::size_t>(chips_);
        if (!w.groups) {
            for (std::size_t c = 0; c < n; ++c) {
                const double start = std::max(ready[c], queue[c]);
                spans[c] = {ready[c], start, start + w.seconds};
            }
        } else {
            const auto& ids = *w.groups;
            std::unordered_map<int, double> start;
            for (std::size_t c = 0; c < n; ++c) {
                double& s = start.try_emplace(ids[c], 0.0).first->second;
                s = std::max({s, ready[c], queue[c]});
            }
            for (std::size_t c = 0; c < n; ++c) {
                const double s = start[ids[c]];
                spans[c] = {ready[c], s, s + w.seconds};
            }
        }
        if (advance) {
            for (std::size_t c = 0; c < n; ++c) {
                ready_[c] = spans[c].endS;
            }
        }
    }

    // Keeps the detailed step: the span most chips share, and the chips that differ.
    static void record(const Work& w, const std::vector<ChipSpan>& spans, double stepStart,
                       StepTimeline& timeline) {
        TimelineItem item = w.item;
        auto shifted = [stepStart](ChipSpan s) {
            return ChipSpan{s.readyS - stepStart, s.startS - stepStart, s.endS - stepStart};
        };
        auto same = [](const ChipSpan& a, const ChipSpan& b) {
            return a.readyS == b.readyS && a.startS == b.startS && a.endS == b.endS;
        };
        // The mode: chip 0's span unless fewer than half the chips share it.
        ChipSpan mode = spans.front();
        std::size_t count = 0;
        for (const ChipSpan& s : spans) {
            count += same(s, mode) ? 1 : 0;
        }
        if (2 * count < spans.size()) {
            std::map<std::tuple<double, double, double>, std::size_t> counts;
            for (const ChipSpan& s : spans) {
                ++counts[{s.readyS, s.startS, s.endS}];
            }
            const auto best =
                std::max_element(counts.begin(), counts.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
            mode = {std::get<0>(best->first), std::get<1>(best->first), std::get<2>(best->first)};
        }
        item.common = shifted(mode);
        for (std::size_t c = 0; c < spans.size(); ++c) {
            if (!same(spans[c], mode)) {
                item.exceptions.emplace_back(static_cast<ChipId>(c), shifted(spans[c]));
            }
        }
        timeline.items.push_back(std::move(item));
    }

    void summarise(StepTimeline& timeline) const {
        const auto& times = timeline.stepTimesS;
        timeline.stepS = times.back();
        double sum = 0;
        for (double t : times) {
            sum += t;
        }
        timeline.meanStepS = sum / static_cast<double>(times.size());
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        auto quantile = [&](double q) {
            const auto k =
                static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size()))) - 1;
            return sorted[std::min(k, sorted.size() - 1)];
        };
        timeline.p50StepS = quantile(0.5);
        timeline.p99StepS = quantile(0.99);
        for (std::size_t i = 0; i < timeline.items.size(); ++i) {
            if (!timeline.items[i].background) {
                timeline.foreground.push_back(static_cast<int>(i));
            }
        }
        // What the reference chip (the slow one, if any) did.
        const ChipId reference = options_.slowChip.value_or(0);
        for (const TimelineItem& item : timeline.items) {
            if (item.background) {
                continue;
            }
            const ChipSpan& s = item.spanOf(reference);
            const double waited = s.startS - s.readyS;
            const ChipActivity waiting =
                item.activity == ChipActivity::WaitingForInput ? ChipActivity::WaitingForInput
                : item.activity == ChipActivity::GradientSync  ? ChipActivity::GradientSync
                                                               : ChipActivity::WaitingAtBarrier;
            timeline.secondsByActivity[static_cast<std::size_t>(waiting)] += waited;
            timeline.secondsByActivity[static_cast<std::size_t>(item.activity)] +=
                s.endS - s.startS;
        }
        // Where it differs from the analytic step, and why.
        const double evaluation =
            options_.withEvaluation
                ? timeline.secondsByActivity[static_cast<std::size_t>(ChipActivity::Evaluating)]
                : 0.0;
        const double train = timeline.stepS - evaluation;
        const double diff = train / analyticStepS_ - 1;
        if (std::abs(diff) > 0.02) {
            std::vector<std::string> causes;
            if (options_.slowChip) {
                std::ostringstream text;
                text << "chip " << *options_.slowChip << " computes " << options_.slowChipFactor
                     << " times slower and its groups wait for it";
                causes.push_back(text.str());
            }
            if (options_.slowHost || options_.hostJitter > 0) {
                causes.push_back("host batches arrive late (slow host or jitter) once the "
                                 "prefetched ones are used");
            }
            if (contended_) {
                causes.push_back("gradient buckets contend for the links");
            }
            if (causes.empty()) {
                causes.push_back(
                    "the event engine's collectives differ from the analytic engine's");
            }
            std::string text =
                "the timeline's step is " + pct(diff) + " from the analytic model's: ";
            for (std::size_t i = 0; i < causes.size(); ++i) {
                text += (i ? "; " : "") + causes[i];
            }
            timeline.difference = text;
        }
    }

    const Scenario& scenario_;
    const TimelineOptions& options_;
    const StepPlan& plan_;
    const TrainingResult& analytic_;
    TileExchangeTimer timer_;
    std::int64_t chips_;
    std::vector<Work> work_;
    std::map<std::string, std::vector<int>> groupCache_;
    std::vector<double> speed_;
    std::vector<int> host_;
    std::vector<double> ready_;
    std::vector<std::vector<double>> hostDone_;
    std::vector<bool>
        drained_; // per host: slower than the chips on average, so its buffer is empty
    std::vector<std::vector<double>> hostTaken_;
    std::mt19937_64 random_;
    double analyticStepS_ = 0;
    double deviceStepS_ = 0; // the analytic step without the input stall
    double hostBatchS_ = 0;
    bool contended_ = false;
    bool flows_ = false;     // the buckets were timed as flows
    std::set<int> followed_; // items whose per-chip ends a background item needs
};

} // namespace

const char* toString(ChipActivity activity) {
    switch (activity) {
    case ChipActivity::Idle:
        return "idle";
    case ChipActivity::WaitingForInput:
        return "waiting for input";
    case ChipActivity::Forward:
        return "forward";
    case ChipActivity::Backward:
        return "backward";
    case ChipActivity::ModelParallel:
        return "model-parallel exchange";
    case ChipActivity::BatchNormSync:
        return "batch-norm sum";
    case ChipActivity::GradientSync:
        return "gradient sync";
    case ChipActivity::Optimizer:
        return "optimizer";
    case ChipActivity::WaitingAtBarrier:
        return "waiting at a barrier";
    case ChipActivity::Evaluating:
        return "evaluating";
    }
    return "?";
}

const ChipSpan& TimelineItem::spanOf(ChipId chip) const {
    const auto it = std::lower_bound(exceptions.begin(), exceptions.end(), chip,
                                     [](const auto& e, ChipId c) { return e.first < c; });
    return it != exceptions.end() && it->first == chip ? it->second : common;
}

int StepTimeline::itemAt(ChipId chip, double t) const {
    // A chip's own (foreground) items follow one another: the first that ends after t.
    const auto it =
        std::upper_bound(foreground.begin(), foreground.end(), t, [&](double time, int i) {
            return time < items[static_cast<std::size_t>(i)].spanOf(chip).endS;
        });
    if (it == foreground.end()) {
        return -1;
    }
    const ChipSpan& s = items[static_cast<std::size_t>(*it)].spanOf(chip);
    return t >= s.readyS ? *it : -1;
}

ChipActivity StepTimeline::activityAt(ChipId chip, double t) const {
    const int i = itemAt(chip, t);
    if (i < 0) {
        return ChipActivity::Idle;
    }
    const TimelineItem& item = items[static_cast<std::size_t>(i)];
    const ChipSpan& s = item.spanOf(chip);
    if (t < s.startS) {
        return item.activity == ChipActivity::WaitingForInput ||
                       item.activity == ChipActivity::GradientSync
                   ? item.activity
                   : ChipActivity::WaitingAtBarrier;
    }
    return item.activity;
}

StepTimeline simulateStepTimeline(const Scenario& scenario, const StepPlan& plan,
                                  const TrainingResult& analytic, const TimelineOptions& options) {
    return Simulator(scenario, plan, analytic, options).run();
}

StepTimeline simulateStepTimeline(const Scenario& scenario, const StepPlan& plan,
                                  const TimelineOptions& options) {
    return simulateStepTimeline(scenario, plan, evaluateStepPlan(plan, scenario), options);
}

} // namespace podscope
