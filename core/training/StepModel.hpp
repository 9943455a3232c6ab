#pragma once

#include "input/HostInput.hpp"
#include "parallelism/ParallelismPlan.hpp"
#include "topology/Topology.hpp"
#include "training/BeamSearchTime.hpp"
#include "training/Scenario.hpp"
#include "training/StepPlan.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace podscope {

// Seconds per training step; the parts add up to the step time.
struct StepBreakdown {
    double compute = 0;
    double recompute = 0; // forward layers run again in the backward pass (rematerialization)
    double gradientSyncExposed = 0;
    double modelParallelComm = 0;
    double batchNormSync = 0;
    double optimizer = 0;
    double inputStall = 0;
    double evalAmortized = 0;
    double overhead = 0;

    double total() const {
        return compute + recompute + gradientSyncExposed + modelParallelComm + batchNormSync +
               optimizer + inputStall + evalAmortized + overhead;
    }
};

// The parts of a step in the order PodScope shows them: a label for people, a key for files.
struct BreakdownPart {
    const char* label;
    const char* key;
    double StepBreakdown::*seconds;
};
inline constexpr BreakdownPart kBreakdownParts[] = {
    {"compute", "compute", &StepBreakdown::compute},
    {"gradient sync (exposed)", "gradient_sync_exposed", &StepBreakdown::gradientSyncExposed},
    {"model-parallel comm", "model_parallel_comm", &StepBreakdown::modelParallelComm},
    {"batch-norm sync", "batch_norm_sync", &StepBreakdown::batchNormSync},
    {"optimizer", "optimizer", &StepBreakdown::optimizer},
    {"input stall", "input_stall", &StepBreakdown::inputStall},
    {"eval (amortized)", "eval_amortized", &StepBreakdown::evalAmortized},
    {"overhead", "overhead", &StepBreakdown::overhead},
    {"recompute (remat)", "recompute", &StepBreakdown::recompute}};

// The evaluations' share of one step (StepBreakdown::evalAmortized), part by part, in seconds
// per training step: the evaluation passes on the device; the host's metric (COCO, BLEU) that a
// synchronous evaluation waits for; the first evaluation's compile; the round trip that ends
// every device loop (a loop ends in an evaluation). The step timeline plays the same parts.
struct EvaluationShare {
    double deviceS = 0;
    double hostMetricWaitS = 0;
    double compileS = 0;
    double loopRoundTripS = 0;

    double total() const { return deviceS + hostMetricWaitS + compileS + loopRoundTripS; }
};

struct TrainingResult {
    // Known when the workload has convergence data or the scenario names the run's length
    // (train_steps, train_examples); otherwise timeToTrainS, steps, epochs and evaluations are
    // 0 and timeToTrainMissing says why.
    bool timeToTrainKnown = true;
    std::string timeToTrainMissing;
    double timeToTrainS = 0;
    double stepTimeS = 0;  // steady step, evaluations amortised in
    double trainStepS = 0; // step time without evaluations
    double throughputExamplesPerS = 0;
    std::int64_t steps = 0;
    double epochs = 0;
    bool extrapolated = false; // the global batch lies outside the measured convergence points
    double criticalBatch = 0;  // B_noise of the convergence fit
    int evaluations = 0;
    double evaluationS = 0; // one evaluation, as charged to the run
    EvaluationShare evalShare; // its parts per step; 0 when the run's length is unknown
    // Beam-search decoding, the device part of one evaluation of a translation model (0 and an
    // empty shape for the others, whose device part is one forward pass of the set).
    double evalDecodeS = 0;
    DecodeShape evalDecode;
    double startupS = 0;
    double finalEvalWaitS = 0;    // asynchronous evaluation: wait for the last result
    double gradientSyncS = 0;     // the whole gradient summation, before overlap
    // Multislice: slices over the DCN, and the DCN stage of the gradient sum (in gradientSyncS
    // and the exposed gradient sync); 1 and 0 for one slice.
    int slices = 1;
    double dcnSyncS = 0;
    std::int64_t replicasPerSlice = 0;
    double computeEfficiency = 0; // useful MXU FLOP/s of the compute part over the core's peak
    // Model FLOPs utilisation: the forward and backward FLOPs of the layers (recomputation
    // left out) per training step (evaluations left out) over the core's peak.
    double modelFlopsUtilization = 0;
    double parameters = 0;             // of the model as bound (sequence length), all experts
    double forwardFlopsPerExample = 0; // 2 x multiply-accumulates, at the bound shapes
    StepBreakdown breakdown;
    std::string bottleneck;
    HostInputResult input;
    ParallelismPlan plan;
    MemoryUse memory;
    std::int64_t chips = 0;
};

// The collectives that sum the gradients over the replica groups at full size: an all-reduce,
// or with weight-update sharding a reduce-scatter then an all-gather.
std::vector<CollectiveSpec> gradientCollectives(const Scenario& scenario);
std::vector<CollectiveSpec> gradientCollectives(const StepPlan& plan);

// Evaluates a scenario with the analytic collective engine. Throws InputError for impossible
// combinations (a configuration that does not fit in HBM among them), naming the field.
// `calibration` replaces the bundled fitted core parameters (the calibration uses it).
TrainingResult simulateTraining(const Scenario& scenario,
                                const CoreCalibration* calibration = nullptr);

// The device part of one evaluation, sharded over the replicas: the workload's beam search, or
// else one forward pass of the evaluation set.
double evaluationDeviceSeconds(const StepPlan& plan, double evalExamples);

// The analytic evaluator over a built plan.
TrainingResult evaluateStepPlan(const StepPlan& plan, const Scenario& scenario);
// The same with the evaluation pass (evaluationDeviceSeconds) and every exchange of the plan
// (exchangeSeconds, in the plan's order) already timed: a search evaluates one plan under many
// settings and re-times only the exchanges a setting changes.
TrainingResult evaluateStepPlan(const StepPlan& plan, const Scenario& scenario,
                                double evaluationDeviceS,
                                const std::vector<double>& exchangeSeconds);

// The time of each of the plan's exchanges, in order, with the analytic collective engine.
std::vector<double> exchangeSeconds(const StepPlan& plan);

} // namespace podscope
