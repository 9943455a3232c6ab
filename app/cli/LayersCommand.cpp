#include "LayersCommand.hpp"

#include "TextFormat.hpp"
#include "training/LayerTable.hpp"
#include "training/ScenarioJson.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addLayersCommand(CLI::App& app, LayersOptions& o) {
    auto* cmd = app.add_subcommand(
        "layers", "Per-layer time, FLOPs, HBM bytes and bounding unit on one core for one step");
    addScenarioChoiceOptions(*cmd, o.scenario);
    auto* json = cmd->add_flag("--json", o.json, "Print one JSON object");
    cmd->add_flag("--csv", o.csv, "Print CSV")->excludes(json);
    return cmd;
}

namespace {

// Pads to a column width counted in characters (UTF-8 "µ" is two bytes, one column); a text as
// wide as the column or wider keeps one space after it, never truncated.
std::string padded(std::string text, std::size_t width) {
    std::size_t columns = 0;
    for (const char c : text) {
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    text.append(columns < width ? width - columns : 1, ' ');
    return text;
}

} // namespace

void runLayersCommand(const LayersOptions& o, std::ostream& out) {
    const Scenario s = resolveScenario(o.scenario);
    const StepPlan plan = buildStepPlan(s);
    const std::vector<LayerRow> rows = layerTable(plan);
    if (o.json) {
        nlohmann::json j;
        j["scenario"] = toJson(s);
        j["examples_per_replica"] = plan.parallelism.perReplicaBatch;
        j["layers"] = nlohmann::json::array();
        for (const LayerRow& r : rows) {
            j["layers"].push_back({{"name", r.name},
                                   {"group", r.group},
                                   {"type", r.type},
                                   {"forward_s", r.forwardS},
                                   {"backward_s", r.backwardS},
                                   {"recompute_s", r.recomputeS},
                                   {"spared_bytes", r.sparedBytes},
                                   {"flops", r.flops},
                                   {"hbm_bytes", r.hbmBytes},
                                   {"kernels", r.kernels},
                                   {"bound", toString(r.bound)},
                                   {"mxu_utilisation", r.mxuUtilisation},
                                   {"arithmetic_intensity", r.arithmeticIntensity}});
        }
        out << j.dump(2) << "\n";
        return;
    }
    if (o.csv) {
        out << "name,group,type,forward_s,backward_s,recompute_s,spared_bytes,flops,hbm_bytes,"
               "kernels,bound,mxu_utilisation,arithmetic_intensity\n";
        for (const LayerRow& r : rows) {
            out << r.name << "," << r.group << "," << r.type << "," << r.forwardS << ","
                << r.backwardS << "," << r.recomputeS << "," << r.sparedBytes << "," << r.flops
                << "," << r.hbmBytes << "," << r.kernels << "," << toString(r.bound) << ","
                << r.mxuUtilisation << "," << r.arithmeticIntensity << "\n";
        }
        return;
    }
    double forward = 0, backward = 0, recompute = 0, flops = 0, bytes = 0;
    std::size_t nameWidth = 8;
    for (const LayerRow& r : rows) {
        nameWidth = std::max(nameWidth, r.name.size() + 2);
        recompute += r.recomputeS;
    }
    // The recompute column only where the plan recomputes (rematerialization).
    const bool recomputes = recompute > 0;
    recompute = 0;
    out << padded("layer", nameWidth) << padded("type", 12) << padded("forward", 11)
        << padded("backward", 11) << (recomputes ? padded("recompute", 11) : "")
        << padded("GFLOP", 9) << padded("HBM MB", 9) << padded("bound", 9) << "MXU\n";
    for (const LayerRow& r : rows) {
        forward += r.forwardS;
        backward += r.backwardS;
        recompute += r.recomputeS;
        flops += r.flops;
        bytes += r.hbmBytes;
        out << padded(r.name, nameWidth) << padded(r.type, 12)
            << padded(formatDuration(r.forwardS), 11) << padded(formatDuration(r.backwardS), 11)
            << (recomputes ? padded(r.recomputeS > 0 ? formatDuration(r.recomputeS) : "-", 11) : "")
            << padded(formatNumber(r.flops / 1e9, 2), 9)
            << padded(formatNumber(r.hbmBytes / 1e6, 1), 9) << padded(toString(r.bound), 9)
            << formatPercent(r.mxuUtilisation) << "\n";
    }
    out << padded("total", nameWidth) << padded("", 12) << padded(formatDuration(forward), 11)
        << padded(formatDuration(backward), 11)
        << (recomputes ? padded(formatDuration(recompute), 11) : "")
        << padded(formatNumber(flops / 1e9, 2), 9) << padded(formatNumber(bytes / 1e6, 1), 9)
        << padded("", 9)
        << formatPercent(flops / ((forward + backward + recompute) * plan.core.peakFlops()))
        << "\n";
    const Recompute& r = plan.memory.recompute;
    if (recomputes) {
        out << "\nRecompute      " << r.layers << " layers run their forward pass again in the "
            << "backward pass (" << formatDuration(r.seconds) << " per step), sparing "
            << formatBytes(r.savedBytes) << " of activations: HBM "
            << formatBytes(plan.memory.total()) << " of " << formatBytes(plan.memory.capacity)
            << "\n";
    }
}

} // namespace podscope::cli
