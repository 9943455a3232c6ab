#include "training/TrainingJson.hpp"

namespace podscope {

nlohmann::json toJson(const TrainingResult& r) {
    const auto& b = r.breakdown;
    nlohmann::json j;
    // A run of unknown length (no convergence data, no train_steps): null, and why.
    const auto known = [&](auto value) {
        return r.timeToTrainKnown ? nlohmann::json(value) : nlohmann::json();
    };
    j["time_to_train_s"] = known(r.timeToTrainS);
    if (!r.timeToTrainKnown) {
        j["time_to_train_missing"] = r.timeToTrainMissing;
    }
    j["step_time_s"] = r.stepTimeS;
    j["train_step_time_s"] = r.trainStepS;
    j["throughput_examples_per_s"] = r.throughputExamplesPerS;
    j["steps"] = known(r.steps);
    j["epochs"] = known(r.epochs);
    j["extrapolated"] = r.extrapolated;
    j["critical_batch"] = r.criticalBatch;
    j["evaluations"] = r.evaluations;
    j["evaluation_s"] = r.evaluationS;
    // The eval (amortized) breakdown part, split as the step timeline plays it.
    j["evaluation_share"] = {{"device_s", r.evalShare.deviceS},
                             {"host_metric_wait_s", r.evalShare.hostMetricWaitS},
                             {"compile_s", r.evalShare.compileS},
                             {"loop_round_trip_s", r.evalShare.loopRoundTripS}};
    j["eval_decode_s"] = r.evalDecodeS;
    if (r.evalDecode.beamWidth > 0) {
        j["eval_decode"] = {{"beam_width", r.evalDecode.beamWidth},
                            {"tokens_per_batch", r.evalDecode.tokens},
                            {"sentences_per_replica", r.evalDecode.sentencesPerReplica},
                            {"batches", r.evalDecode.batches}};
    }
    j["startup_s"] = r.startupS;
    j["final_eval_wait_s"] = r.finalEvalWaitS;
    j["chips"] = r.chips;
    j["breakdown"] = nlohmann::json::object();
    for (const BreakdownPart& part : kBreakdownParts) {
        j["breakdown"][part.key] = b.*part.seconds;
    }
    j["bottleneck"] = r.bottleneck;
    j["gradient_sync_s"] = r.gradientSyncS;
    j["compute_efficiency"] = r.computeEfficiency;
    j["model_flops_utilization"] = r.modelFlopsUtilization;
    j["parameters"] = r.parameters;
    j["forward_flops_per_example"] = r.forwardFlopsPerExample;
    j["parallelism"] = {{"replicas", r.plan.replicas},
                        {"model_parallel", r.plan.modelParallel},
                        {"kind", toString(r.plan.kind)},
                        {"chips_per_replica", r.plan.chipsPerReplica},
                        {"per_replica_batch", r.plan.perReplicaBatch},
                        {"examples_per_core", r.plan.examplesPerCore}};
    if (r.slices > 1) {
        // Multislice (docs/multislice.md): the parallelism above is one slice's.
        j["dcn_sync_s"] = r.dcnSyncS;
        j["multislice"] = {{"slices", r.slices},
                           {"replicas_per_slice", r.replicasPerSlice},
                           {"replicas", r.replicasPerSlice * r.slices},
                           {"dcn_sync_s", r.dcnSyncS}};
    }
    const MemoryUse& m = r.memory;
    j["memory"] = {{"weights_bytes", m.weights},
                   {"gradients_bytes", m.gradients},
                   {"optimizer_state_bytes", m.optimizerState},
                   {"activations_bytes", m.activations},
                   {"workspace_bytes", m.workspace},
                   {"total_bytes", m.total()},
                   {"capacity_bytes", m.capacity},
                   {"fits", m.fits()},
                   {"recompute",
                    {{"layers", m.recompute.layers},
                     {"seconds", m.recompute.seconds},
                     {"saved_bytes", m.recompute.savedBytes}}}};
    j["input"] = {{"required_examples_per_s_per_host", r.input.requiredExamplesPerSPerHost},
                  {"capacity_examples_per_s_per_host", r.input.capacityExamplesPerSPerHost},
                  {"hosts", r.input.hosts},
                  {"chips_per_host", r.input.chipsPerHost},
                  {"host_cpu_cores", r.input.cpuCores},
                  {"input_bound", r.input.inputBound}};
    return j;
}

} // namespace podscope
