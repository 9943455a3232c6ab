#include "TraceCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "TextFormat.hpp"
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
    addScenarioChoiceOptions(*cmd, o.scenario);
    cmd->add_option("--out", o.out,
                    "The trace file to write (JSON; open in ui.perfetto.dev or chrome://tracing)")
        ->required();
    cmd->add_flag("--no-collective", o.noCollective,
                  "Leave out the event-engine simulation of the gradient all-reduce (faster)");
    cmd->add_option("--bins", o.bins, "Time bins of the link-utilisation counters (10 ... 2000)")
        ->check(wholeNumberFor<int>());
    return cmd;
}

void runTraceCommand(const TraceOptions& o, std::ostream& out, std::ostream& err) {
    if (o.out.empty()) {
        throw InputError("out", "give the trace file to write");
    }
    if (o.bins < 10 || o.bins > 2000) {
        throw InputError("bins", "must be between 10 and 2000");
    }
    checkOutputFile(o.out, "out"); // before the collective's simulation
    const Scenario s = resolveScenario(o.scenario);
    const TrainingResult r = simulateTraining(s);
    if (!o.noCollective) {
        err << "trace: simulating the gradient collective on " << formatCount(r.chips, "chip")
            << "...\n";
    }
    trace::StepTraceOptions options;
    options.withGradientCollective = !o.noCollective;
    options.timeBins = o.bins;
    const std::string text = trace::buildStepTrace(s, r, options).dump();
    report::writeFileAtomically(o.out, text, "out");
    out << "Wrote " << o.out << " (" << text.size() / 1024 << " KiB)\n";
}

} // namespace podscope::cli
