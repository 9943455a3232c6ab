#include "MachinesCommand.hpp"

#include "TextFormat.hpp"
#include "machine/Machine.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addMachinesCommand(CLI::App& app, MachinesOptions& o) {
    auto* cmd = app.add_subcommand(
        "machines", "List the bundled machines (resources/machines): peak FLOP/s, HBM, ICI, pod");
    cmd->add_flag("--json", o.json, "Print a JSON array, with every number's basis and source");
    return cmd;
}

namespace {

std::string dimsText(const std::vector<int>& dims) {
    std::string text;
    for (const int d : dims) {
        if (!text.empty()) {
            text += 'x';
        }
        text += std::to_string(d);
    }
    return text;
}

std::string padded(std::string text, std::size_t width) {
    text.resize(std::max(width, text.size() + 1), ' ');
    return text;
}

nlohmann::json sliceJson(const MachineSlice& s) {
    nlohmann::json j = {{"chips", s.chips}, {"dims", s.dims}, {"wrap", s.wrap}};
    if (!s.name.empty()) {
        j["name"] = s.name;
        j["description"] = s.description;
    }
    return j;
}

nlohmann::json machineJson(const Machine& m) {
    nlohmann::json j = {
        {"name", m.name},
        {"default", m.isDefault},
        {"description", m.description},
        {"tensorcores_per_chip", m.tensorcoresPerChip},
        {"megacore", m.megacore},
        {"devices_per_chip", m.devicesPerChip()},
        {"peak_bf16_flops_per_chip", m.peakFlopsPerChip},
        {"hbm_bytes_per_chip", m.hbmBytesPerChip},
        {"hbm_Bps_per_chip", m.hbmBpsPerChip},
        {"ici_links_per_chip", m.linksPerChip},
        {"ici_link_Bps_per_direction", m.linkBandwidthBps},
        {"chips_per_host", m.chipsPerHost},
        {"pod_dims", m.podDims},
        {"pod_wrap", m.podWrap},
        {"pod_chips", m.podChips()},
        {"calibration", {{"fit", m.calibrationFit}, {"basis", m.calibrationBasis}}},
    };
    if (m.dcnBpsPerHost) {
        j["dcn_Bps_per_host"] = *m.dcnBpsPerHost;
    }
    j["named"] = nlohmann::json::array();
    for (const MachineSlice& s : m.named) {
        j["named"].push_back(sliceJson(s));
    }
    j["slices"] = nlohmann::json::array();
    for (const MachineSlice& s : m.slices) {
        j["slices"].push_back(sliceJson(s));
    }
    j["facts"] = nlohmann::json::array();
    for (const MachineFact& f : m.facts) {
        j["facts"].push_back({{"key", f.key}, {"basis", f.basis}, {"source", f.source}});
    }
    return j;
}

} // namespace

void runMachinesCommand(const MachinesOptions& o, std::ostream& out) {
    if (o.json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& name : machineNames()) {
            array.push_back(machineJson(bundledMachine(name)));
        }
        out << array.dump(2) << "\n";
        return;
    }
    out << "machine   cores/chip      peak/chip      HBM/chip             ICI per chip          "
           "pod\n";
    for (const auto& name : machineNames()) {
        const Machine& m = bundledMachine(name);
        const std::string cores =
            std::to_string(m.tensorcoresPerChip) + (m.megacore ? " (one device)" : "");
        const std::string hbm = formatNumber(m.hbmBytesPerChip / (1024.0 * 1024 * 1024), 1) +
                                " GiB, " + formatNumber(m.hbmBpsPerChip / 1e9, 0) + " GB/s";
        const std::string ici = std::to_string(m.linksPerChip) + " x " +
                                formatNumber(m.linkBandwidthBps / 1e9, 0) + " GB/s each way";
        const std::string pod = std::to_string(m.podChips()) + " chips (" + dimsText(m.podDims) +
                                ", " + std::to_string(m.podDims.size()) + "-D torus)";
        out << padded(m.name + (m.isDefault ? "*" : ""), 10) << padded(cores, 16)
            << padded(formatNumber(m.peakFlopsPerChip / 1e12, 0) + " TFLOP/s", 15)
            << padded(hbm, 21) << padded(ici, 22) << pod << "\n";
    }
    // Where each machine's calibrated parameters come from.
    std::string fits;
    for (const auto& name : machineNames()) {
        const Machine& m = bundledMachine(name);
        if (!fits.empty()) {
            fits += ", ";
        }
        fits += name;
        fits += ": ";
        fits += m.calibrationFit;
        fits += m.calibrationBasis == "fitted" ? "'s fit (fitted on it)" : "'s fit (carried over)";
    }
    out << "\n* the default machine. Peak: bf16. Calibrated core parameters: " << fits
        << ". podscope-cli machines --json: every number's basis and source.\n";
}

} // namespace podscope::cli
