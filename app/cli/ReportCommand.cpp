#include "ReportCommand.hpp"

#include "OutputPaths.hpp"
#include "TextFormat.hpp"
#include "common/InputError.hpp"
#include "report/Report.hpp"
#include "training/Presets.hpp"

#ifdef PODSCOPE_WITH_CHARTS
#include "export/ReportFigures.hpp"
#endif

#include <CLI/CLI.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addReportCommand(CLI::App& app, ReportOptions& o) {
    auto* cmd = app.add_subcommand("report", "Write a headless report into a directory: "
                                             "results.json, results.csv, trace.json, the app's "
                                             "charts (strong and weak scaling, step breakdown, "
                                             "batch) as SVG and PNG, and a self-contained "
                                             "report.html");
    addScenarioChoiceOptions(*cmd, o.scenario);
    cmd->add_option("--out", o.out, "The directory to write (created if missing)")->required();
    return cmd;
}

void runReportCommand(const ReportOptions& o, std::ostream& out, std::ostream& err) {
    if (o.out.empty()) {
        throw InputError("out", "give the directory to write");
    }
    checkOutputFolder(o.out, "out"); // before minutes of simulation
    const Scenario s = resolveScenario(o.scenario);
    // The measured reference belongs to the preset's own configuration; a report made from a
    // preset with overrides (or from a configuration file that names a preset) still shows it, as
    // the point the configuration was changed from.
    std::optional<Preset> preset;
    if (const auto name = startingPreset(o.scenario.source)) {
        preset = loadPreset(*name);
    }
    auto progress = [&err](const std::string& line) { err << "report: " << line << "\n"; };
    const auto data = report::computeReport(s, preset, progress);
    std::vector<report::ReportFigure> figures;
#ifdef PODSCOPE_WITH_CHARTS
    progress("drawing the charts...");
    figures = ui::drawReportFigures(data);
#endif
    const auto files = report::writeReport(data, figures, o.out, progress);
    for (const auto& w : files.warnings) {
        err << "podscope-cli: warning: " << w << "\n";
    }
    out << "Wrote " << formatCount(static_cast<long long>(files.written.size()), "file") << " to "
        << o.out << "\n";
}

} // namespace podscope::cli
