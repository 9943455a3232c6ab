#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podscope {

// A slice shape a machine offers: its chips as a grid, and which dimensions wrap around.
struct MachineSlice {
    std::string name; // named presets (a pod, a multipod); empty for the by-count list
    std::int64_t chips = 0;
    std::vector<int> dims;
    std::vector<bool> wrap;
    bool twistable = false; // may be built as a twisted torus (Machine::twistSource says how)
    std::string description;
};

// Where one number of a machine file comes from: "published", "measured", "derived", "fitted",
// "carried-over" (another generation's value) or "assumption", and the citation.
struct MachineFact {
    std::string key; // "chip.hbm_GBps"
    std::string basis;
    std::string source;
};

// One TPU generation, from resources/machines/<name>.json: the chip, its TensorCores, the
// inter-chip links, the hosts, the pod and the slices offered. Every number the simulation uses
// for a machine comes from here (or, for the fitted parameters, from its calibration file).
struct Machine {
    std::string name;
    std::string description;
    bool isDefault = false;

    // Chip
    int tensorcoresPerChip = 1;
    bool megacore = false; // the TensorCores act as one device
    double peakFlopsPerChip = 0;
    double hbmBytesPerChip = 0;
    double hbmBpsPerChip = 0;
    double hbmAchievedBpsPerChip = 0;
    double cmemBytesPerChip = 0;
    // The operational intensity (FLOP per HBM byte) below which a profiler classes an op
    // memory-bound; unset: peak FLOP/s over nominal HBM bandwidth.
    std::optional<double> rooflineRidgeFlopPerByte;
    // The rate of copies that move elements between lanes and sublanes (a relayout that changes
    // an array's minor dimension); unset: they stream at hbmAchievedBpsPerChip.
    std::optional<double> hbmTransposeBpsPerChip;

    // One TensorCore
    int mxusPerTensorcore = 1;
    int mxuDim = 128;
    int rowGranule = 8;
    int vectorLanes = 128; // the minor dimension of a vector register and of an HBM tile
    double clockHz = 0;
    double vpuOpsPerSPerTensorcore = 0;
    double eupOpsPerSPerTensorcore = 0;
    double permuteElementsPerSPerTensorcore = 0; // the cross-lane permute unit (sorts)
    // The time an indexed DMA takes per row it fetches (gathers, scatters); unset: they stream
    // by their bytes.
    std::optional<double> gatherRowSPerTensorcore;
    double vmemBytesPerTensorcore = 0;

    // Inter-chip interconnect
    int linksPerChip = 0;
    double linkBandwidthBps = 0;       // per link, per direction
    std::optional<double> hopLatencyS; // unset: the calibration's fitted latency

    // Hosts
    int chipsPerHost = 1;
    std::vector<int> hostBlock;
    double pcieBpsPerChip = 0;
    std::optional<double> dcnBpsPerHost;
    std::optional<double> dcnLatencyS; // per ring step across slices; unset: 0
    double hostCpuCores = 0;

    // Pod and slices
    std::vector<int> podDims;
    std::vector<bool> podWrap;
    // Chips are wired electrically in blocks of these dimensions and every link leaving a block
    // (to the next block, or the wrap-around) runs through optical circuit switches; empty where
    // the machine's sources say nothing of it. The 3-D view's link key names these links.
    std::vector<int> opticalCube;
    std::optional<double> publishedAllReduceBps; // per pod
    std::optional<double> publishedBisectionBps; // per pod
    std::string calibrationFit;                  // resources/calibration/<fit>-fit.json
    std::string calibrationBasis;                // "fitted" or "carried-over"
    std::vector<MachineSlice> named;
    std::vector<MachineSlice> slices; // ascending chip counts
    std::string slicesSource;         // where the shapes and their wrap-around come from
    std::string twistSource;          // the twist rule and its source; empty: no twisted tori

    std::vector<MachineFact> facts;

    // A device is what the core model simulates: a TensorCore, or with megacore the whole chip.
    int devicesPerChip() const { return megacore ? 1 : tensorcoresPerChip; }
    int tensorcoresPerDevice() const { return megacore ? tensorcoresPerChip : 1; }
    std::int64_t podChips() const;
    // The listed slice with these dims that may be twisted, or null.
    const MachineSlice* twistableSlice(const std::vector<int>& dims) const;
};

// Parses and validates a machine description. Throws InputError naming `origin` and the key
// for malformed JSON, a missing or mistyped entry, a value out of range or an inconsistency
// (peak FLOP/s against the MXUs and clock, links against the torus rank, slice chip counts).
Machine parseMachine(std::string_view text, const std::string& origin);

// The bundled machine `name` (parsed once); InputError("hardware") listing the known names.
const Machine& bundledMachine(const std::string& name);
// Names of the bundled machines, sorted.
std::vector<std::string> machineNames();
// The machine a configuration uses when it names none (the bundled file marked "default").
const std::string& defaultMachineName();

} // namespace podscope
