#include "TimelineCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "TextFormat.hpp"
#include "common/InputError.hpp"
#include "report/AtomicFile.hpp"
#include "timeline/StepTimeline.hpp"
#include "trace/TimelineTrace.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepPlan.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addTimelineCommand(CLI::App& app, TimelineCommandOptions& o) {
    auto* cmd = app.add_subcommand(
        "timeline",
        "Simulate every chip through one training step (and what-ifs); optionally write it as a "
        "Chrome trace for Perfetto");
    addScenarioChoiceOptions(*cmd, o.scenario);
    cmd->add_option("--slow-chip", o.slowChip,
                    "What-if: this chip computes --slow-factor times slower")
        ->check(wholeNumberFor<std::int64_t>());
    cmd->add_option("--slow-host", o.slowHost,
                    "What-if: this host prepares its batches --slow-factor times slower")
        ->check(wholeNumberFor<std::int64_t>());
    cmd->add_option("--slow-factor", o.slowFactor,
                    "How much slower the slow chip or host is, 1 ... 100 (default 1.5 for a chip, "
                    "2 for a host)")
        ->check(realNumber());
    cmd->add_option(
           "--host-jitter", o.hostJitter,
           "What-if: coefficient of variation of a host's time per batch (lognormal), 0 ... 2")
        ->check(realNumber());
    cmd->add_option("--steps", o.steps,
                    "Consecutive steps to simulate, 1 ... 10000 (the last is shown)")
        ->check(wholeNumberFor<std::int64_t>());
    cmd->add_option("--seed", o.seed, "Seed of the host jitter")
        ->check(wholeNumberFor<std::int64_t>());
    cmd->add_flag("--with-evaluation", o.withEvaluation, "Append an evaluation pass to the step");
    cmd->add_flag("--no-contention", o.noContention,
                  "Time each gradient bucket alone instead of sharing the links");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    cmd->add_option("--out", o.out,
                    "Also write the timeline as a Chrome trace (JSON; open in ui.perfetto.dev)");
    cmd->add_option("--bins", o.bins, "Time bins of the trace's counters (10 ... 2000)")
        ->check(wholeNumberFor<std::int64_t>());
    cmd->add_option("--trace-chip", o.traceChips,
                    "Also show this chip span by span in the trace (repeatable)")
        ->check(wholeNumberFor<std::int64_t>());
    return cmd;
}

namespace {

// Right-aligns in a column counted in characters ("µ" is two bytes, one column).
std::string rightAligned(const std::string& text, std::size_t width) {
    std::size_t columns = 0;
    for (const char c : text) {
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    return std::string(columns < width ? width - columns : 0, ' ') + text;
}

// The flags that need no simulation, checked first.
TimelineOptions timelineOptions(const TimelineCommandOptions& o) {
    TimelineOptions t;
    if (o.steps < 1 || o.steps > 10000) {
        throw InputError("steps", "must be between 1 and 10000");
    }
    t.steps = static_cast<int>(o.steps);
    if (o.seed < 0) {
        throw InputError("seed", "must be 0 or more");
    }
    t.seed = static_cast<std::uint64_t>(o.seed);
    if (!(o.hostJitter >= 0 && o.hostJitter <= 2)) {
        throw InputError("host-jitter", "must be a coefficient of variation from 0 to 2");
    }
    t.hostJitter = o.hostJitter;
    t.withEvaluation = o.withEvaluation;
    t.contention = !o.noContention;
    if (o.slowFactor) {
        if (!o.slowChip && !o.slowHost) {
            throw InputError("slow-factor", "give --slow-chip or --slow-host too");
        }
        if (!(*o.slowFactor >= 1 && *o.slowFactor <= 100)) {
            throw InputError("slow-factor", "must be between 1 and 100");
        }
        t.slowChipFactor = *o.slowFactor;
        t.slowHostFactor = *o.slowFactor;
    }
    if (o.bins < 10 || o.bins > 2000) {
        throw InputError("bins", "must be between 10 and 2000");
    }
    if (!o.traceChips.empty() && !o.out) {
        throw InputError("trace-chip", "shows a chip in the trace: give --out too");
    }
    return t;
}

void checkChip(std::int64_t chip, std::int64_t count, const std::string& field,
               const std::string& what) {
    if (chip < 0 || chip >= count) {
        throw InputError(field, "must name a " + what + " from 0 to " + std::to_string(count - 1));
    }
}

// The step without its evaluation pass, which the analytic training step leaves out (as the
// timeline's own comparison does).
double trainingSeconds(const StepTimeline& t) {
    return t.stepS - t.secondsByActivity[static_cast<std::size_t>(ChipActivity::Evaluating)];
}

// "+1.25 %", "0.00 %" (never "-0.00 %").
std::string signedPercent(double fraction) {
    const double percent = std::abs(fraction) < 5e-5 ? 0.0 : 100 * fraction;
    return (percent > 0 ? "+" : "") + formatNumber(percent, 2) + " %";
}

nlohmann::json summaryJson(const Scenario& s, const StepTimeline& t, ChipId reference,
                           ChipId slowest) {
    nlohmann::json byActivity = nlohmann::json::object();
    for (int a = 0; a < kChipActivityCount; ++a) {
        byActivity[toString(static_cast<ChipActivity>(a))] =
            t.secondsByActivity[static_cast<std::size_t>(a)];
    }
    return {{"scenario", toJson(s)},
            {"chips", t.chips},
            {"step_s", t.stepS},
            {"analytic_train_step_s", t.analyticTrainStepS},
            {"training_step_s", trainingSeconds(t)},
            {"difference_fraction", trainingSeconds(t) / t.analyticTrainStepS - 1},
            {"difference", t.difference},
            {"reference_chip", reference},
            {"seconds_by_activity", byActivity},
            {"slowest_chip", slowest},
            {"steps", t.stepTimesS.size()},
            {"step_times_s", t.stepTimesS},
            {"mean_step_s", t.meanStepS},
            {"p50_step_s", t.p50StepS},
            {"p99_step_s", t.p99StepS},
            {"items", t.items.size()},
            {"network", toString(t.network)}};
}

void printText(const Scenario& s, const TimelineCommandOptions& o, const StepTimeline& t,
               ChipId reference, ChipId slowest, std::ostream& out) {
    out << "Step timeline  " << s.workload << " (" << s.framework << "), global batch "
        << s.globalBatch << ", " << formatCount(t.chips, "chip") << ", contention "
        << (o.noContention ? "off" : "on") << "\n";
    const double training = trainingSeconds(t);
    out << "Step time      " << formatDuration(t.stepS) << "  (";
    if (t.stepTimesS.size() > 1) {
        out << "the last of " << t.stepTimesS.size() << " steps; ";
    }
    if (training < t.stepS) {
        out << "training " << formatDuration(training) << " + evaluation "
            << formatDuration(t.stepS - training) << "; ";
    }
    out << "analytic model " << formatDuration(t.analyticTrainStepS) << ", "
        << signedPercent(training / t.analyticTrainStepS - 1) << ")\n";
    out << "Difference     " << (t.difference.empty() ? "none beyond 2 %" : t.difference) << "\n";
    out << "Network        "
        << (t.network == NetworkModel::RingSteps
                ? "ring steps (the event engine)"
                : "flows sharing the links max-min fairly (too many ring steps for the event "
                  "engine)")
        << "\n";
    if (t.stepTimesS.size() > 1) {
        out << "Steps          " << t.stepTimesS.size() << " simulated: mean "
            << formatDuration(t.meanStepS) << ", p50 " << formatDuration(t.p50StepS) << ", p99 "
            << formatDuration(t.p99StepS) << "\n";
    }
    if (slowest != 0) {
        out << "Slowest chip   chip " << slowest << " (the chip the others wait for)\n";
    }
    out << "\nChip " << reference << (o.slowChip ? " (the slow chip)" : "")
        << " in the last step\n";
    for (int a = 0; a < kChipActivityCount; ++a) {
        const double seconds = t.secondsByActivity[static_cast<std::size_t>(a)];
        if (seconds <= 0) {
            continue;
        }
        const std::string label = toString(static_cast<ChipActivity>(a));
        out << "  " << label << std::string(label.size() < 26 ? 26 - label.size() : 1, ' ')
            << rightAligned(formatDuration(seconds), 11) << "  "
            << rightAligned(formatPercent(seconds / t.stepS), 7) << "\n";
    }
}

} // namespace

void runTimelineCommand(const TimelineCommandOptions& o, std::ostream& out, std::ostream& err) {
    TimelineOptions options = timelineOptions(o);
    if (o.out) {
        checkOutputFile(*o.out, "out"); // before the simulation
    }
    const Scenario s = resolveScenario(o.scenario);
    const StepPlan plan = buildStepPlan(s);
    const std::int64_t chips = plan.topology.chipCount();
    if (o.slowChip) {
        checkChip(*o.slowChip, chips, "slow-chip", "chip");
        options.slowChip = static_cast<ChipId>(*o.slowChip);
    }
    if (o.slowHost) {
        checkChip(*o.slowHost, plan.topology.hostCount(), "slow-host", "host");
        options.slowHost = static_cast<int>(*o.slowHost);
    }
    trace::TimelineTraceOptions traceOptions;
    traceOptions.timeBins = static_cast<int>(o.bins);
    for (const std::int64_t chip : o.traceChips) {
        checkChip(chip, chips, "trace-chip", "chip");
        traceOptions.chips.push_back(static_cast<ChipId>(chip));
    }
    err << "timeline: simulating " << formatCount(chips, "chip") << "...\n";
    const StepTimeline t = simulateStepTimeline(s, plan, options);
    const ChipId reference = options.slowChip.value_or(0);
    const ChipId slowest = trace::chipOthersWaitFor(t);
    std::string written;
    if (o.out) {
        const std::string text = trace::buildTimelineTrace(s, plan, t, traceOptions).dump();
        report::writeFileAtomically(*o.out, text, "out");
        written = "Wrote " + *o.out + " (" + std::to_string(text.size() / 1024) +
                  " KiB; open it in ui.perfetto.dev)\n";
    }
    if (o.json) {
        auto json = summaryJson(s, t, reference, slowest);
        if (o.out) {
            json["trace"] = *o.out;
        }
        out << json.dump(2) << "\n";
    } else {
        printText(s, o, t, reference, slowest, out);
        out << (written.empty() ? "" : "\n" + written);
    }
}

} // namespace podscope::cli
