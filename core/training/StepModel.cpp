#include "training/StepModel.hpp"

#include "common/InputError.hpp"
#include "training/ExchangeTimer.hpp"
#include "training/Framework.hpp"
#include "training/ResourceCache.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

namespace podscope {
namespace {

// Evaluations at first, first + every, ... up to the end of the run. A run that ends within a
// twentieth of an interval short of an evaluation point still makes it: epochs and evaluation
// intervals are rounded to whole steps differently by each code base.
int evaluationCount(const EvalSchedule& e, double runExamples, double unitExamples) {
    if (!(e.every > 0)) {
        return 0;
    }
    const double every = e.every * unitExamples;
    const double first = e.first * unitExamples;
    constexpr double kSlack = 0.05;
    if (runExamples < first - kSlack * every) {
        return 0;
    }
    return 1 + static_cast<int>(std::floor((runExamples - first) / every + kSlack));
}

std::string bottleneckOf(const StepBreakdown& b) {
    if (b.inputStall > 0) {
        return "input";
    }
    const std::vector<std::pair<const char*, double>> parts = {
        {"compute", b.compute + b.recompute},
        {"gradient_sync", b.gradientSyncExposed},
        {"model_parallel_comm", b.modelParallelComm},
        {"batch_norm_sync", b.batchNormSync},
        {"optimizer", b.optimizer},
        {"eval", b.evalAmortized},
        {"overhead", b.overhead}};
    const auto it = std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& c) {
        return a.second < c.second;
    });
    return it->first;
}

} // namespace

// One forward pass of the evaluation set, sharded over the replicas (padded to whole batches),
// or the workload's beam search.
double evaluationDeviceSeconds(const StepPlan& p, double evalExamples) {
    evalExamples /= p.slices; // every slice evaluates its share of the set
    if (p.workload->decode) {
        return beamSearchTime(*p.workload->decode, p, evalExamples).seconds;
    }
    const double perReplica = std::ceil(evalExamples / static_cast<double>(p.parallelism.replicas));
    double seconds = 0;
    for (std::size_t i = 0; i < p.graph->layers.size(); ++i) {
        seconds +=
            lowerLayer(p.graph->layers[i], perReplica, p.split, p.core, i > 0).forward.seconds;
    }
    return seconds;
}

std::vector<CollectiveSpec> gradientCollectives(const Scenario& s) {
    return gradientCollectives(buildStepPlanUnchecked(s));
}

std::vector<CollectiveSpec> gradientCollectives(const StepPlan& p) {
    std::vector<CollectiveSpec> specs;
    double bytes = 0;
    for (const Exchange& e : p.exchanges) {
        if (e.kind == ExchangeKind::GradientReduce && e.collective) {
            bytes += e.collective->bytesPerChip;
            if (specs.empty()) {
                specs.push_back(*e.collective);
            }
        }
    }
    if (!specs.empty()) {
        specs.front().bytesPerChip = bytes;
    }
    for (const Exchange& e : p.exchanges) {
        if (e.kind == ExchangeKind::GradientGather && e.collective) {
            specs.push_back(*e.collective);
        }
    }
    return specs;
}

std::vector<double> exchangeSeconds(const StepPlan& p) {
    ExchangeTimer timer(p);
    std::vector<double> seconds;
    seconds.reserve(p.exchanges.size());
    for (const Exchange& e : p.exchanges) {
        seconds.push_back(timer.seconds(e));
    }
    return seconds;
}

TrainingResult evaluateStepPlan(const StepPlan& p, const Scenario& s) {
    return evaluateStepPlan(p, s, evaluationDeviceSeconds(p, p.workload->evalExamples),
                            exchangeSeconds(p));
}

TrainingResult evaluateStepPlan(const StepPlan& p, const Scenario& s, double evaluationDeviceS,
                                const std::vector<double>& exchangeS) {
    const Workload& w = *p.workload;
    const Framework& fw = *p.framework;
    const PlatformFacts& platform = cachedResource<PlatformFacts>(s.hardware, loadPlatformFacts);
    TrainingResult r;
    r.chips = p.topology.chipCount() * p.slices;
    r.plan = p.parallelism;
    r.memory = p.memory;
    StepBreakdown& b = r.breakdown;

    double forwardS = 0, backwardS = 0, flops = 0;
    for (const LayerCost& c : p.layers) {
        forwardS += c.forward.seconds;
        backwardS += c.backward.seconds;
        b.recompute += c.recompute.seconds;
        flops += c.forward.work.flops + c.backward.work.flops;
    }
    b.compute = forwardS + backwardS;
    r.computeEfficiency = b.compute > 0 ? flops / (b.compute * p.core.peakFlops()) : 0;

    double gatherS = 0, reduceFinishS = 0, reduceS = 0;
    for (std::size_t i = 0; i < p.exchanges.size(); ++i) {
        const Exchange& e = p.exchanges[i];
        const double t = exchangeS.at(i);
        switch (e.kind) {
        case ExchangeKind::Halo:
        case ExchangeKind::TensorAllReduce:
            b.modelParallelComm += t;
            break;
        case ExchangeKind::BatchNormSum:
            b.batchNormSync += t;
            break;
        case ExchangeKind::GradientReduce:
            // Buckets go one after another over the links, each once its gradients are ready.
            reduceFinishS = std::max(reduceFinishS, e.readyAfterS) + t;
            reduceS += t;
            break;
        case ExchangeKind::GradientGather:
        case ExchangeKind::LayerNormSum:
            gatherS += t;
            break;
        }
    }
    // Multislice: the DCN all-reduce of the shards runs after the ICI reduce-scatter and before
    // the all-gather (docs/multislice.md).
    r.slices = p.slices;
    r.replicasPerSlice = p.parallelism.replicas;
    r.dcnSyncS = p.dcn.seconds();
    reduceS += r.dcnSyncS;
    reduceFinishS += r.dcnSyncS;
    r.gradientSyncS = reduceS + gatherS;
    const bool bucketed = s.gradient.overlap == GradientOverlap::Bucketed;
    b.gradientSyncExposed =
        (bucketed ? std::max(0.0, reduceFinishS - (backwardS + b.recompute)) : reduceS) + gatherS;
    b.optimizer = kernelTime(p.optimizer.work, p.core).seconds;
    b.overhead = fw.perStepOverheadS;

    // Host input.
    const double deviceStepS = b.compute + b.recompute + b.gradientSyncExposed +
                               b.modelParallelComm + b.batchNormSync + b.optimizer + b.overhead;
    HostInputSettings input = s.input;
    if (!(input.cpuCores > 0)) {
        input.cpuCores = platform.hostCpuCores;
    }
    const int hosts = std::max(p.topology.hostCount(), 1) * p.slices;
    InputCost cost = w.input;
    for (const auto& [value, stage, name] :
         {std::tuple{s.inputCost.readS, &cost.readS, "input.read_s"},
          std::tuple{s.inputCost.decodeS, &cost.decodeS, "input.decode_s"},
          std::tuple{s.inputCost.augmentS, &cost.augmentS, "input.augment_s"},
          std::tuple{s.inputCost.batchS, &cost.batchS, "input.batch_s"}}) {
        if (value) {
            if (!(*value >= 0) || !std::isfinite(*value) || *value > 10) {
                throw InputError(name, "must be between 0 and 10 core-seconds per example");
            }
            *stage = *value;
        }
    }
    r.input = evaluateHostInput(cost, input, hosts, static_cast<double>(r.chips) / hosts,
                                static_cast<double>(s.globalBatch) / hosts, deviceStepS,
                                platform.hostToDeviceBpsPerChip);
    b.inputStall = r.input.stallS;
    r.trainStepS = deviceStepS + b.inputStall;

    // The length of the run: named by the scenario, else the workload's convergence model.
    const double batch = static_cast<double>(s.globalBatch);
    if (s.trainSteps) {
        if (*s.trainSteps < 1) {
            throw InputError("train_steps", "must be at least 1");
        }
        r.steps = *s.trainSteps;
    } else if (s.trainExamples) {
        if (!(*s.trainExamples >= 1) || !std::isfinite(*s.trainExamples)) {
            throw InputError("train_examples", "must be at least 1");
        }
        r.steps = static_cast<std::int64_t>(std::ceil(*s.trainExamples / batch - 1e-9));
    } else if (w.hasConvergence()) {
        const ConvergenceEstimate converge = w.convergence.estimate(batch, fw.name);
        r.extrapolated = converge.extrapolated;
        r.steps = static_cast<std::int64_t>(std::ceil(converge.examples / batch - 1e-9));
    } else {
        r.timeToTrainKnown = false;
        r.timeToTrainMissing =
            w.name + " has no convergence data (examples to its quality target): give "
                     "train_steps (--train-steps N) or train_examples (--train-examples N)";
    }
    r.criticalBatch = w.hasConvergence() ? w.convergence.batchNoise : 0;
    r.epochs = w.trainExamples > 0 ? static_cast<double>(r.steps) * batch / w.trainExamples : 0;
    EvalSchedule schedule = w.evalSchedule(fw.name);
    if (s.evalEveryEpochs) {
        // Bounded below so that the evaluations of a run stay countable (and few).
        if (!(*s.evalEveryEpochs >= 0.1) || !(*s.evalEveryEpochs <= 1000)) {
            throw InputError("eval_every_epochs", "must be between 0.1 and 1000 epochs");
        }
        schedule.unit = EvalSchedule::Unit::Epochs;
        schedule.every = *s.evalEveryEpochs;
        schedule.first = *s.evalEveryEpochs;
    }
    if (s.evalMode) {
        schedule.async = *s.evalMode == EvalMode::Async;
    }
    if (schedule.unit == EvalSchedule::Unit::Epochs && schedule.every > 0 &&
        !(w.trainExamples > 0)) {
        throw InputError("eval_every_epochs",
                         w.name + " states no train_examples, so an epoch has no size");
    }
    const double unitExamples = schedule.unit == EvalSchedule::Unit::Epochs  ? w.trainExamples
                                : schedule.unit == EvalSchedule::Unit::Steps ? batch
                                                                             : 1.0;
    r.evaluations = evaluationCount(schedule, static_cast<double>(r.steps) * batch, unitExamples);
    // The evaluation steps run on the device either way; an asynchronous evaluation hides its
    // host work (metric, BLEU, COCO) behind training except for the last result.
    const double hostMetricWaitS = schedule.async ? 0.0 : schedule.fixedCostS;
    r.evaluationS = evaluationDeviceS + hostMetricWaitS;
    if (w.decode) {
        r.evalDecodeS = evaluationDeviceS;
        r.evalDecode = decodeShape(*w.decode, w.evalExamples,
                                   static_cast<double>(p.parallelism.replicas) * p.slices);
    }
    const int loops = std::max(r.evaluations, 1);
    const double firstExtraS = r.evaluations > 0 ? schedule.firstExtraS : 0.0;
    // A run of unknown length has nothing to amortise over: its step leaves evaluation out.
    if (r.steps > 0) {
        const double steps = static_cast<double>(r.steps);
        r.evalShare.deviceS = r.evaluations * evaluationDeviceS / steps;
        r.evalShare.hostMetricWaitS = r.evaluations * hostMetricWaitS / steps;
        r.evalShare.compileS = firstExtraS / steps;
        r.evalShare.loopRoundTripS = loops * fw.perLoopRoundTripS / steps;
    }
    b.evalAmortized = r.evalShare.total();

    r.stepTimeS = b.total();
    int chipsPerHost = 1;
    for (const int d : p.topology.spec().hostBlock) {
        chipsPerHost *= d;
    }
    r.startupS = w.startupS(fw.name, p.topology.hostCount() * p.slices, chipsPerHost);
    r.finalEvalWaitS = schedule.async && r.evaluations > 0 ? schedule.asyncTailS : 0.0;
    r.timeToTrainS = static_cast<double>(r.steps) * r.stepTimeS + r.startupS + r.finalEvalWaitS;
    r.throughputExamplesPerS = static_cast<double>(s.globalBatch) / r.trainStepS;
    r.modelFlopsUtilization = r.trainStepS > 0 ? flops / (r.trainStepS * p.core.peakFlops()) : 0;
    r.parameters = p.graph->parameters();
    r.forwardFlopsPerExample = 2 * p.graph->forwardMacsPerExample();
    if (!r.timeToTrainKnown) {
        r.timeToTrainS = 0;
        r.finalEvalWaitS = 0;
    }
    r.bottleneck = bottleneckOf(b);
    return r;
}

std::string toString(EvalMode mode) {
    return mode == EvalMode::Sync ? "sync" : "async";
}

std::string toString(GradientOverlap overlap) {
    return overlap == GradientOverlap::Bucketed ? "bucketed" : "after-backward";
}

GradientOverlap parseGradientOverlap(const std::string& text, const std::string& field) {
    if (text == "after-backward") {
        return GradientOverlap::AfterBackward;
    }
    if (text == "bucketed") {
        return GradientOverlap::Bucketed;
    }
    throw InputError(field, "'" + text + "' is not an overlap policy (after-backward, bucketed)");
}

TrainingResult simulateTraining(const Scenario& s, const CoreCalibration* calibration) {
    return evaluateStepPlan(buildStepPlan(s, calibration), s);
}

} // namespace podscope
