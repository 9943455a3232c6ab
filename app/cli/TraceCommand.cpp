#include "TraceCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "TextFormat.hpp"
#include "common/InputError.hpp"
#include "common/AtomicFile.hpp"
#include "timeline/StepTimeline.hpp"
#include "trace/StepTrace.hpp"
#include "trace/TimelineTrace.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <CLI/CLI.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addTraceCommand(CLI::App& app, TraceOptions& o) {
    auto* cmd = app.add_subcommand(
        "trace", "Write one training step of every chip as a Chrome trace for Perfetto (or, with "
                 "--collective, the analytic step and its gradient all-reduce)");
    addScenarioChoiceOptions(*cmd, o.scenario);
    cmd->add_option("--out", o.out,
                    "The trace file to write (JSON; open in ui.perfetto.dev or chrome://tracing)")
        ->required();
    auto* collective = cmd->add_flag(
        "--collective", o.collective,
        "Write the analytic step breakdown and the event engine's gradient all-reduce instead");
    auto* noCollective = cmd->add_flag(
        "--no-collective", o.noCollective,
        "Write the analytic step breakdown alone (without the gradient all-reduce; faster)");
    noCollective->excludes(collective);
    cmd->add_flag("--step", o.step,
                  "Write the step timeline of every chip (the default; as podscope-cli timeline "
                  "--out, whose what-if flags are there)")
        ->excludes(collective)
        ->excludes(noCollective);
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
    if (!o.collective && !o.noCollective) {
        // The same file as podscope-cli timeline --out, without what-ifs (contention on).
        const StepPlan plan = buildStepPlan(s);
        err << "trace: simulating the step of " << formatCount(plan.topology.chipCount(), "chip")
            << "...\n";
        const StepTimeline t = simulateStepTimeline(s, plan);
        trace::TimelineTraceOptions options;
        options.timeBins = o.bins;
        const std::string text = trace::buildTimelineTrace(s, plan, t, options).dump();
        writeFileAtomically(o.out, text, "out");
        out << "Wrote " << o.out << " (" << text.size() / 1024 << " KiB)\n";
        return;
    }
    const TrainingResult r = simulateTraining(s);
    if (!o.noCollective) {
        err << "trace: simulating the gradient collective on " << formatCount(r.chips, "chip")
            << "...\n";
    }
    trace::StepTraceOptions options;
    options.withGradientCollective = !o.noCollective;
    options.timeBins = o.bins;
    const std::string text = trace::buildStepTrace(s, r, options).dump();
    writeFileAtomically(o.out, text, "out");
    out << "Wrote " << o.out << " (" << text.size() / 1024 << " KiB)\n";
}

} // namespace podscope::cli
