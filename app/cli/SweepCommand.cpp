#include "SweepCommand.hpp"

#include "NumberFlags.hpp"
#include "TextFormat.hpp"
#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"
#include "training/TrainingJson.hpp"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
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

struct Row {
    std::int64_t chips;
    std::int64_t globalBatch;
    std::optional<TrainingResult> result;
    std::string error;
};

// The columns of the text and CSV tables: the step's parts come from the one list of them.
std::vector<std::string> columns() {
    std::vector<std::string> c = {"chips", "global_batch", "time_to_train_s", "step_time_s",
                                  "throughput_examples_per_s", "steps", "epochs"};
    for (const BreakdownPart& part : kBreakdownParts) {
        c.push_back(part.key);
    }
    for (const char* name : {"bottleneck", "required_examples_per_s_per_host",
                             "capacity_examples_per_s_per_host", "extrapolated",
                             "hbm_bytes_per_core", "error"}) {
        c.push_back(name);
    }
    return c;
}

std::string csvNumber(double v) {
    std::ostringstream s;
    s << std::setprecision(9) << v;
    return s.str();
}

} // namespace

void runSweepCommand(const SweepOptions& o, std::ostream& out) {
    const Scenario base = resolveScenario(o.source, o.settings);
    if (o.chips.empty()) {
        throw InputError("chips", "give at least one chip count");
    }
    if (o.chips.size() * std::max<std::size_t>(o.globalBatches.size(), 1) >
        limits::kMaxSweepPoints) {
        throw InputError("chips", "too many points: chip counts times global batches must be at "
                                  "most " + std::to_string(limits::kMaxSweepPoints));
    }
    // A batch that no chip count can use is a typo, not a row of the table.
    for (const auto batch : o.globalBatches) {
        const std::string problem = problemWithValue(*findSetting("global_batch"), batch);
        if (!problem.empty()) {
            throw InputError("global-batch", std::to_string(batch) + " " + problem);
        }
    }
    const std::vector<std::int64_t> batches =
        o.globalBatches.empty() ? std::vector<std::int64_t>{base.globalBatch} : o.globalBatches;
    std::vector<Row> rows;
    for (const auto chips : o.chips) {
        Scenario withChips = base;
        useStandardSlice(withChips, chips); // an unknown chip count fails the sweep: a typo
        for (const auto batch : batches) {
            Scenario s = withChips;
            s.globalBatch = batch;
            Row row{chips, batch, std::nullopt, ""};
            try {
                row.result = simulateTraining(s);
            } catch (const InputError& e) {
                row.error = e.what();
            }
            rows.push_back(std::move(row));
        }
    }

    if (o.json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& row : rows) {
            nlohmann::json j = row.result ? toJson(*row.result) : nlohmann::json::object();
            j["chips"] = row.chips;
            j["global_batch"] = row.globalBatch;
            if (!row.result) {
                j["error"] = row.error;
            }
            array.push_back(j);
        }
        out << array.dump(2) << "\n";
        return;
    }
    const char sep = o.csv ? ',' : '\t';
    const std::vector<std::string> names = columns();
    for (std::size_t i = 0; i < names.size(); ++i) {
        out << (i ? std::string(1, sep) : "") << names[i];
    }
    out << "\n";
    for (const auto& row : rows) {
        out << row.chips << sep << row.globalBatch;
        if (row.result) {
            const auto& r = *row.result;
            const auto& b = r.breakdown;
            for (const double v : {r.timeToTrainS, r.stepTimeS, r.throughputExamplesPerS,
                                   static_cast<double>(r.steps), r.epochs}) {
                out << sep << csvNumber(v);
            }
            for (const BreakdownPart& part : kBreakdownParts) {
                out << sep << csvNumber(b.*part.seconds);
            }
            out << sep << r.bottleneck << sep << csvNumber(r.input.requiredExamplesPerSPerHost)
                << sep << csvNumber(r.input.capacityExamplesPerSPerHost) << sep
                << (r.extrapolated ? "yes" : "no") << sep << csvNumber(r.memory.total()) << sep
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
