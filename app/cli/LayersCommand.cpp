#include "LayersCommand.hpp"

#include "TextFormat.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <ostream>
#include <podscope/layers.hpp>

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
    const std::size_t columns = displayWidth(text);
    text.append(columns < width ? width - columns : 1, ' ');
    return text;
}

} // namespace

void runLayersCommand(const LayersOptions& o, std::ostream& out) {
    const api::LayersResult result = api::layers(
        api::Configuration::load(configurationRequest(o.scenario.source, o.scenario.settings)));
    const std::vector<api::LayerInfo>& rows = result.layers;
    if (o.json) {
        out << result.json.dump(2) << "\n";
        return;
    }
    if (o.csv) {
        out << "name,group,type,forward_s,backward_s,recompute_s,spared_bytes,flops,hbm_bytes,"
               "kernels,bound,mxu_utilisation,arithmetic_intensity\n";
        for (const api::LayerInfo& r : rows) {
            out << r.name << "," << r.group << "," << r.type << "," << r.forwardS << ","
                << r.backwardS << "," << r.recomputeS << "," << r.sparedBytes << "," << r.flops
                << "," << r.hbmBytes << "," << r.kernels << "," << r.bound << ","
                << r.mxuUtilisation << "," << r.arithmeticIntensity << "\n";
        }
        return;
    }
    double forward = 0, backward = 0, recompute = 0, flops = 0, bytes = 0;
    std::size_t nameWidth = 8;
    for (const api::LayerInfo& r : rows) {
        nameWidth = std::max(nameWidth, r.name.size() + 2);
        recompute += r.recomputeS;
    }
    // The recompute column only where the plan recomputes (rematerialization).
    const bool recomputes = recompute > 0;
    recompute = 0;
    out << padded("layer", nameWidth) << padded("type", 12) << padded("forward", 11)
        << padded("backward", 11) << (recomputes ? padded("recompute", 11) : "")
        << padded("GFLOP", 9) << padded("HBM MB", 9) << padded("bound", 9) << "MXU\n";
    for (const api::LayerInfo& r : rows) {
        forward += r.forwardS;
        backward += r.backwardS;
        recompute += r.recomputeS;
        flops += r.flops;
        bytes += r.hbmBytes;
        out << padded(r.name, nameWidth) << padded(r.type, 12)
            << padded(formatDuration(r.forwardS), 11) << padded(formatDuration(r.backwardS), 11)
            << (recomputes ? padded(r.recomputeS > 0 ? formatDuration(r.recomputeS) : "-", 11) : "")
            << padded(formatNumber(r.flops / 1e9, 2), 9)
            << padded(formatNumber(r.hbmBytes / 1e6, 1), 9) << padded(r.bound, 9)
            << formatPercent(r.mxuUtilisation) << "\n";
    }
    out << padded("total", nameWidth) << padded("", 12) << padded(formatDuration(forward), 11)
        << padded(formatDuration(backward), 11)
        << (recomputes ? padded(formatDuration(recompute), 11) : "")
        << padded(formatNumber(flops / 1e9, 2), 9) << padded(formatNumber(bytes / 1e6, 1), 9)
        << padded("", 9)
        << formatPercent(flops / ((forward + backward + recompute) * result.corePeakFlops)) << "\n";
    if (recomputes) {
        out << "\nRecompute      " << result.recomputedLayers
            << " layers run their forward pass again in the backward pass ("
            << formatDuration(result.recomputeS) << " per step), sparing "
            << formatBytes(result.recomputeSavedBytes) << " of activations: HBM "
            << formatBytes(result.hbmBytes) << " of " << formatBytes(result.hbmCapacityBytes)
            << "\n";
    }
}

} // namespace podscope::cli
