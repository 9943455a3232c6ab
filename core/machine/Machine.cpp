#include "machine/Machine.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/Units.hpp"
#include "resources/BundledResources.hpp"
#include "topology/Topology.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

namespace podscope {
namespace {

using nlohmann::json;

const std::vector<std::string>& knownBases() {
    static const std::vector<std::string> bases = {"published", "measured",     "derived",
                                                   "fitted",    "carried-over", "assumption"};
    return bases;
}

// Reads one machine file, recording where each number comes from.
class MachineReader {
public:
    MachineReader(const json& root, std::string origin, Machine& machine)
        : root_(root)
        , origin_(std::move(origin))
        , machine_(machine) {}

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(origin_, key + ": " + problem);
    }

    const json& section(const std::string& name) const {
        if (!root_.contains(name) || !root_.at(name).is_object()) {
            fail(name, "missing, or not an object");
        }
        return root_.at(name);
    }

    std::string text(const json& parent, const std::string& key, const std::string& path) const {
        if (!parent.contains(key) || !parent.at(key).is_string() ||
            parent.at(key).get<std::string>().empty()) {
            fail(path, "missing, or not a non-empty string");
        }
        return parent.at(key).get<std::string>();
    }

    // {"value": ..., "basis": ..., "source": ...}: returns the value; nullptr when optional and
    // absent.
    const json* sourced(const std::string& sectionName, const std::string& key, bool required) {
        const json& parent = section(sectionName);
        const std::string path = sectionName + "." + key;
        if (!parent.contains(key)) {
            if (required) {
                fail(path, "missing");
            }
            return nullptr;
        }
        const json& entry = parent.at(key);
        if (!entry.is_object() || !entry.contains("value")) {
            fail(path, "expected {\"value\": ..., \"basis\": ..., \"source\": ...}");
        }
        MachineFact fact{path, text(entry, "basis", path + ".basis"),
                         text(entry, "source", path + ".source")};
        const auto& bases = knownBases();
        if (std::find(bases.begin(), bases.end(), fact.basis) == bases.end()) {
            fail(path + ".basis", "'" + fact.basis +
                                      "' is not one of published, measured, derived, fitted, "
                                      "carried-over, assumption");
        }
        machine_.facts.push_back(std::move(fact));
        return &entry.at("value");
    }

    double number(const std::string& sectionName, const std::string& key, double lowest,
                  double highest, bool lowestIncluded = false) {
        return checkedNumber(*sourced(sectionName, key, true), sectionName + "." + key, lowest,
                             highest, lowestIncluded);
    }

    std::optional<double> optionalNumber(const std::string& sectionName, const std::string& key,
                                         double lowest, double highest) {
        const json* value = sourced(sectionName, key, false);
        if (value == nullptr) {
            return std::nullopt;
        }
        return checkedNumber(*value, sectionName + "." + key, lowest, highest, false);
    }

    int integer(const std::string& sectionName, const std::string& key, int lowest, int highest) {
        const std::string path = sectionName + "." + key;
        const json& value = *sourced(sectionName, key, true);
        return checkedInteger(value, path, lowest, highest);
    }

    bool boolean(const std::string& sectionName, const std::string& key) {
        const json& value = *sourced(sectionName, key, true);
        if (!value.is_boolean()) {
            fail(sectionName + "." + key, "expected true or false");
        }
        return value.get<bool>();
    }

    std::vector<int> dims(const json& value, const std::string& path) const {
        if (!value.is_array() || value.empty() ||
            value.size() > static_cast<std::size_t>(limits::kMaxRank)) {
            fail(path, "expected 1 to " + std::to_string(limits::kMaxRank) + " dimensions");
        }
        std::vector<int> out;
        for (const json& d : value) {
            out.push_back(checkedInteger(d, path, 1, limits::kMaxDimSize));
        }
        return out;
    }

    std::vector<bool> wrap(const json& value, std::size_t rank, const std::string& path) const {
        if (!value.is_array() || value.size() != rank) {
            fail(path, "expected " + std::to_string(rank) + " booleans, one per dimension");
        }
        std::vector<bool> out;
        for (const json& w : value) {
            if (!w.is_boolean()) {
                fail(path, "expected booleans");
            }
            out.push_back(w.get<bool>());
        }
        return out;
    }

    MachineSlice slice(const json& entry, const std::string& path, bool named) const {
        if (!entry.is_object()) {
            fail(path, "expected an object");
        }
        MachineSlice s;
        if (named) {
            s.name = text(entry, "name", path + ".name");
            s.description = text(entry, "description", path + ".description");
            text(entry, "source", path + ".source");
        }
        if (!entry.contains("dims")) {
            fail(path + ".dims", "missing");
        }
        s.dims = dims(entry.at("dims"), path + ".dims");
        if (!entry.contains("wrap")) {
            fail(path + ".wrap", "missing");
        }
        s.wrap = wrap(entry.at("wrap"), s.dims.size(), path + ".wrap");
        s.chips = 1;
        for (const int d : s.dims) {
            s.chips *= d;
        }
        if (s.chips > limits::kMaxChips) {
            fail(path, std::to_string(s.chips) + " chips, above the limit of " +
                           std::to_string(limits::kMaxChips));
        }
        if (!named) {
            if (!entry.contains("chips")) {
                fail(path + ".chips", "missing");
            }
            const int chips = checkedInteger(entry.at("chips"), path + ".chips", 1,
                                             static_cast<int>(limits::kMaxChips));
            if (chips != s.chips) {
                fail(path + ".chips", std::to_string(chips) + " is not the product of the dims (" +
                                          std::to_string(s.chips) + ")");
            }
        }
        return s;
    }

private:
    double checkedNumber(const json& value, const std::string& path, double lowest, double highest,
                         bool lowestIncluded) const {
        if (!value.is_number()) {
            fail(path, "expected a number");
        }
        const double v = value.get<double>();
        const bool aboveLowest = lowestIncluded ? v >= lowest : v > lowest;
        if (!std::isfinite(v) || !aboveLowest || v > highest) {
            fail(path, "value out of range (" + std::string(lowestIncluded ? "[" : "(") +
                           json(lowest).dump() + ", " + json(highest).dump() + "])");
        }
        return v;
    }

    int checkedInteger(const json& value, const std::string& path, int lowest, int highest) const {
        if (!value.is_number_integer()) {
            fail(path, "expected an integer");
        }
        const auto v = value.get<std::int64_t>();
        if (v < lowest || v > highest) {
            fail(path, "expected an integer from " + std::to_string(lowest) + " to " +
                           std::to_string(highest));
        }
        return static_cast<int>(v);
    }

    const json& root_;
    std::string origin_;
    Machine& machine_;
};

json parseLimited(std::string_view text, const std::string& origin) {
    if (text.size() > limits::kMaxConfigFileBytes) {
        throw InputError(origin, "larger than " +
                                     std::to_string(limits::kMaxConfigFileBytes >> 20) + " MiB");
    }
    // Refuse deep nesting while parsing: a machine file is three levels deep.
    const json::parser_callback_t depthLimit = [](int depth, json::parse_event_t, json&) {
        if (depth > limits::kMaxJsonDepth) {
            throw InputError("machine", "nested deeper than " +
                                            std::to_string(limits::kMaxJsonDepth) + " levels");
        }
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), depthLimit);
    } catch (const json::exception& e) {
        throw InputError(origin, std::string("not valid JSON: ") + e.what());
    } catch (const InputError& e) {
        throw InputError(origin, e.what());
    }
}

constexpr double kMiB = 1024.0 * 1024.0;

} // namespace

std::int64_t Machine::podChips() const {
    std::int64_t chips = 1;
    for (const int d : podDims) {
        chips *= d;
    }
    return chips;
}

Machine parseMachine(std::string_view text, const std::string& origin) {
    const json root = parseLimited(text, origin);
    if (!root.is_object()) {
        throw InputError(origin, "expected a JSON object");
    }
    Machine m;
    MachineReader r(root, origin, m);
    m.name = r.text(root, "name", "name");
    m.description = r.text(root, "description", "description");
    if (root.contains("default")) {
        if (!root.at("default").is_boolean()) {
            r.fail("default", "expected true or false");
        }
        m.isDefault = root.at("default").get<bool>();
    }

    m.tensorcoresPerChip = r.integer("chip", "tensorcores", 1, 16);
    m.megacore = r.boolean("chip", "megacore");
    m.peakFlopsPerChip = r.number("chip", "peak_bf16_flops", 0, 1e18);
    m.hbmBytesPerChip = r.number("chip", "hbm_bytes", 0, 1e15);
    m.hbmBpsPerChip = r.number("chip", "hbm_GBps", 0, 1e6) * units::kGB;
    m.hbmAchievedBpsPerChip = r.number("chip", "hbm_achieved_GBps", 0, 1e6) * units::kGB;
    m.cmemBytesPerChip = r.number("chip", "cmem_MiB", 0, 1e6, true) * kMiB;
    m.rooflineRidgeFlopPerByte = r.optionalNumber("chip", "roofline_ridge_flop_per_byte", 0, 1e6);
    if (m.hbmAchievedBpsPerChip > m.hbmBpsPerChip) {
        r.fail("chip.hbm_achieved_GBps", "above the nominal hbm_GBps");
    }
    if (const auto gbps = r.optionalNumber("chip", "hbm_transpose_GBps", 0, 1e6)) {
        m.hbmTransposeBpsPerChip = *gbps * units::kGB;
        if (*m.hbmTransposeBpsPerChip > m.hbmAchievedBpsPerChip) {
            r.fail("chip.hbm_transpose_GBps", "above hbm_achieved_GBps (a transposing copy "
                                              "streams no faster than a plain one)");
        }
    }

    m.mxusPerTensorcore = r.integer("tensorcore", "mxus", 1, 64);
    m.mxuDim = r.integer("tensorcore", "mxu_dim", 1, 4096);
    m.rowGranule = r.integer("tensorcore", "row_granule", 1, 4096);
    m.vectorLanes = r.integer("tensorcore", "vector_lanes", 1, 4096);
    m.clockHz = r.number("tensorcore", "clock_MHz", 0, 1e5) * 1e6;
    m.vpuOpsPerSPerTensorcore = r.number("tensorcore", "vpu_ops_per_s", 0, 1e18);
    m.eupOpsPerSPerTensorcore = r.number("tensorcore", "eup_ops_per_s", 0, 1e18);
    m.permuteElementsPerSPerTensorcore = r.number("tensorcore", "permute_elements_per_s", 0, 1e18);
    if (const auto ns = r.optionalNumber("tensorcore", "gather_row_ns", 0, 1e6)) {
        m.gatherRowSPerTensorcore = *ns * units::kMicrosecond / 1000;
    }
    m.vmemBytesPerTensorcore = r.number("tensorcore", "vmem_MiB", 0, 1e6) * kMiB;
    // The core model's peak is its MXUs at the clock; it must be the published one.
    const double mxuPeak = 2.0 * m.tensorcoresPerChip * m.mxusPerTensorcore * m.mxuDim *
                           static_cast<double>(m.mxuDim) * m.clockHz;
    if (std::abs(mxuPeak / m.peakFlopsPerChip - 1) > 0.01) {
        r.fail("chip.peak_bf16_flops",
               "differs by more than 1% from tensorcores x mxus x mxu_dim^2 x 2 x clock (" +
                   json(mxuPeak).dump() + " FLOP/s)");
    }

    m.linksPerChip = r.integer("ici", "links_per_chip", 1, 2 * limits::kMaxRank);
    m.linkBandwidthBps =
        r.number("ici", "link_GBps", 0, limits::kMaxLinkBandwidthGBps) * units::kGB;
    if (const auto us = r.optionalNumber("ici", "hop_latency_us", 0, limits::kMaxLatencyUs)) {
        m.hopLatencyS = *us * units::kMicrosecond;
    }

    m.chipsPerHost = r.integer("host", "chips_per_host", 1, 1024);
    m.hostBlock = r.dims(*r.sourced("host", "host_block", true), "host.host_block");
    int blockChips = 1;
    for (const int b : m.hostBlock) {
        blockChips *= b;
    }
    if (blockChips != m.chipsPerHost) {
        r.fail("host.host_block", "holds " + std::to_string(blockChips) +
                                      " chips, not chips_per_host (" +
                                      std::to_string(m.chipsPerHost) + ")");
    }
    m.pcieBpsPerChip = r.number("host", "pcie_GBps_per_chip", 0, 1e6) * units::kGB;
    if (const auto dcn = r.optionalNumber("host", "dcn_GBps_per_host", 0, 1e6)) {
        m.dcnBpsPerHost = *dcn * units::kGB;
    }
    if (const auto latency = r.optionalNumber("host", "dcn_latency_us", 0, 1e6)) {
        m.dcnLatencyS = *latency * units::kMicrosecond;
    }
    m.hostCpuCores = r.number("host", "cpu_cores", 0, limits::kMaxHostCpuCores);

    m.podDims = r.dims(*r.sourced("pod", "dims", true), "pod.dims");
    m.podWrap = r.wrap(*r.sourced("pod", "wrap", true), m.podDims.size(), "pod.wrap");
    if (const json* cube = r.sourced("pod", "optical_cube", false)) {
        m.opticalCube = r.dims(*cube, "pod.optical_cube");
        if (m.opticalCube.size() != m.podDims.size()) {
            r.fail("pod.optical_cube", "has " + std::to_string(m.opticalCube.size()) +
                                           " dimensions, the pod " +
                                           std::to_string(m.podDims.size()));
        }
    }
    if (m.podChips() > limits::kMaxChips) {
        r.fail("pod.dims", "more chips than the limit of " + std::to_string(limits::kMaxChips));
    }
    if (m.linksPerChip != 2 * static_cast<int>(m.podDims.size())) {
        r.fail("ici.links_per_chip", std::to_string(m.linksPerChip) + " links do not make a " +
                                         std::to_string(m.podDims.size()) +
                                         "-D torus (2 per dimension)");
    }
    if (m.hostBlock.size() > m.podDims.size()) {
        r.fail("host.host_block", "has more dimensions than the pod");
    }
    if (const auto v = r.optionalNumber("pod", "all_reduce_TBps", 0, 1e9)) {
        m.publishedAllReduceBps = *v * 1e12;
    }
    if (const auto v = r.optionalNumber("pod", "bisection_TBps", 0, 1e9)) {
        m.publishedBisectionBps = *v * 1e12;
    }

    const json& calibration = r.section("calibration");
    m.calibrationFit = r.text(calibration, "fit", "calibration.fit");
    m.calibrationBasis = r.text(calibration, "basis", "calibration.basis");
    r.text(calibration, "source", "calibration.source");
    if (m.calibrationBasis != "fitted" && m.calibrationBasis != "carried-over") {
        r.fail("calibration.basis", "expected fitted or carried-over");
    }

    if (!root.contains("named") || !root.at("named").is_array()) {
        r.fail("named", "missing, or not an array");
    }
    for (std::size_t i = 0; i < root.at("named").size(); ++i) {
        const std::string path = "named[" + std::to_string(i) + "]";
        MachineSlice s = r.slice(root.at("named")[i], path, true);
        for (const MachineSlice& earlier : m.named) {
            if (earlier.name == s.name) {
                r.fail(path + ".name", "'" + s.name + "' appears twice");
            }
        }
        m.named.push_back(std::move(s));
    }
    const json& slices = r.section("slices");
    m.slicesSource = r.text(slices, "source", "slices.source");
    if (slices.contains("twist")) {
        m.twistSource = r.text(slices, "twist", "slices.twist");
    }
    if (!slices.contains("list") || !slices.at("list").is_array() || slices.at("list").empty()) {
        r.fail("slices.list", "missing, or not a non-empty array");
    }
    for (std::size_t i = 0; i < slices.at("list").size(); ++i) {
        const std::string path = "slices.list[" + std::to_string(i) + "]";
        MachineSlice s = r.slice(slices.at("list")[i], path, false);
        if (s.dims.size() != m.podDims.size()) {
            r.fail(path + ".dims", "has " + std::to_string(s.dims.size()) +
                                       " dimensions; the pod has " +
                                       std::to_string(m.podDims.size()));
        }
        if (const auto t = slices.at("list")[i].find("twistable");
            t != slices.at("list")[i].end()) {
            if (!t->is_boolean()) {
                r.fail(path + ".twistable", "expected true or false");
            }
            s.twistable = t->get<bool>();
            if (s.twistable && !isTwistableShape(s.dims, s.wrap)) {
                r.fail(path + ".twistable",
                       "a twisted torus needs every dimension wrapped and extents K and 2K only");
            }
            if (s.twistable && !slices.contains("twist")) {
                r.fail("slices.twist", "missing: twistable slices need the twist rule's source");
            }
        }
        if (!m.slices.empty() && s.chips <= m.slices.back().chips) {
            r.fail(path + ".chips", "slices must be listed by ascending chip count");
        }
        m.slices.push_back(std::move(s));
    }
    return m;
}

const MachineSlice* Machine::twistableSlice(const std::vector<int>& dims) const {
    for (const MachineSlice& s : slices) {
        if (s.twistable && s.dims == dims) {
            return &s;
        }
    }
    return nullptr;
}

std::vector<std::string> machineNames() {
    const std::string prefix = "machines/";
    std::vector<std::string> names;
    for (const auto& path : resources::list(prefix)) {
        const std::string file = path.substr(prefix.size());
        if (file.size() > 5 && file.compare(file.size() - 5, 5, ".json") == 0) {
            names.push_back(file.substr(0, file.size() - 5));
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

const Machine& bundledMachine(const std::string& name) {
    static std::mutex mutex;
    static std::map<std::string, Machine> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(name); it != cache.end()) {
        return it->second;
    }
    const std::string file = "machines/" + name + ".json";
    std::string_view text;
    try {
        text = resources::text(file);
    } catch (const std::out_of_range&) {
        std::string known;
        for (const auto& n : machineNames()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw InputError("hardware", "unknown machine '" + name + "' (known: " + known + ")");
    }
    Machine machine = parseMachine(text, "resources/" + file);
    if (machine.name != name) {
        throw InputError("resources/" + file,
                         "name: '" + machine.name + "' does not match the file name");
    }
    return cache.emplace(name, std::move(machine)).first->second;
}

const std::string& defaultMachineName() {
    static const std::string name = [] {
        std::string found;
        for (const auto& n : machineNames()) {
            if (bundledMachine(n).isDefault) {
                if (!found.empty()) {
                    throw InputError("resources/machines",
                                     "both " + found + " and " + n + " are marked default");
                }
                found = n;
            }
        }
        if (found.empty()) {
            throw InputError("resources/machines", "no machine is marked default");
        }
        return found;
    }();
    return name;
}

} // namespace podscope
