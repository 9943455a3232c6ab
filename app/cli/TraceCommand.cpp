#include "TraceCommand.hpp"

#include "common/InputError.hpp"
#include "report/AtomicFile.hpp"
#include "trace/StepTrace.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <CLI/CLI.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addTraceCommand(CLI::App& app, TraceOptions& o) {
    auto* cmd = app.add_subcommand(
        "trace",
        "Write one training step (and its gradient all-reduce) as a Chrome trace for Perfetto");
    addScenarioSourceOptions(*cmd, o.source);
    cmd->add_option("--out", o.out,
                    "The trace file to write (JSON; open in ui.perfetto.dev or chrome://tracing)")
        ->required();
    cmd->add_option("--chips", o.chips,
                    "Use the standard slice with this many chips (16 ... 4096)");
    cmd->add_option("--global-batch", o.globalBatch, "Global batch (examples per step)");
    addScenarioOverrideOptions(*cmd, o.overrides);
    cmd->add_flag("--no-collective", o.noCollective,
                  "Leave out the event-engine simulation of the gradient all-reduce (faster)");
    cmd->add_option("--bins", o.bins, "Time bins of the link-utilisation counters (10 ... 2000)");
    return cmd;
}

Scenario resolveScenario(const ScenarioSource& source, const ScenarioOverrides& overrides,
                         const std::optional<std::int64_t>& chips,
                         const std::optional<std::int64_t>& globalBatch) {
    Scenario s = loadScenario(source);
    if (chips && overrides.topology) {
        throw InputError("chips", "give either --chips or --topology, not both");
    }
    if (chips) {
        useStandardSlice(s, *chips);
    }
    if (globalBatch) {
        s.globalBatch = *globalBatch;
    }
    applyOverrides(overrides, s);
    return s;
}

void runTraceCommand(const TraceOptions& o, std::ostream& out, std::ostream& err) {
    if (o.out.empty()) {
        throw InputError("out", "give the trace file to write");
    }
    if (o.bins < 10 || o.bins > 2000) {
        throw InputError("bins", "must be between 10 and 2000");
    }
    const Scenario s = resolveScenario(o.source, o.overrides, o.chips, o.globalBatch);
    const TrainingResult r = simulateTraining(s);
    if (!o.noCollective) {
        err << "trace: simulating the gradient collective on " << r.chips << " chips...\n";
    }
    trace::StepTraceOptions options;
    options.withGradientCollective = !o.noCollective;
    options.timeBins = o.bins;
    const std::string text = trace::buildStepTrace(s, r, options).dump();
    report::writeFileAtomically(o.out, text, "out");
    out << "Wrote " << o.out << " (" << text.size() / 1024 << " KiB)\n";
}

} // namespace podscope::cli
