#include "SimulateCommand.hpp"

#include "OutputPaths.hpp"
#include "TextFormat.hpp"
#include "api/SimulateJson.hpp"
#include "common/Limits.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"
#include "training/WhatIf.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace podscope::cli {

CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& o) {
    auto* cmd =
        app.add_subcommand("simulate", "Step time and time to train of one training configuration");
    addScenarioChoiceOptions(*cmd, o.scenario);
    cmd->add_option("--save-config", o.saveConfig,
                    "Write the resolved configuration to this JSON file");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    return cmd;
}

namespace {

void printText(const Scenario& s, const StepPlan& plan, const TrainingResult& r,
               const std::vector<WhatIf>& ifs, std::ostream& out) {
    const auto& b = r.breakdown;
    const Workload& workload = cachedWorkload(s.workload);
    out << "Workload    " << s.workload << " (" << s.framework << "), global batch "
        << s.globalBatch << ", " << formatCount(r.chips, "chip") << ", "
        << formatCount(r.plan.replicas, "replica") << " of "
        << formatCount(r.plan.modelParallel, "core");
    if (r.plan.modelParallel > 1) {
        out << " (" << toString(r.plan.kind) << ")";
    }
    out << ", weight-update sharding " << (s.weightUpdateSharding ? "on" : "off") << "\n";
    if (r.timeToTrainKnown) {
        out << "Time to train  " << formatDuration(r.timeToTrainS) << "  ("
            << formatCount(r.steps, "step") << ", "
            << (workload.trainExamples > 0 ? formatNumber(r.epochs, 2) + " epochs, " : "")
            << formatCount(r.evaluations, "evaluation") << ", start-up "
            << formatDuration(r.startupS) << ")\n";
    } else {
        out << "Time to train  unknown: " << r.timeToTrainMissing << "\n";
    }
    if (r.extrapolated) {
        out << "               EXTRAPOLATED: global batch " << s.globalBatch
            << " lies outside the measured convergence points (critical batch about "
            << formatNumber(r.criticalBatch, 0) << ")\n";
    }
    out << "Step time      " << formatDuration(r.stepTimeS) << "  (training "
        << formatDuration(r.trainStepS) << ", " << formatNumber(r.throughputExamplesPerS, 0)
        << " examples/s)\n\n";
    for (const BreakdownPart& part : kBreakdownParts) {
        const std::string label(part.label);
        const double value = b.*part.seconds;
        out << "  " << label << std::string(26 - label.size(), ' ') << formatDuration(value) << "  "
            << formatPercent(value / r.stepTimeS) << "\n";
        if (part.seconds == &StepBreakdown::evalAmortized && value > 0) {
            // Its parts, as the step timeline plays them.
            const EvaluationShare& e = r.evalShare;
            out << "    (evaluation passes " << formatDuration(e.deviceS) << ", host metric wait "
                << formatDuration(e.hostMetricWaitS) << ", compile " << formatDuration(e.compileS)
                << ", loop round trips " << formatDuration(e.loopRoundTripS) << ")\n";
        }
    }
    if (r.slices > 1) {
        // The DCN stage is in the gradient sync above; its own line says what it moves and at
        // what rate. The plan is built again for its figures (once, and only for multislice).
        out << "\nMultislice     " << formatCount(r.slices, "slice") << " of "
            << formatCount(r.chips / r.slices, "chip") << " (" << r.chips << " in all), "
            << formatCount(r.replicasPerSlice, "replica") << " per slice ("
            << r.replicasPerSlice * r.slices << " in all)\n"
            << dcnStageText(s, plan.dcn);
    }
    if (r.evalDecode.beamWidth > 0) {
        out << "  (each evaluation decodes by beam search on the device: "
            << formatDuration(r.evalDecodeS) << ", beam " << formatNumber(r.evalDecode.beamWidth, 0)
            << ", " << formatNumber(r.evalDecode.tokens, 0) << " tokens x "
            << formatCount(static_cast<long long>(r.evalDecode.batches), "batch", "batches")
            << " of " << formatNumber(r.evalDecode.sentencesPerReplica, 0)
            << " sentences per replica)\n";
    }
    out << "\nBottleneck     " << r.bottleneck << "\n";
    out << "Compute efficiency " << formatPercent(r.computeEfficiency) << " of peak at "
        << formatNumber(r.plan.examplesPerCore, 2) << " examples per core; MFU "
        << formatPercent(r.modelFlopsUtilization) << "\n";
    out << "Model          " << formatNumber(r.parameters / 1e6, 1) << " M parameters, "
        << formatNumber(r.forwardFlopsPerExample / 1e9, 1) << " GFLOP forward per "
        << workload.exampleUnit << "\n";
    if (!workload.unmapped.empty()) {
        out << "Unmapped ops  ";
        for (const UnmappedOperator& op : workload.unmapped) {
            out << " " << op.opType << " x" << op.count << " (" << formatPercent(op.flopsShare)
                << " of FLOPs)";
        }
        out << "\n";
    }
    const MemoryUse& m = r.memory;
    out << "HBM per core   " << formatBytes(m.total()) << " of " << formatBytes(m.capacity)
        << "  (weights " << formatBytes(m.weights) << ", gradients " << formatBytes(m.gradients)
        << ", optimizer state " << formatBytes(m.optimizerState) << ", activations "
        << formatBytes(m.activations) << ", workspace " << formatBytes(m.workspace) << ")\n";
    if (m.recompute.layers > 0) {
        out << "Recompute      " << m.recompute.layers
            << " layers recomputed in the backward pass (" << formatDuration(m.recompute.seconds)
            << " per step) spare " << formatBytes(m.recompute.savedBytes) << " of activations\n";
    }
    out << "Host input     needs " << formatNumber(r.input.requiredExamplesPerSPerHost, 0)
        << " examples/s per host, can supply "
        << (std::isfinite(r.input.capacityExamplesPerSPerHost)
                ? formatNumber(r.input.capacityExamplesPerSPerHost, 0)
                : std::string("any rate (the model states no host cost)"))
        << " (" << formatCount(r.input.hosts, "host") << (r.input.inputBound ? ", INPUT-BOUND" : "")
        << ")\n";
    out << "\nWhat if" << (r.timeToTrainKnown ? "" : " (step time: the time to train is unknown)")
        << "\n";
    for (const auto& w : ifs) {
        if (!r.timeToTrainKnown) {
            const double delta = w.result.stepTimeS - r.stepTimeS;
            out << "  " << w.key << std::string(w.key.size() < 22 ? 22 - w.key.size() : 1, ' ')
                << formatDuration(w.result.stepTimeS) << " (" << (delta >= 0 ? "+" : "")
                << formatNumber(100.0 * delta / r.stepTimeS, 1) << " %)\n";
            continue;
        }
        const double delta = w.result.timeToTrainS - r.timeToTrainS;
        out << "  " << w.key << std::string(w.key.size() < 22 ? 22 - w.key.size() : 1, ' ')
            << formatDuration(w.result.timeToTrainS) << " (" << (delta >= 0 ? "+" : "")
            << formatNumber(100.0 * delta / r.timeToTrainS, 1) << " %)\n";
    }
}

} // namespace

void runSimulateCommand(const SimulateOptions& o, std::ostream& out) {
    const Scenario s = resolveScenario(o.scenario);
    if (o.saveConfig) {
        checkOutputFile(*o.saveConfig, "save-config");
    }
    const StepPlan plan = buildStepPlan(s); // one plan: the result and the DCN lines read it
    const TrainingResult r = evaluateStepPlan(plan, s);
    const auto ifs = whatIfs(s);
    if (o.saveConfig) {
        saveScenarioFile(*o.saveConfig, s);
    }
    if (o.json) {
        out << api::simulateJson(s, r, ifs).dump(2) << "\n"; // as the API's simulate()
    } else {
        printText(s, plan, r, ifs, out);
    }
}

} // namespace podscope::cli
