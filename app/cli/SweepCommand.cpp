#include "SweepCommand.hpp"

#include "NumberFlags.hpp"
#include "TextFormat.hpp"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <podscope/sweep.hpp>
#include <sstream>
#include <string>

namespace podscope::cli {

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& o) {
    auto* cmd = app.add_subcommand("sweep", "Time to train over chip counts (and global batches)");
    addScenarioSourceOptions(*cmd, o.source);
    cmd->add_option("--chips", o.chips, "Chip counts, e.g. 16,64,256,1024,4096 (standard slices)")
        ->required()
        ->delimiter(',')
        ->check(wholeNumberFor<std::int64_t>());
    cmd->add_option("--global-batch", o.globalBatches,
                    "Global batches, e.g. 4096,65536 (default: the scenario's)")
        ->delimiter(',')
        ->check(wholeNumberFor<std::int64_t>());
    addSettingOptions(*cmd, o.settings, {"chips", "global_batch"});
    auto* csv = cmd->add_flag("--csv", o.csv, "Print CSV");
    cmd->add_flag("--json", o.json, "Print a JSON array")->excludes(csv);
    return cmd;
}

namespace {

std::string csvNumber(double v) {
    std::ostringstream s;
    s << std::setprecision(9) << v;
    return s.str();
}

} // namespace

void runSweepCommand(const SweepOptions& o, std::ostream& out) {
    const std::vector<api::SweepRow> rows =
        api::sweep({configurationRequest(o.source, o.settings), o.chips, o.globalBatches});
    if (o.json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& row : rows) {
            array.push_back(row.json);
        }
        out << array.dump(2) << "\n";
        return;
    }
    const char sep = o.csv ? ',' : '\t';
    const std::vector<std::string> names = api::sweepColumns();
    for (std::size_t i = 0; i < names.size(); ++i) {
        out << (i ? std::string(1, sep) : "") << names[i];
    }
    out << "\n";
    for (const auto& row : rows) {
        out << row.chips << sep << row.globalBatch;
        if (row.error.empty()) {
            // A run of unknown length leaves its time to train, steps and epochs empty.
            const auto known = [&](double v) { return row.timeToTrainKnown ? csvNumber(v) : ""; };
            out << sep << known(row.timeToTrainS) << sep << csvNumber(row.stepTimeS) << sep
                << csvNumber(row.throughputExamplesPerS) << sep
                << known(static_cast<double>(row.steps)) << sep << known(row.epochs);
            for (const double seconds : row.breakdownS) {
                out << sep << csvNumber(seconds);
            }
            out << sep << row.bottleneck << sep << csvNumber(row.requiredExamplesPerSPerHost) << sep
                << csvNumber(row.capacityExamplesPerSPerHost) << sep
                << (row.extrapolated ? "yes" : "no") << sep << csvNumber(row.hbmBytesPerCore) << sep
                << "";
        } else {
            for (std::size_t i = 2; i + 1 < names.size(); ++i) {
                out << sep;
            }
            std::string message = row.error;
            for (auto& c : message) {
                if (c == ',' || c == '\t') {
                    c = ';';
                }
            }
            out << sep << message;
        }
        out << "\n";
    }
}

} // namespace podscope::cli
