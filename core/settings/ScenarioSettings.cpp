#include "settings/ScenarioSettings.hpp"

#include "common/Limits.hpp"
#include "machine/Machine.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/ScenarioJson.hpp"

#include <algorithm>

namespace podscope {
namespace {

// A machine other than the default: the hardware entry's example must change a scenario.
const std::string& otherMachineName() {
    static const std::string name = [] {
        for (const auto& n : machineNames()) {
            if (n != defaultMachineName()) {
                return n;
            }
        }
        return defaultMachineName();
    }();
    return name;
}

using nlohmann::json;
using T = SettingType;
using C = PanelControl;

template <typename Value> json orNull(const std::optional<Value>& value) {
    return value ? json(*value) : json();
}

template <typename Value> void setOptional(std::optional<Value>& field, const json& value) {
    field = value.is_null() ? std::nullopt : std::optional<Value>(value.get<Value>());
}

std::vector<SettingChoice> choicesOf(const std::vector<std::string>& values) {
    std::vector<SettingChoice> choices;
    for (const auto& value : values) {
        choices.push_back({value, ""});
    }
    return choices;
}

// An input stage's CPU time per example (core-seconds), replacing the workload's.
Setting stageCost(std::string_view key, std::string_view flag, std::string_view label,
                  std::string_view description, std::optional<double> InputCostOverrides::*stage) {
    return {.key = key,
            .type = T::Number,
            .unit = "s",
            .highest = 10,
            .unset = "as the model",
            .description = description,
            .flag = flag,
            .example = "0.002",
            .panel = {.group = "input",
                      .label = label,
                      .control = C::Decimal,
                      .decimals = 3,
                      .scale = 1e3,
                      .unit = "ms/example",
                      .details = "On one host core"},
            .read = [stage](const Scenario& s) { return orNull(s.inputCost.*stage); },
            .write = [stage](Scenario& s, const json& v) { setOptional(s.inputCost.*stage, v); }};
}

std::vector<Setting> buildTable() {
    std::vector<Setting> table = {
        // --- Model
        {.key = "workload",
         .type = T::Text,
         .required = true,
         .description = "The model to train: a bundled workload (resources/workloads) or a file: "
                        "a workload document (.json), a Hugging Face config.json or an ONNX model "
                        "(.onnx); docs/workloads.md",
         .flag = "workload",
         .example = "ssd",
         .panel = {.group = "model",
                   .label = "Model",
                   .control = C::Choice,
                   .details = "Its FLOPs, parameters, convergence and input cost come from "
                              "resources/workloads or the file (File > Open model...)"},
         .choices = [] { return choicesOf(workloadNames()); },
         .read = [](const Scenario& s) { return json(s.workload); },
         .write =
             [](Scenario& s, const json& v) {
                 const std::string name = v.get<std::string>();
                 cachedWorkload(name); // InputError: an unknown name, a bad file
                 if (name != s.workload) {
                     s.sequenceLength.reset(); // another model: its own length (or none)
                 }
                 s.workload = name;
             }},
        {.key = "framework",
         .type = T::Choice,
         .required = true,
         // The whole loop compiled to the device: no host round trips of one framework's
         // controller charged to a model that was never run with it.
         .standalone = "jax",
         .description = "The training framework",
         .flag = "framework",
         .example = "jax",
         .panel = {.group = "model",
                   .label = "Framework",
                   .control = C::Choice,
                   .details = "TF: one controller for all hosts (longer start-up, host round "
                              "trips per loop). JAX: one process per host, the whole loop "
                              "compiled to the device"},
         .choices = [] { return choicesOf(frameworkNames()); },
         .read = [](const Scenario& s) { return json(s.framework); },
         .write = [](Scenario& s, const json& v) { s.framework = v.get<std::string>(); }},
        {.key = "eval_mode",
         .type = T::Choice,
         .unset = "as the model does",
         .description = "Distributed evaluation: sync (training waits for it) or async "
                        "(overlapped with training)",
         .flag = "eval-mode",
         .example = "async",
         .panel = {.group = "model", .label = "Evaluation", .control = C::Choice},
         .choices =
             [] {
                 return choicesOf({"sync", "async"});
             },
         .read =
             [](const Scenario& s) { return s.evalMode ? json(toString(*s.evalMode)) : json(); },
         .write =
             [](Scenario& s, const json& v) {
                 s.evalMode = v.is_null() ? std::nullopt
                                          : std::optional<EvalMode>(v == "sync" ? EvalMode::Sync
                                                                                : EvalMode::Async);
             }},
        {.key = "eval_every_epochs",
         .type = T::Number,
         .unit = "epochs",
         .highest = 1000,
         .lowestIncluded = false,
         .unset = "as the model does",
         .description = "Evaluation cadence: evaluate every this many epochs",
         .flag = "eval-every",
         .example = "2",
         .panel = {.group = "model",
                   .label = "Evaluate every",
                   .control = C::Decimal,
                   .decimals = 1,
                   .details = "MLPerf ResNet-50: 4"},
         .read = [](const Scenario& s) { return orNull(s.evalEveryEpochs); },
         .write = [](Scenario& s, const json& v) { setOptional(s.evalEveryEpochs, v); }},
        {.key = "sequence_length",
         .type = T::Integer,
         .unit = "tokens",
         .lowest = 1,
         .highest = 65536,
         .unset = "as the model",
         .description = "Tokens per example (BERT, Transformer) or padded sentence length "
                        "(GNMT); every layer's shapes follow it",
         .flag = "sequence-length",
         .example = "128",
         .panel = {.group = "model",
                   .label = "Sequence length",
                   .control = C::Spin,
                   .details = "Models without a sequence (images) leave it off"},
         .read = [](const Scenario& s) { return orNull(s.sequenceLength); },
         .write = [](Scenario& s, const json& v) { setOptional(s.sequenceLength, v); }},

        {.key = "train_steps",
         .type = T::Integer,
         .unit = "steps",
         .lowest = 1,
         .highest = 1e12,
         .unset = "as the model",
         .excludes = "train_examples",
         .description = "Train for this many steps (a time to train for a model without "
                        "convergence data)",
         .flag = "train-steps",
         .example = "10000",
         .panel = {.group = "model",
                   .label = "Train steps",
                   .control = C::Decimal,
                   .details = "Gives a model without convergence data a time to train; "
                              "replaces the convergence data of one that has them"},
         .read = [](const Scenario& s) { return orNull(s.trainSteps); },
         .write =
             [](Scenario& s, const json& v) {
                 setOptional(s.trainSteps, v);
                 if (s.trainSteps) {
                     s.trainExamples.reset(); // one length of the run
                 }
             }},
        {.key = "train_examples",
         .type = T::Number,
         .unit = "examples",
         .lowest = 1,
         .highest = 1e18,
         .unset = "as the model",
         .excludes = "train_steps",
         .description = "Train on this many examples, rounded up to whole steps (a time to train "
                        "for a model without convergence data)",
         .flag = "train-examples",
         .example = "1e9",
         .panel = {.group = "model",
                   .label = "Train examples",
                   .control = C::Decimal,
                   .decimals = 2,
                   .scale = 1e-6,
                   .unit = "M examples",
                   .details = "In millions; rounded up to whole steps. Gives a model without "
                              "convergence data a time to train"},
         .read = [](const Scenario& s) { return orNull(s.trainExamples); },
         .write =
             [](Scenario& s, const json& v) {
                 setOptional(s.trainExamples, v);
                 if (s.trainExamples) {
                     s.trainSteps.reset();
                 }
             }},

        // --- Topology
        {.key = "hardware",
         .type = T::Choice,
         .description = "The machine: a chip, its links, hosts, slices and core model "
                        "(resources/machines; podscope-cli machines lists them)",
         .flag = "hardware",
         .example = otherMachineName(),
         .panel = {.group = "topology", .label = "Hardware", .control = C::Choice},
         .choices = [] { return choicesOf(hardwareNames()); },
         .read = [](const Scenario& s) { return json(s.hardware); },
         .write = [](Scenario& s, const json& v) { s.hardware = v.get<std::string>(); }},
        {.key = "chips",
         .type = T::Integer,
         .lowest = 1,
         .highest = static_cast<double>(limits::kMaxChips),
         .unset = "as the topology",
         .excludes = "topology",
         .description = "Use the standard slice with this many chips (sets topology and wrap)",
         .flag = "chips",
         .example = "256",
         .panel = {.group = "topology",
                   .label = "Slice",
                   .control = C::Slice,
                   .details = "The machine's standard slices by chip count (podscope-cli "
                              "machines --json lists them with their shapes and wrap-around)"},
         .read = [](const Scenario&) { return json(); }, // written as the topology
         .write = [](Scenario& s, const json& v) { useStandardSlice(s, v.get<std::int64_t>()); }},
        {.key = "topology",
         .type = T::Text,
         .required = true,
         .description =
             "One of the machine's topology presets (podscope-cli machines) or DIMS such as 128x32",
         .flag = "topology",
         .example = "16x16",
         .panel = {.group = "topology",
                   .label = "Custom grid",
                   .control = C::Grid,
                   .hint = "or dimensions, e.g. 16x16x16",
                   .details = "A grid of chips (X first); Enter applies it"},
         .read = [](const Scenario& s) { return json(s.topology); },
         .write =
             [](Scenario& s, const json& v) {
                 resolveTopology(v.get<std::string>(), std::nullopt, loadHardware(s.hardware));
                 s.topology = v.get<std::string>();
                 s.wrap.reset();
             }},
        {.key = "wrap",
         .type = T::Text,
         .unset = "the preset's; none for DIMS",
         .description = "Wrapped dimensions: x, y, xy, xyz, all or none",
         .flag = "wrap",
         .example = "xy",
         .panel = {.group = "topology",
                   .label = "Wrap-around",
                   .control = C::Grid,
                   .hint = "wrap: x, y, xy, none",
                   .details = "Dimensions with wrap-around links"},
         .read = [](const Scenario& s) { return orNull(s.wrap); },
         .write =
             [](Scenario& s, const json& v) {
                 if (!v.is_null()) {
                     parseWrap(v.get<std::string>(), limits::kMaxRank); // the letters
                 }
                 setOptional(s.wrap, v);
             }},
        {.key = "twisted",
         .type = T::Switch,
         .description = "A twisted torus: each short dimension's wrap-around lands half-way along "
                        "the long ones (on the shapes the machine marks twistable, such as 4x4x8)",
         .flag = "twisted",
         .example = "on",
         .panel = {.group = "topology",
                   .label = "Twisted torus",
                   .control = C::Check,
                   .details = "Only where the machine offers it (podscope-cli machines --json: "
                              "twistable slices)"},
         .read = [](const Scenario& s) { return json(s.twisted); },
         .write = [](Scenario& s, const json& v) { s.twisted = v.get<bool>(); }},
        {.key = "link_bandwidth_GBps",
         .type = T::Number,
         .unit = "GB/s",
         .highest = limits::kMaxLinkBandwidthGBps,
         .lowestIncluded = false,
         .unset = "the hardware's",
         .description = "What-if: inter-chip link bandwidth per direction",
         .flag = "link-bw",
         .example = "164",
         .panel = {.group = "topology",
                   .label = "Link bandwidth",
                   .control = C::Decimal,
                   .decimals = 1,
                   .details = "Default: the machine's (podscope-cli machines)"},
         .read = [](const Scenario& s) { return orNull(s.linkBandwidthGBps); },
         .write = [](Scenario& s, const json& v) { setOptional(s.linkBandwidthGBps, v); },
         .implied = [](const Scenario& s) -> std::optional<double> {
             return loadHardware(s.hardware).linkBandwidthBps / 1e9;
         }},
        {.key = "link_latency_us",
         .type = T::Number,
         .unit = "µs",
         .highest = limits::kMaxLatencyUs,
         .unset = "the hardware's",
         .description = "What-if: latency per hop between chips",
         .flag = "latency-us",
         .example = "2.5",
         .panel = {.group = "topology",
                   .label = "Hop latency",
                   .control = C::Decimal,
                   .decimals = 3,
                   .details = "Not published for any generation; the default is the "
                              "calibrated value (docs/training-model.md)"},
         .read = [](const Scenario& s) { return orNull(s.linkLatencyUs); },
         .write = [](Scenario& s, const json& v) { setOptional(s.linkLatencyUs, v); },
         .implied = [](const Scenario& s) -> std::optional<double> {
             return loadHardware(s.hardware).linkLatencyS * 1e6;
         }},
        {.key = "cross_pod_bandwidth_GBps",
         .type = T::Number,
         .unit = "GB/s",
         .highest = limits::kMaxLinkBandwidthGBps,
         .lowestIncluded = false,
         .unset = "as the other links",
         .description = "What-if: bandwidth of the links that join pods along X",
         .flag = "cross-pod-bw",
         .example = "40",
         .panel = {.group = "topology",
                   .label = "Between pods",
                   .control = C::Decimal,
                   .decimals = 1,
                   .details = "Not published"},
         .read = [](const Scenario& s) { return orNull(s.crossPodBandwidthGBps); },
         .write = [](Scenario& s, const json& v) { setOptional(s.crossPodBandwidthGBps, v); }},
        {.key = "slices",
         .type = T::Integer,
         .unit = "slices",
         .lowest = 1,
         .highest = limits::kMaxSlices,
         .unset = "1 slice",
         .description = "Multislice: copies of the slice joined over the data-centre network "
                        "(DCN); the data-parallel replicas and the global batch span them all, "
                        "and the gradient sum adds a DCN all-reduce across slices "
                        "(docs/multislice.md)",
         .flag = "slices",
         .example = "2",
         .panel = {.group = "topology",
                   .label = "Slices",
                   .control = C::Spin,
                   .details = "Copies of the slice above, joined over the hosts' data-centre "
                              "network: the gradient sum adds a DCN stage across them"},
         .read = [](const Scenario& s) { return s.slices == 1 ? json() : json(s.slices); },
         .write = [](Scenario& s, const json& v) { s.slices = v.is_null() ? 1 : v.get<int>(); },
         .implied = [](const Scenario&) -> std::optional<double> { return 1; }},
        {.key = "dcn_bandwidth_GBps",
         .type = T::Number,
         .unit = "GB/s",
         .highest = limits::kMaxLinkBandwidthGBps,
         .lowestIncluded = false,
         .unset = "the machine's dcn_GBps_per_host",
         .description = "Multislice: data-centre network bandwidth per host, per direction; "
                        "needed for slices > 1 on a machine whose file states none "
                        "(podscope-cli machines --json: dcn_Bps_per_host)",
         .flag = "dcn-bw",
         .example = "25",
         .panel = {.group = "topology",
                   .label = "DCN bandwidth",
                   .control = C::Decimal,
                   .decimals = 1,
                   .details = "Per host, between slices; default: the machine's",
                   .enabledWhen = [](const Scenario& s) { return s.slices > 1; }},
         .read = [](const Scenario& s) { return orNull(s.dcnBandwidthGBps); },
         .write = [](Scenario& s, const json& v) { setOptional(s.dcnBandwidthGBps, v); },
         .implied = [](const Scenario& s) -> std::optional<double> {
             const auto& bps = bundledMachine(s.hardware).dcnBpsPerHost;
             return bps ? std::optional<double>(*bps / 1e9) : std::nullopt;
         }},

        // --- Parallelism
        {.key = "global_batch",
         .type = T::Integer,
         .unit = "examples",
         .lowest = 1,
         .highest = static_cast<double>(limits::kMaxGlobalBatch),
         .required = true,
         .description = "Global batch (examples per step), shared by the replicas",
         .flag = "global-batch",
         .example = "32768",
         .panel = {.group = "parallelism",
                   .label = "Global batch",
                   .control = C::Offered,
                   .details = "Only values that give every replica the same whole number of "
                              "examples are offered; larger batches need more epochs"},
         .read = [](const Scenario& s) { return json(s.globalBatch); },
         .write = [](Scenario& s, const json& v) { s.globalBatch = v.get<std::int64_t>(); }},
        {.key = "model_parallel.degree",
         .type = T::Integer,
         .unit = "cores",
         .lowest = 1,
         .highest = 16,
         .description = "Cores per replica, a power of two (above 1 without a kind: the workload's "
                        "split)",
         .flag = "model-parallel",
         .example = "4",
         .panel = {.group = "parallelism",
                   .label = "Cores per replica",
                   .control = C::Choice,
                   .details = "A replica is one copy of the model; it takes one core, the two "
                              "cores of a chip, or a block of chips"},
         .read = [](const Scenario& s) { return json(s.modelParallel); },
         .write =
             [](Scenario& s, const json& v) {
                 s.modelParallel = v.get<int>();
                 if (s.modelParallel == 1) {
                     s.modelParallelKind = ModelParallelKind::None;
                 } else if (s.modelParallelKind == ModelParallelKind::None) {
                     s.modelParallelKind = cachedWorkload(s.workload).defaultSplit();
                 }
             }},
        {.key = "model_parallel.kind",
         .type = T::Choice,
         .description = "How a replica of several cores splits the model (spatial: images, halo "
                        "exchange; tensor: Megatron-style, activation all-reduces; none: the "
                        "workload's split)",
         .flag = "model-parallel-kind",
         .example = "spatial",
         .panel = {.group = "parallelism", .label = "Model parallelism", .control = C::Choice},
         .choices =
             [] {
                 return choicesOf({"none", "spatial", "tensor"});
             },
         .read = [](const Scenario& s) { return json(toString(s.modelParallelKind)); },
         .write =
             [](Scenario& s, const json& v) {
                 s.modelParallelKind = parseModelParallelKind(v.get<std::string>(), "kind");
             }},
        {.key = "batch_norm_group",
         .type = T::Integer,
         .unit = "replicas",
         .lowest = 1,
         .highest = 65536,
         .unset = "1 replica",
         .description = "Replicas that share batch-norm statistics (MLPerf ResNet-50: 8, SSD: 16)",
         .flag = "batch-norm-group",
         .example = "16",
         .panel = {.group = "parallelism",
                   .label = "Batch-norm group",
                   .control = C::Offered,
                   .details = "Each batch-norm layer sums its mean and variance over the group, "
                              "forward and backward"},
         .read = [](const Scenario& s) { return orNull(s.batchNormGroup); },
         .write = [](Scenario& s, const json& v) { setOptional(s.batchNormGroup, v); }},
        {.key = "remat",
         .type = T::Choice,
         .description = "When activations exceed HBM: recompute the cheapest forward layers in "
                        "the backward pass until they fit (auto), or refuse (off)",
         .flag = "remat",
         .example = "off",
         .panel = {.group = "parallelism",
                   .label = "Rematerialization",
                   .control = C::Choice,
                   .details = "The layers with the least forward time per byte of activations "
                              "spared go first; the recompute time is a part of the step and the "
                              "HBM bar shows what it spared"},
         .choices =
             [] {
                 return std::vector<SettingChoice>{{"auto", "auto, recompute to fit"},
                                                   {"off", "off, refuse what does not fit"}};
             },
         .read = [](const Scenario& s) { return json(toString(s.remat)); },
         .write = [](Scenario& s,
                     const json& v) { s.remat = parseRematPolicy(v.get<std::string>(), "remat"); }},

        // --- Gradient summation
        {.key = "weight_update_sharding",
         .type = T::Switch,
         .description = "Weight-update sharding: reduce-scatter, update a shard, all-gather, "
                        "instead of all-reduce and a replicated update",
         .flag = "wus",
         .example = "off",
         .panel = {.group = "gradients", .label = "Weight-update sharding", .control = C::Check},
         .read = [](const Scenario& s) { return json(s.weightUpdateSharding); },
         .write = [](Scenario& s, const json& v) { s.weightUpdateSharding = v.get<bool>(); }},
        {.key = "gradient.precision",
         .type = T::Choice,
         .description = "Element type of the summed gradients (bytes on the links)",
         .flag = "precision",
         .example = "bf16",
         .panel = {.group = "gradients", .label = "Precision", .control = C::Choice},
         .choices =
             [] {
                 return choicesOf({"bf16", "fp32"});
             },
         .read = [](const Scenario& s) { return json(toString(s.gradient.precision)); },
         .write =
             [](Scenario& s, const json& v) {
                 s.gradient.precision = parseElementType(v.get<std::string>());
             }},
        {.key = "gradient.algorithm",
         .type = T::Choice,
         .description = "How the gradients are summed over the replicas",
         .flag = "algorithm",
         .example = "ring",
         .panel = {.group = "gradients",
                   .label = "Algorithm",
                   .control = C::Choice,
                   .details = "2d: reduce-scatter along one dimension then the other, "
                              "bidirectional rings where a dimension wraps; 2d-dual: 2d in both "
                              "dimension orders at once on shares of the data, so every link "
                              "works in every phase; flat-ring: one ring over all chips"},
         .choices =
             [] {
                 return choicesOf({"2d", "2d-dual", "ring", "bidir-ring", "flat-ring"});
             },
         .read = [](const Scenario& s) { return json(toString(s.gradient.algorithm)); },
         .write =
             [](Scenario& s, const json& v) {
                 s.gradient.algorithm = parseAlgorithm(v.get<std::string>());
             }},
        {.key = "gradient.chunks",
         .type = T::Integer,
         .lowest = 1,
         .highest = limits::kMaxChunks,
         .description = "Chunks that pipeline through the ring steps",
         .flag = "chunks",
         .example = "8",
         .panel = {.group = "gradients", .label = "Chunks", .control = C::Spin},
         .read = [](const Scenario& s) { return json(s.gradient.chunks); },
         .write = [](Scenario& s, const json& v) { s.gradient.chunks = v.get<int>(); }},
        {.key = "gradient.dim_order",
         .type = T::Text,
         .unset = "wrapped first",
         .description = "Order in which the reduce-scatter visits the dimensions, such as yx "
                        "(the all-gather runs back)",
         .flag = "dim-order",
         .example = "xy",
         .panel = {.group = "gradients",
                   .label = "Dimension order",
                   .control = C::Choice,
                   .details = "The dimension with wrap-around goes first by default: it carries "
                              "the full payload at twice the bandwidth"},
         .choices =
             [] {
                 return choicesOf({"xy", "yx", "xyz", "xzy", "yxz", "yzx", "zxy", "zyx"});
             },
         .read =
             [](const Scenario& s) {
                 return s.gradient.dimOrder.empty() ? json() : json(s.gradient.dimOrder);
             },
         .write =
             [](Scenario& s, const json& v) {
                 if (v.is_null()) {
                     s.gradient.dimOrder.clear();
                     return;
                 }
                 // The letters here; whether they fit the topology's rank, when it is built.
                 parseDimOrder(v.get<std::string>(), limits::kMaxRank);
                 s.gradient.dimOrder = v.get<std::string>();
             }},
        {.key = "gradient.overlap",
         .type = T::Choice,
         .description = "When the gradient sum starts: after the whole backward pass, or in "
                        "buckets as the backward pass makes gradients ready",
         .flag = "overlap",
         .example = "bucketed",
         .panel = {.group = "gradients",
                   .label = "Overlap",
                   .control = C::Choice,
                   .details = "After the backward pass is XLA's all-reduce combiner, what the "
                              "2020 TPU code did (fully exposed); bucketed overlaps the sum with "
                              "the backward pass (what ends after it is exposed)"},
         .choices =
             [] {
                 return std::vector<SettingChoice>{
                     {"after-backward", "after the backward pass"},
                     {"bucketed", "bucketed, during the backward pass"}};
             },
         .read = [](const Scenario& s) { return json(toString(s.gradient.overlap)); },
         .write =
             [](Scenario& s, const json& v) {
                 s.gradient.overlap = parseGradientOverlap(v.get<std::string>(), "overlap");
             }},
        {.key = "gradient.bucket_MiB",
         .type = T::Number,
         .unit = "MiB",
         .highest = 65536,
         .lowestIncluded = false,
         .description = "Bucketed overlap: gradient bytes per chip in one bucket",
         .flag = "bucket-mib",
         .example = "8",
         .panel = {.group = "gradients",
                   .label = "Bucket size",
                   .control = C::Decimal,
                   .decimals = 2,
                   .details = "Smaller buckets start sooner but pay the collective's latency "
                              "more often",
                   .enabledWhen =
                       [](const Scenario& s) {
                           return s.gradient.overlap == GradientOverlap::Bucketed;
                       }},
         .read = [](const Scenario& s) { return json(s.gradient.bucketMiB); },
         .write = [](Scenario& s, const json& v) { s.gradient.bucketMiB = v.get<double>(); }},

        // --- Host input pipeline
        {.key = "input.host_cpu_cores",
         .type = T::Number,
         .unit = "cores",
         .highest = limits::kMaxHostCpuCores,
         .lowestIncluded = false,
         .unset = "platform default",
         .description = "CPU cores per host for reading, decoding, augmenting and batching",
         .flag = "host-cores",
         .example = "48",
         .panel = {.group = "input",
                   .label = "CPU cores",
                   .control = C::Decimal,
                   .details = "8 chips per host"},
         .read =
             [](const Scenario& s) {
                 return s.input.cpuCores > 0 ? json(s.input.cpuCores) : json();
             },
         .write = [](Scenario& s,
                     const json& v) { s.input.cpuCores = v.is_null() ? 0 : v.get<double>(); }},
        {.key = "input.decoded_cache",
         .type = T::Switch,
         .description = "Host cache of decoded examples: skip decoding each step",
         .flag = "decoded-cache",
         .example = "off",
         .panel = {.group = "input",
                   .label = "Decoded-example cache",
                   .control = C::Check,
                   .details = "The paper caches decoded JPEGs above 2048 replicas"},
         .read = [](const Scenario& s) { return json(s.input.decodedCache); },
         .write = [](Scenario& s, const json& v) { s.input.decodedCache = v.get<bool>(); }},
        {.key = "input.prefetch_batches",
         .type = T::Integer,
         .unit = "batches",
         .highest = 1000,
         .description = "Batches the host prepares ahead (hides jitter, not a shortfall)",
         .flag = "prefetch",
         .example = "4",
         .read = [](const Scenario& s) { return json(s.input.prefetchBatches); },
         .write = [](Scenario& s, const json& v) { s.input.prefetchBatches = v.get<int>(); }},
    };
    table.push_back(stageCost("input.read_s", "read-s", "Read cost",
                              "CPU time per example of the read stage",
                              &InputCostOverrides::readS));
    table.push_back(stageCost("input.decode_s", "decode-s", "Decode cost",
                              "CPU time per example of the decode stage",
                              &InputCostOverrides::decodeS));
    table.push_back(stageCost("input.augment_s", "augment-s", "Augment cost",
                              "CPU time per example of the augment stage",
                              &InputCostOverrides::augmentS));
    table.push_back(stageCost("input.batch_s", "batch-s", "Batch cost",
                              "CPU time per example of the batch stage",
                              &InputCostOverrides::batchS));
    return table;
}

} // namespace

const std::vector<Setting>& scenarioSettings() {
    static const std::vector<Setting> table = buildTable();
    return table;
}

const std::vector<SettingGroup>& settingGroups() {
    static const std::vector<SettingGroup> groups = {{"model", "Model"},
                                                     {"topology", "Topology"},
                                                     {"parallelism", "Parallelism"},
                                                     {"gradients", "Gradient summation"},
                                                     {"input", "Host input pipeline"}};
    return groups;
}

const Setting* findSetting(std::string_view key) {
    const auto& table = scenarioSettings();
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const Setting& s) { return s.key == key; });
    return it == table.end() ? nullptr : &*it;
}

const Setting* findSettingByFlag(std::string_view flag) {
    const auto& table = scenarioSettings();
    const auto it = std::find_if(table.begin(), table.end(),
                                 [&](const Setting& s) { return !flag.empty() && s.flag == flag; });
    return it == table.end() ? nullptr : &*it;
}

const Setting* settingOfField(std::string_view field) {
    // "groups": the parallelism plan's name for how replicas tile the chips, which the degree sets.
    if (field == "groups") {
        return findSetting("model_parallel.degree");
    }
    if (const Setting* s = findSetting(field); s) {
        return s;
    }
    if (const Setting* s = findSettingByFlag(field); s) {
        return s;
    }
    for (const Setting& s : scenarioSettings()) {
        if (s.key.size() > field.size() && s.key.substr(0, field.size()) == field &&
            s.key[field.size()] == '.') {
            return &s;
        }
    }
    return nullptr;
}

} // namespace podscope
