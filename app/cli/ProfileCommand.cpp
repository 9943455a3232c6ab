#include "ProfileCommand.hpp"

#include "TextFormat.hpp"
#include "common/InputError.hpp"
#include "common/TextFile.hpp"
#include "profile/OpTable.hpp"
#include "profile/ProfileFile.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addProfileCommand(CLI::App& app, ProfileOptions& o) {
    auto* cmd = app.add_subcommand(
        "profile", "A profiler's per-op table of a training step beside PodScope's, part by part");
    auto* summary = cmd->add_option(
        "--summary", o.summary,
        "A derived profile summary: a bundled name (resnet, bert, transformer, ssd, maskrcnn, "
        "gnmt) or a JSON file");
    auto* table = cmd->add_option("--table", o.table,
                                  "A profiler op table: XProf \"HLO op stats\" exported as CSV")
                      ->excludes(summary);
    cmd->add_option("--cores", o.cores,
                    "Cores the table covers (default: the replica groups of its collectives)")
        ->needs(table);
    cmd->add_option("--steps", o.steps,
                    "Training steps in the capture window (default: counted by the gradient "
                    "all-reduce)")
        ->needs(table);
    cmd->add_option("--exclude", o.exclude,
                    "Leave out ops whose TF op or HLO text contains this (repeatable: "
                    "evaluation programs in the window)")
        ->needs(table);
    cmd->add_flag("--measured-json", o.measuredJson,
                  "Print only the table's per-step summary as JSON (no comparison)")
        ->needs(table);
    cmd->add_flag("--json", o.json, "Print the comparison as one JSON object");
    addScenarioChoiceOptions(*cmd, o.scenario);
    return cmd;
}

namespace {

bool scenarioGiven(const ScenarioChoice& c) {
    if (c.source.preset || c.source.config) {
        return true;
    }
    for (const auto& text : c.settings.texts) {
        if (text) {
            return true;
        }
    }
    return false;
}

std::string ratio(double podscope, double measured) {
    if (measured <= 0) {
        return podscope > 0 ? "(none measured)" : "-";
    }
    return formatNumber(podscope / measured, 2);
}

// Pads to a width in characters ("µ" is two bytes, one column).
std::string cell(std::string text, std::size_t width) {
    std::size_t columns = 0;
    for (const char c : text) {
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    text.append(columns < width ? width - columns : 1, ' ');
    return text;
}

nlohmann::json partJson(const ProfilePart& p) {
    return {{"seconds", p.seconds},
            {"kernels", p.kernels},
            {"flops", p.flops},
            {"hbm_bytes", p.hbmBytes}};
}

// FLOPs and HBM bytes of the compute parts: collectives and infeed move bytes over links and
// from the host, which PodScope does not count as HBM traffic.
template <class Parts> ProfilePart computeParts(const Parts& parts) {
    ProfilePart sum;
    for (const ProfileCategory c : kProfileCategories) {
        if (c != ProfileCategory::Collective && c != ProfileCategory::Infeed) {
            sum += parts.part(c);
        }
    }
    return sum;
}

void printComparison(const ProfileFile& f, const PodScopeProfile& ps, std::ostream& out) {
    const ProfileSummary& m = f.measured;
    out << "Profile   " << (f.name.empty() ? std::string("op table") : f.name) << ": " << m.cores
        << " cores, " << formatNumber(m.stepsInWindow, 2) << " steps in the window, "
        << m.opsRead - m.opsExcluded << " of " << m.opsRead << " ops read";
    if (f.source.is_object() && f.source.contains("repository")) {
        out << " (" << f.source["repository"].get<std::string>() << " "
            << f.source.value("path", "") << " @ " << f.source.value("commit", "").substr(0, 7)
            << ")";
    }
    out << "\nPodScope  ";
    for (std::size_t i = 0; i < f.configurations.size(); ++i) {
        const Scenario& s = f.configurations[i].scenario;
        out << (i ? "; " : "") << s.workload << " (" << s.framework << "), " << s.globalBatch
            << " examples on " << s.topology;
        if (f.configurations.size() > 1) {
            out << " x " << formatNumber(f.configurations[i].weight, 3);
        }
    }
    out << "\n";
    for (const std::string& refusal : ps.refusals) {
        out << "          REFUSED as it stands (" << refusal
            << "); costed here without the HBM check\n";
    }
    out << "\n"
        << cell("part (per step, one core)", 28) << cell("profile", 12) << cell("PodScope", 12)
        << "PodScope/profile\n";
    for (const ProfileCategory c : kProfileCategories) {
        const double mt = m.part(c).seconds, pt = ps.part(c).seconds;
        out << cell(std::string(label(c)), 28) << cell(formatDuration(mt), 12)
            << cell(formatDuration(pt), 12) << ratio(pt, mt) << "\n";
    }
    const ProfilePart mt = m.total(), pt = ps.total();
    out << cell("step", 28) << cell(formatDuration(mt.seconds), 12)
        << cell(formatDuration(pt.seconds), 12) << ratio(pt.seconds, mt.seconds) << "\n\n";
    // Both sides classed by the roofline (intensity against the ridge), as the profiler classes.
    out << cell("compute-bound (roofline)", 28) << cell(formatDuration(m.computeBoundS), 12)
        << cell(formatDuration(ps.computeBoundS), 12) << ratio(ps.computeBoundS, m.computeBoundS)
        << "\n";
    const double mMemory = m.hbmBoundS + m.unknownBoundS;
    out << cell("memory-bound (roofline)", 28) << cell(formatDuration(mMemory), 12)
        << cell(formatDuration(ps.memoryBoundS), 12) << ratio(ps.memoryBoundS, mMemory) << "\n";
    out << cell("PodScope: MXU-bound kernels", 28) << cell("", 12)
        << cell(formatDuration(ps.mxuUnitS), 12) << "\n";
    out << cell("PodScope: other units", 28) << cell("", 12)
        << cell(formatDuration(ps.otherUnitS), 12) << "\n";
    out << cell("kernels per step", 28) << cell(formatNumber(mt.kernels, 0), 12)
        << cell(formatNumber(pt.kernels, 0), 12) << ratio(pt.kernels, mt.kernels) << "\n";
    const ProfilePart mc = computeParts(m), pc = computeParts(ps);
    out << cell("HBM GB (compute parts)", 28) << cell(formatNumber(mc.hbmBytes / 1e9, 2), 12)
        << cell(formatNumber(pc.hbmBytes / 1e9, 2), 12) << ratio(pc.hbmBytes, mc.hbmBytes) << "\n";
    const ProfilePart mm = m.part(ProfileCategory::Matmul), pm = ps.part(ProfileCategory::Matmul);
    out << cell("matmul TFLOP", 28) << cell(formatNumber(mm.flops / 1e12, 3), 12)
        << cell(formatNumber(pm.flops / 1e12, 3), 12) << ratio(pm.flops, mm.flops) << "\n";
    out << "\nThe roofline rows class each kernel by its FLOPs per HBM byte against the ridge ("
        << formatNumber(ps.rooflineRidgeFlopPerByte, 0)
        << " FLOP/B),\nas the profiler classes each op; the PodScope rows by the unit that bound "
           "it in the model.\n";
    out << "The profile's FLOPs count vector work too; PodScope's count MXU work only. "
           "PodScope's\n"
           "matmul layers carry their fused normalisation and activation, as XLA's convolution\n"
           "fusions do; it has no separate reductions, data formatting or infeed kernels.\n";
}

nlohmann::json comparisonJson(const ProfileFile& f, const PodScopeProfile& ps) {
    nlohmann::json parts = nlohmann::json::object();
    for (const ProfileCategory c : kProfileCategories) {
        parts[std::string(key(c))] = {{"profile", partJson(f.measured.part(c))},
                                      {"podscope", partJson(ps.part(c))}};
    }
    return {{"name", f.name},
            {"source", f.source},
            {"measured", toJson(f.measured)},
            {"categories", parts},
            {"step_s", {{"profile", f.measured.total().seconds}, {"podscope", ps.total().seconds}}},
            {"podscope_train_step_s", ps.trainStepS},
            {"bound_s",
             {{"profile",
               {{"compute", f.measured.computeBoundS},
                {"memory", f.measured.hbmBoundS + f.measured.unknownBoundS}}},
              {"podscope",
               {{"compute", ps.computeBoundS},
                {"memory", ps.memoryBoundS},
                {"mxu_unit", ps.mxuUnitS},
                {"other_units", ps.otherUnitS}}}}},
            {"refusals", ps.refusals}};
}

} // namespace

void runProfileCommand(const ProfileOptions& o, std::ostream& out) {
    ProfileFile f;
    if (o.table) {
        const std::string text = readUserTextFile(*o.table, "--table", kMaxOpTableBytes);
        if (text.size() > kMaxOpTableBytes) {
            throw InputError("--table", "larger than " + std::to_string(kMaxOpTableBytes >> 20) +
                                            " MiB; not a profiler op table");
        }
        if (o.cores < 0) {
            throw InputError("--cores", "must be at least 1");
        }
        if (o.steps < 0) {
            throw InputError("--steps", "must be above 0");
        }
        f.measured = summarizeProfile(parseOpTable(text, *o.table), {o.cores, o.steps, o.exclude});
        f.name = *o.table;
        if (o.measuredJson) {
            out << toJson(f.measured).dump(1) << "\n";
            return;
        }
    } else if (o.summary) {
        const std::string& s = *o.summary;
        if (s.find('/') == std::string::npos && s.find(".json") == std::string::npos) {
            f = bundledProfile(s);
        } else {
            f = parseProfileFile(readUserTextFile(s, "--summary", 1 << 20), s);
        }
    } else {
        throw InputError("--summary", "give --summary NAME|FILE or --table FILE");
    }
    if (scenarioGiven(o.scenario)) {
        f.configurations = {ProfiledConfiguration{1, resolveScenario(o.scenario)}};
    } else if (f.configurations.empty()) {
        throw InputError("--preset", "--table needs the configuration it profiled (--preset or "
                                     "--config and its flags), or --measured-json");
    }
    const PodScopeProfile ps = podscopeProfile(f.configurations);
    if (o.json) {
        out << comparisonJson(f, ps).dump(2) << "\n";
    } else {
        printComparison(f, ps, out);
    }
}

} // namespace podscope::cli
