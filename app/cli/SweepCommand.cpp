#include "SweepCommand.hpp"

#include "NumberFlags.hpp"
#include "TextFormat.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
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

// The default output, for people: the columns a reader compares, aligned, numbers as people
// write them; a refused point says why on its own row. Every column is in --csv and --json.
void printTable(const std::vector<api::SweepRow>& rows, std::ostream& out) {
    const std::vector<std::string> header = {"chips",        "global batch", "time to train",
                                             "step time",    "examples/s",   "steps",
                                             "HBM per core", "bottleneck"};
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : rows) {
        std::vector<std::string> line = {formatNumber(static_cast<double>(row.chips), 0),
                                         formatNumber(static_cast<double>(row.globalBatch), 0)};
        if (!row.error.empty()) {
            line.push_back("refused: " + row.error);
        } else {
            line.push_back(row.timeToTrainKnown
                               ? formatDuration(row.timeToTrainS) + (row.extrapolated ? " *" : "")
                               : "unknown");
            line.push_back(formatDuration(row.stepTimeS));
            line.push_back(formatNumber(row.throughputExamplesPerS, 0));
            line.push_back(row.timeToTrainKnown ? formatNumber(static_cast<double>(row.steps), 0)
                                                : "");
            line.push_back(formatBytes(row.hbmBytesPerCore));
            line.push_back(row.bottleneck);
        }
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
        width[c] = header[c].size();
        for (const auto& line : cells) {
            if (line.size() == header.size() && c < line.size()) {
                width[c] = std::max(width[c], displayWidth(line[c]));
            }
        }
    }
    const auto print = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const bool last = c + 1 == line.size();
            const std::size_t pad = last ? 0 : width[c] - std::min(width[c], displayWidth(line[c]));
            // Numbers right-aligned, the bottleneck (and a refusal) as text.
            text += (c ? "  " : "") + (last ? line[c] : std::string(pad, ' ') + line[c]);
        }
        out << text << "\n";
    };
    print(header);
    bool extrapolated = false;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        print(cells[i]);
        extrapolated = extrapolated || (rows[i].error.empty() && rows[i].extrapolated);
    }
    if (extrapolated) {
        out << "* the global batch lies outside the measured convergence points\n";
    }
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
    if (!o.csv) {
        printTable(rows, out);
        return;
    }
    const char sep = ',';
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
                if (c == ',') {
                    c = ';';
                }
            }
            out << sep << message;
        }
        out << "\n";
    }
}

} // namespace podscope::cli
