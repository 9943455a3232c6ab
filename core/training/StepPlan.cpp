#include "training/StepPlan.hpp"

#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "common/Limits.hpp"
#include "compute/LoweringRules.hpp"
#include "machine/Machine.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Optimizer.hpp"
#include "training/Rematerialization.hpp"
#include "training/ResourceCache.hpp"
#include "workload/WorkloadFile.hpp"

#include <atomic>
#include <cmath>
#include <iomanip>
#include <map>
#include <mutex>
#include <sstream>

namespace podscope {
namespace {

// Bound layer graphs, one per workload and sequence length; never erased, so references stay.
// Keyed by what the scenario names (a file by its path and version), not the model's own name:
// a user's resnet50.onnx is not the bundled resnet50.
const LayerGraph& boundGraph(const Workload& w, const Scenario& s) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int>, LayerGraph> cache;
    const int length = s.sequenceLength.value_or(0);
    const std::string source =
        isWorkloadFilePath(s.workload) ? workloadFileVersionKey(s.workload) : s.workload;
    std::lock_guard lock(mutex);
    const auto key = std::pair{source, length};
    auto it = cache.find(key);
    if (it == cache.end()) {
        std::map<std::string, double> overrides;
        if (s.sequenceLength) {
            if (w.graph.sequenceVariable.empty()) {
                throw InputError("sequence_length",
                                 w.name + " has no sequence length (its examples are " +
                                     w.exampleUnit + "s)");
            }
            overrides[w.graph.sequenceVariable] = *s.sequenceLength;
        }
        it = cache.emplace(key, bindLayerGraph(w.graph, overrides)).first;
    }
    return it->second;
}

CoreModel coreModel(const std::string& hardware, const CoreCalibration* calibration) {
    CoreModel core = cachedResource<CoreModel>(hardware, loadCoreModel);
    if (calibration) {
        core.kernelOverheadS = calibration->kernelOverheadS;
        core.mxuEfficiency = calibration->mxuEfficiency;
    }
    return core;
}

std::string gib(double bytes) {
    const double value = bytes / (1024.0 * 1024.0 * 1024.0);
    std::ostringstream text;
    text << std::fixed
         << std::setprecision(value >= 100  ? 0
                              : value >= 10 ? 1
                                            : 2)
         << value << " GiB";
    return text.str();
}

// Collectives among the chips of a tile (a replica, a batch-norm group).
CollectiveSpec withinTile(const std::vector<int>& tile, double bytesPerChip, ElementType element) {
    CollectiveSpec spec;
    spec.op = CollectiveOp::AllReduce;
    spec.algorithm = Algorithm::TwoD;
    spec.element = element;
    spec.bytesPerChip = bytesPerChip;
    spec.groups.kind = GroupLayout::Kind::WithinTile;
    spec.groups.tile = tile;
    return spec;
}

void addLayerExchanges(StepPlan& p, const std::vector<bool>& inputGradient,
                       const std::vector<int>& batchNormTile) {
    const int coresPerChip = p.topology.coresPerChip();
    const bool twoCoresPerReplica = std::min(p.parallelism.modelParallel, coresPerChip) > 1;
    for (std::size_t i = 0; i < p.layers.size(); ++i) {
        const LayerCost& c = p.layers[i];
        const int layer = static_cast<int>(i);
        if (c.haloBytes[0] > 0 || c.haloBytes[1] > 0) {
            Exchange e;
            e.kind = ExchangeKind::Halo;
            e.layer = layer;
            // Partitions are strips of the map: a core swaps one border with the other core of
            // its chip and one with a core of the neighbouring chip, at once.
            e.onChipBytes = c.haloBytes[0];
            e.iciBytes = p.parallelism.chipsPerReplica > 1 ? c.haloBytes[0] : 0;
            p.exchanges.push_back(e);
            if (inputGradient[i]) {
                e.phase = StepPhase::Backward;
                p.exchanges.push_back(e);
            }
        }
        for (const auto& [bytes, phase] :
             {std::pair{c.tensorAllReduceForward, StepPhase::Forward},
              std::pair{c.tensorAllReduceBackward, StepPhase::Backward}}) {
            if (bytes <= 0) {
                continue;
            }
            Exchange e;
            e.kind = ExchangeKind::TensorAllReduce;
            e.phase = phase;
            e.layer = layer;
            e.onChipBytes = twoCoresPerReplica ? bytes : 0;
            if (p.parallelism.chipsPerReplica > 1) {
                e.collective = withinTile(p.parallelism.replicaTile, bytes, ElementType::BF16);
            }
            p.exchanges.push_back(e);
        }
        if (c.batchNormChannels > 0 && p.batchNormGroupCores > 1) {
            // Mean and variance (fp32) summed over the group, forward and backward.
            const double bytes = 2 * c.batchNormChannels * 4;
            Exchange e;
            e.kind = ExchangeKind::BatchNormSum;
            e.layer = layer;
            e.onChipBytes = bytes;
            if (!batchNormTile.empty()) {
                e.collective = withinTile(batchNormTile, bytes, ElementType::FP32);
            }
            p.exchanges.push_back(e);
            e.phase = StepPhase::Backward;
            p.exchanges.push_back(e);
        }
    }
}

std::vector<CollectiveSpec> gradientSpecs(const StepPlan& p, const Scenario& s,
                                          double bytesPerChip) {
    CollectiveSpec spec;
    spec.algorithm = s.gradient.algorithm;
    spec.element = s.gradient.precision;
    spec.chunks = s.gradient.chunks;
    if (!s.gradient.dimOrder.empty()) {
        spec.dimOrder = parseDimOrder(s.gradient.dimOrder, p.topology.rank(), "gradient.dim_order");
    }
    spec.bytesPerChip = bytesPerChip;
    if (p.parallelism.kind == ModelParallelKind::Tensor && p.parallelism.chipsPerReplica > 1) {
        spec.groups.kind = GroupLayout::Kind::AcrossTiles;
        spec.groups.tile = p.parallelism.replicaTile;
    }
    if (!p.weightUpdateSharded) {
        spec.op = CollectiveOp::AllReduce;
        return {spec};
    }
    CollectiveSpec gather = spec;
    spec.op = CollectiveOp::ReduceScatter;
    gather.op = CollectiveOp::AllGather;
    return {spec, gather};
}

// HBM passes over a half-sized gradient on a chip of two cores: summing reads two operands and
// writes one; gathering reads one and writes one.
constexpr double kSumPasses = 3;
constexpr double kGatherPasses = 2;

void addGradientExchanges(StepPlan& p, const Scenario& s) {
    const bool tensor = p.parallelism.kind == ModelParallelKind::Tensor;
    const int coresPerChip = p.topology.coresPerChip();
    // A chip sums its gradients over the links once per parameter it holds: with a tensor split
    // its cores hold different shards (both travel); otherwise both cores hold full-size
    // gradients (replicas, or spatial partitions' partial sums) and add them on the chip first.
    const double coresSharing = tensor ? std::min(p.parallelism.modelParallel, coresPerChip) : 1;
    const double elementBytes = podscope::elementBytes(s.gradient.precision);
    const double bytesPerChip = p.parametersPerCore * coresSharing * elementBytes;
    const bool onChipSum = !tensor && coresPerChip > 1;
    p.gradientGroupChips =
        tensor && p.parallelism.chipsPerReplica > 1
            ? static_cast<int>(p.topology.chipCount() / p.parallelism.chipsPerReplica)
            : static_cast<int>(p.topology.chipCount());
    p.weightUpdateSharded = s.weightUpdateSharding && p.gradientGroupChips > 1;
    if (p.gradientGroupChips <= 1 && !onChipSum) {
        return;
    }
    const auto specs = gradientSpecs(p, s, bytesPerChip);

    // Buckets in the order the backward pass finishes the layers' weight gradients.
    struct Bucket {
        double fraction;
        double readyS;
        int layer; // the layer whose weight gradient completes it
    };
    std::vector<Bucket> buckets;
    if (s.gradient.overlap == GradientOverlap::Bucketed) {
        const double bucketBytes = s.gradient.bucketMiB * 1024 * 1024;
        double elapsed = 0, filled = 0;
        // The last bucket completes with the last layer that has weights, not with layer 0:
        // a graph may open with weightless layers (an input relayout) that take no gradient.
        int lastWeighted = -1;
        double lastWeightedS = 0;
        for (std::size_t i = p.layers.size(); i-- > 0;) {
            elapsed += p.layers[i].backward.seconds;
            if (p.layers[i].parameters > 0) {
                filled += p.layers[i].parameters * coresSharing * elementBytes;
                lastWeighted = static_cast<int>(i);
                lastWeightedS = elapsed;
            }
            if (filled >= bucketBytes) {
                buckets.push_back({filled / bytesPerChip, elapsed, static_cast<int>(i)});
                filled = 0;
            }
        }
        if (filled > 0) {
            buckets.push_back({filled / bytesPerChip, lastWeightedS, lastWeighted});
        }
    } else {
        buckets.push_back({1.0, 0.0, -1});
    }
    for (const Bucket& b : buckets) {
        Exchange e;
        e.kind = ExchangeKind::GradientReduce;
        e.phase = s.gradient.overlap == GradientOverlap::Bucketed ? StepPhase::Backward
                                                                  : StepPhase::AfterBackward;
        e.readyAfterS = b.readyS;
        e.layer = b.layer;
        // The two cores of a chip reduce-scatter between them, then for an all-reduce gather
        // back. Counted as each core's HBM moves them: a core sums half the gradient, reading
        // both cores' copies of that half and writing the sum (three half-sized passes:
        // its own read, the other core's read of it, the write); the gather reads the other
        // core's summed half and writes it here (two half-sized passes).
        e.onChipBytes = onChipSum
                            ? b.fraction * bytesPerChip *
                                  (kSumPasses + (p.weightUpdateSharded ? 0 : kGatherPasses)) / 2
                            : 0;
        if (p.gradientGroupChips > 1) {
            CollectiveSpec spec = specs.front();
            spec.bytesPerChip = b.fraction * bytesPerChip;
            e.collective = spec;
        }
        p.exchanges.push_back(e);
    }
    if (p.weightUpdateSharded) {
        Exchange gather;
        gather.kind = ExchangeKind::GradientGather;
        gather.phase = StepPhase::Update;
        gather.collective = specs.back();
        gather.onChipBytes = onChipSum ? kGatherPasses / 2 * bytesPerChip : 0;
        p.exchanges.push_back(gather);
    }
}

void planOptimizer(StepPlan& p, const Scenario& s) {
    const OptimizerDefinition& def = optimizerDefinition(p.workload->optimizer);
    p.optimizer.name = def.name;
    double weightLayers = 0;
    double launches = 0;
    for (std::size_t i = 0; i < p.layers.size(); ++i) {
        if (p.layers[i].parameters > 0) {
            weightLayers += 1;
            launches += updateKernels(p.graph->layers[i], def);
        }
    }
    // With weight-update sharding each core updates its shard of the summed gradient, a flat
    // buffer: one fused kernel, after a kernel that reduces the shard's per-layer norms where a
    // trust ratio needs them. Otherwise every core updates each variable it holds.
    double updated = p.parametersPerCore;
    if (p.weightUpdateSharded) {
        updated /= static_cast<double>(p.gradientGroupChips) *
                   (p.parallelism.kind == ModelParallelKind::Tensor
                        ? 1.0
                        : static_cast<double>(p.topology.coresPerChip()));
        launches = def.layerNorms ? 2 : 1;
        if (def.layerNorms) {
            Exchange norms;
            norms.kind = ExchangeKind::LayerNormSum;
            norms.phase = StepPhase::Update;
            CollectiveSpec spec = gradientSpecs(p, s, 2 * 4 * weightLayers).front();
            spec.op = CollectiveOp::AllReduce;
            spec.element = ElementType::FP32;
            spec.chunks = 1;
            norms.collective = spec;
            p.exchanges.push_back(norms);
        }
    }
    p.optimizer.parametersUpdated = updated;
    p.optimizer.work.hbmBytes = updated * def.hbmBytesPerParam;
    p.optimizer.work.vpuOps = updated * def.vectorOpsPerParam;
    p.optimizer.work.eupOps = updated * def.transcendentalsPerParam;
    p.optimizer.work.launches = launches;
}

void planMemory(StepPlan& p) {
    const OptimizerDefinition& def = optimizerDefinition(p.workload->optimizer);
    const LoweringRules& r = loweringRules();
    MemoryUse& m = p.memory;
    m.capacity = p.core.hbmBytes;
    const double params = p.parametersPerCore;
    m.weights = params * (4 + r.weightBytes);
    m.gradients = params * r.weightGradientBytes;
    m.optimizerState =
        (p.weightUpdateSharded ? p.optimizer.parametersUpdated : params) * def.stateValues * 4;
    for (const LayerCost& c : p.layers) {
        m.activations += c.savedBytes;
        m.workspace = std::max(m.workspace, c.workspaceBytes);
    }
}

std::string milliseconds(double seconds) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << seconds * 1e3 << " ms";
    return text.str();
}

// A refusal names what recomputation did, or what it would do where it is off.
void checkMemory(const StepPlan& p, const Scenario& s, const CoreCalibration* calibration) {
    const MemoryUse& m = p.memory;
    if (m.fits()) {
        return;
    }
    std::string activations = gib(m.activations);
    if (m.recompute.layers > 0) {
        activations += " after recomputing " + std::to_string(m.recompute.layers) + " layers (" +
                       milliseconds(m.recompute.seconds) + " per step) spared " +
                       gib(m.recompute.savedBytes);
    }
    std::string remedy = "use a smaller batch per core, more chips or model parallelism";
    if (s.remat == RematPolicy::Off) {
        Scenario automatic = s;
        automatic.remat = RematPolicy::Auto;
        const MemoryUse fitted = buildStepPlanUnchecked(automatic, calibration).memory;
        if (fitted.fits()) {
            remedy = "rematerialization is off; remat auto fits it by recomputing " +
                     std::to_string(fitted.recompute.layers) + " layers (" +
                     milliseconds(fitted.recompute.seconds) + " per step), or " + remedy;
        }
    }
    throw InputError("global_batch", "needs " + gib(m.total()) + " of HBM per core, has " +
                                         gib(m.capacity) + " (weights " + gib(m.weights) +
                                         ", gradients " + gib(m.gradients) + ", optimizer state " +
                                         gib(m.optimizerState) + ", activations " + activations +
                                         ", workspace " + gib(m.workspace) + "): " + remedy);
}

} // namespace

Topology scenarioTopology(const Scenario& s) {
    TopologySpec spec =
        resolveTopology(s.topology, s.wrap, cachedResource<Hardware>(s.hardware, loadHardware));
    if (s.twisted) {
        twistTopology(spec, s.hardware);
    }
    if (s.linkBandwidthGBps) {
        if (!(*s.linkBandwidthGBps > 0)) {
            throw InputError("link_bandwidth_GBps", "must be positive");
        }
        spec.linkBandwidthBps = *s.linkBandwidthGBps * units::kGB;
    }
    if (s.linkLatencyUs) {
        if (!(*s.linkLatencyUs >= 0) || !std::isfinite(*s.linkLatencyUs)) {
            throw InputError("link_latency_us", "must be a finite latency of at least 0");
        }
        spec.linkLatencyS = *s.linkLatencyUs * units::kMicrosecond;
    }
    if (s.crossPodBandwidthGBps) {
        if (!(*s.crossPodBandwidthGBps > 0)) {
            throw InputError("cross_pod_bandwidth_GBps", "must be positive");
        }
        spec.crossPodBandwidthBps = *s.crossPodBandwidthGBps * units::kGB;
    }
    return Topology(std::move(spec));
}

namespace {
std::atomic<std::int64_t> plansBuilt{0};

// The DCN stage of a multislice gradient sum: each chip's shard of the summed gradients (its
// gradient bytes over the chips that sum them), all-reduced across the slices by its host's NIC.
void planDcn(StepPlan& p, const Scenario& s) {
    if (s.slices <= 1) {
        return;
    }
    const Machine& m = bundledMachine(s.hardware);
    double hostBps = 0;
    if (s.dcnBandwidthGBps) {
        hostBps = *s.dcnBandwidthGBps * units::kGB;
    } else if (m.dcnBpsPerHost) {
        hostBps = *m.dcnBpsPerHost;
    } else {
        throw InputError("dcn_bandwidth_GBps",
                         s.hardware + "'s machine file states no data-centre network bandwidth "
                                      "(host.dcn_GBps_per_host), so " +
                             std::to_string(s.slices) +
                             " slices need one: give dcn_bandwidth_GBps (--dcn-bw GBPS)");
    }
    double gradientBytes = 0;
    for (const Exchange& e : p.exchanges) {
        if (e.kind == ExchangeKind::GradientReduce && e.collective) {
            gradientBytes += e.collective->bytesPerChip;
        }
    }
    const int chipsPerHost =
        static_cast<int>(p.topology.chipCount() / std::max(p.topology.hostCount(), 1));
    p.dcn = dcnAllReduce(s.slices, gradientBytes / std::max(p.gradientGroupChips, 1),
                         std::max(chipsPerHost, 1), hostBps, m.dcnLatencyS.value_or(0),
                         "dcn_bandwidth_GBps");
}
} // namespace

std::int64_t stepPlansBuilt() {
    return plansBuilt.load(std::memory_order_relaxed);
}

StepPlan buildStepPlanUnchecked(const Scenario& scenario, const CoreCalibration* calibration) {
    plansBuilt.fetch_add(1, std::memory_order_relaxed);
    const Workload& w = cachedWorkload(scenario.workload);
    Scenario s = scenario;
    if (calibration && !s.linkLatencyUs) {
        s.linkLatencyUs = calibration->linkLatencyS / units::kMicrosecond;
    }
    StepPlan p(scenarioTopology(s));
    p.workload = &w;
    p.framework = &cachedResource<Framework>(s.framework, loadFramework);
    p.core = coreModel(s.hardware, calibration);
    if (s.globalBatch <= 0) {
        throw InputError("global_batch", "must be a positive number of examples");
    }
    if (s.gradient.chunks < 1) {
        throw InputError("gradient.chunks", "must be at least 1");
    }
    if (!(s.gradient.bucketMiB > 0) || !std::isfinite(s.gradient.bucketMiB)) {
        throw InputError("gradient.bucket_MiB", "must be a positive size");
    }
    // A replica of several cores with no kind named takes the workload's split, as the
    // --model-parallel flag and the panel do.
    const ModelParallelKind kind =
        s.modelParallel > 1 && s.modelParallelKind == ModelParallelKind::None ? w.defaultSplit()
                                                                               : s.modelParallelKind;
    p.slices = s.slices;
    if (s.slices < 1 || s.slices > limits::kMaxSlices) {
        throw InputError("slices",
                         "must be from 1 to " + std::to_string(limits::kMaxSlices) + " slices");
    }
    if (s.globalBatch % s.slices != 0) {
        throw InputError("global_batch", "must divide evenly over the " +
                                             std::to_string(s.slices) + " slices");
    }
    p.parallelism =
        planParallelism(p.topology, s.globalBatch / s.slices, s.modelParallel, kind);
    if (!w.supports(p.parallelism.kind)) {
        throw InputError("model_parallel", w.name + " has no layers that a " +
                                               toString(p.parallelism.kind) + " split divides");
    }
    const int coresPerChip = p.topology.coresPerChip();
    p.split = layerSplit(p.parallelism.kind, p.parallelism.modelParallel, coresPerChip);
    p.graph = &boundGraph(w, s);

    // Batch statistics are shared by a group of replicas (the flags' distributed_group_size);
    // the partitions of a spatially split replica always share theirs.
    const int replicasInGroup = s.batchNormGroup.value_or(1);
    if (replicasInGroup < 1 || (replicasInGroup & (replicasInGroup - 1)) != 0 ||
        replicasInGroup > p.parallelism.replicas) {
        throw InputError("batch_norm_group", "must be a power of two from 1 to the " +
                                                 std::to_string(p.parallelism.replicas) +
                                                 " replicas");
    }
    const int group =
        replicasInGroup *
        (p.parallelism.kind == ModelParallelKind::Spatial ? p.parallelism.modelParallel : 1);
    p.batchNormGroupCores = group;
    std::vector<int> batchNormTile;
    if (group > coresPerChip) {
        batchNormTile = chipTile(p.topology, group / coresPerChip, "batch_norm_group");
    }

    const double examples = p.parallelism.perReplicaBatch;
    std::vector<bool> inputGradient(p.graph->layers.size(), true);
    p.layers.reserve(p.graph->layers.size());
    bool weightsBefore = false; // the layers before the first weights read the data
    for (std::size_t i = 0; i < p.graph->layers.size(); ++i) {
        inputGradient[i] = weightsBefore;
        p.layers.push_back(
            lowerLayer(p.graph->layers[i], examples, p.split, p.core, inputGradient[i]));
        p.parametersPerCore += p.layers.back().parameters;
        weightsBefore = weightsBefore || p.graph->layers[i].hasWeights();
    }
    addLayerExchanges(p, inputGradient, batchNormTile);
    addGradientExchanges(p, s);
    planDcn(p, s);
    planOptimizer(p, s);
    planMemory(p);
    rematerialize(p, s.remat);
    return p;
}

StepPlan buildStepPlan(const Scenario& s, const CoreCalibration* calibration) {
    StepPlan p = buildStepPlanUnchecked(s, calibration);
    checkMemory(p, s, calibration);
    return p;
}

std::string toString(ExchangeKind kind) {
    switch (kind) {
    case ExchangeKind::Halo:
        return "halo";
    case ExchangeKind::TensorAllReduce:
        return "tensor all-reduce";
    case ExchangeKind::BatchNormSum:
        return "batch-norm sum";
    case ExchangeKind::GradientReduce:
        return "gradient reduce";
    case ExchangeKind::GradientGather:
        return "weight all-gather";
    case ExchangeKind::LayerNormSum:
        return "layer-norm sum";
    }
    return "?";
}

} // namespace podscope
