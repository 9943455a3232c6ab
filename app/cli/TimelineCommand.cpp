#include "TimelineCommand.hpp"

#include "NumberFlags.hpp"
#include "OutputPaths.hpp"
#include "TextFormat.hpp"
#include "api/TimelineRun.hpp"
#include "common/AtomicFile.hpp"
#include "common/InputError.hpp"
#include "timeline/StepTimeline.hpp"
#include "trace/TimelineTrace.hpp"
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

// The request of the public API (podscope/timeline.hpp) that these flags make.
api::TimelineRequest timelineRequest(const TimelineCommandOptions& o) {
    api::TimelineRequest r;
    r.slowChip = o.slowChip;
    r.slowHost = o.slowHost;
    r.slowFactor = o.slowFactor;
    r.hostJitter = o.hostJitter;
    r.steps = o.steps;
    r.seed = o.seed;
    r.withEvaluation = o.withEvaluation;
    r.contention = !o.noContention;
    return r;
}

// The flags that need no simulation, checked first: the API's, then the trace's.
TimelineOptions timelineOptions(const TimelineCommandOptions& o) {
    const TimelineOptions t = api::checkedTimelineOptions(timelineRequest(o));
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

// "+1.25 %", "0.00 %" (never "-0.00 %").
std::string signedPercent(double fraction) {
    const double percent = std::abs(fraction) < 5e-5 ? 0.0 : 100 * fraction;
    return (percent > 0 ? "+" : "") + formatNumber(percent, 2) + " %";
}

void printText(const Scenario& s, const TimelineCommandOptions& o, const StepPlan& plan,
               const StepTimeline& t, ChipId reference, ChipId slowest, std::ostream& out) {
    out << "Step timeline  " << s.workload << " (" << s.framework << "), global batch "
        << s.globalBatch << ", " << formatCount(t.chips, "chip") << ", contention "
        << (o.noContention ? "off" : "on") << "\n";
    const double training = api::trainingSeconds(t);
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
    if (plan.slices > 1) {
        // The timeline simulates one slice; the DCN stage is its item "gradient all-reduce
        // across N slices (DCN)".
        out << "Multislice     " << formatCount(plan.slices, "slice") << " of "
            << formatCount(t.chips, "chip") << " stepping alike (one slice simulated)\n"
            << dcnStageText(s, plan.dcn);
    }
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
    api::setSlowChipAndHost(timelineRequest(o), plan, options);
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
        writeFileAtomically(*o.out, text, "out");
        written = "Wrote " + *o.out + " (" + std::to_string(text.size() / 1024) +
                  " KiB; open it in ui.perfetto.dev)\n";
    }
    if (o.json) {
        auto json = api::timelineJson(s, plan, t, reference, slowest);
        if (o.out) {
            json["trace"] = *o.out;
        }
        out << json.dump(2) << "\n";
    } else {
        printText(s, o, plan, t, reference, slowest, out);
        out << (written.empty() ? "" : "\n" + written);
    }
}

} // namespace podscope::cli
