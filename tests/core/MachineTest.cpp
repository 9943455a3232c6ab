#include "machine/Machine.hpp"

#include "TestTopologies.hpp"
#include "collective/AnalyticEngine.hpp"
#include "collective/FunctionalRunner.hpp"
#include "common/InputError.hpp"
#include "compute/CoreModel.hpp"
#include "resources/BundledResources.hpp"
#include "topology/Bisection.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace podscope {
namespace {

// The machine's full pod as the topology code builds it from the machine file.
Topology podOf(const Machine& m) {
    TopologySpec spec = resolveTopology("1", std::nullopt, loadHardware(m.name));
    spec.dims = m.podDims;
    spec.wrap = m.podWrap;
    return Topology(spec);
}

// Bandwidth leaving every chip over every link that exists, one direction each: what Google's
// "all-reduce bandwidth per pod" counts (v5e: 256 chips x 4 ports x 50 GB/s = 51.2 TB/s).
double injectionBandwidth(const Topology& t) {
    double sum = 0;
    for (LinkId link = 0; link < t.linkSlotCount(); ++link) {
        if (t.linkExists(link)) {
            sum += t.linkBandwidth(link);
        }
    }
    return sum;
}

TEST(Machine, EveryBundledMachineLoadsAndOneIsTheDefault) {
    const auto names = machineNames();
    ASSERT_GE(names.size(), 6u);
    int defaults = 0;
    for (const auto& name : names) {
        const Machine& m = bundledMachine(name);
        EXPECT_EQ(m.name, name);
        defaults += m.isDefault ? 1 : 0;
        EXPECT_FALSE(m.named.empty()) << name;
        EXPECT_FALSE(m.facts.empty()) << name;
        EXPECT_EQ(m.linksPerChip, 2 * static_cast<int>(m.podDims.size())) << name;
    }
    EXPECT_EQ(defaults, 1);
    EXPECT_EQ(bundledMachine(defaultMachineName()).isDefault, true);
}

TEST(Machine, EveryStandardSliceBuildsWithTheMachinesHosts) {
    for (const auto& name : machineNames()) {
        const Hardware hw = loadHardware(name);
        for (const auto chips : standardChipCounts(name)) {
            const TopologyPreset slice = standardSlice(name, chips);
            TopologySpec spec = resolveTopology("1", std::nullopt, hw);
            spec.dims = slice.dims;
            spec.wrap = slice.wrap;
            const Topology t(spec);
            EXPECT_EQ(t.chipCount(), chips) << name;
            const int perHost = bundledMachine(name).chipsPerHost;
            if (chips >= perHost) {
                EXPECT_EQ(t.hostCount(), chips / perHost) << name << " " << chips;
            } else {
                EXPECT_EQ(t.hostCount(), 1) << name << " " << chips;
            }
        }
        for (const auto& preset : namedTopologyPresets(name)) {
            EXPECT_NO_THROW(Topology(resolveTopology(preset.name, std::nullopt, hw)))
                << preset.name;
        }
    }
}

// The Cloud TPU pages' pod figures (all-reduce and bisection bandwidth per pod) from the
// links the topology builds out of each machine file.
TEST(Machine, PublishedPodFiguresHold) {
    int checked = 0;
    for (const auto& name : machineNames()) {
        const Machine& m = bundledMachine(name);
        const Topology pod = podOf(m);
        if (m.publishedAllReduceBps) {
            const double ratio = injectionBandwidth(pod) / *m.publishedAllReduceBps;
            EXPECT_NEAR(ratio, 1.0, 0.02) << name << " all-reduce bandwidth per pod";
            ++checked;
        }
        if (m.publishedBisectionBps) {
            const double ratio = planeBisectionBandwidth(pod) / *m.publishedBisectionBps;
            if (name == "tpu-v3") {
                // Known: the v3 page's 6.4 TB/s implies 100 GB/s links; the CACM paper's 82 GB/s
                // (which the all-reduce figure, 340 TB/s, agrees with) gives 5.2 TB/s.
                EXPECT_NEAR(ratio, 0.82, 0.01) << name;
            } else {
                EXPECT_NEAR(ratio, 1.0, 0.05) << name << " bisection bandwidth per pod";
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 8); // v3, v4, v5e and v6e publish both
}

TEST(Machine, PodFiguresOfTheTpuV4SuperpodAndTheV5ePod) {
    // Cloud TPU v4: 1.1 PB/s all-reduce and 24 TB/s bisection per 4096-chip pod;
    // Cloud TPU v5e: 51.2 TB/s and 1.6 TB/s per 256-chip pod.
    const Topology v4 = podOf(bundledMachine("tpu-v4"));
    EXPECT_EQ(v4.chipCount(), 4096);
    EXPECT_NEAR(injectionBandwidth(v4) / 1.1e15, 1.0, 0.02);
    EXPECT_NEAR(planeBisectionBandwidth(v4) / 24e12, 1.0, 0.05);
    const Topology v5e = podOf(bundledMachine("tpu-v5e"));
    EXPECT_EQ(v5e.chipCount(), 256);
    EXPECT_NEAR(injectionBandwidth(v5e) / 51.2e12, 1.0, 1e-9);
    EXPECT_NEAR(planeBisectionBandwidth(v5e) / 1.6e12, 1.0, 1e-9);
}

TEST(Machine, CoreModelCarriesThePublishedPeakAndMemory) {
    for (const auto& name : machineNames()) {
        const Machine& m = bundledMachine(name);
        const CoreModel core = loadCoreModel(name);
        const Hardware hw = loadHardware(name);
        EXPECT_NEAR(core.peakFlops() * hw.coresPerChip / m.peakFlopsPerChip, 1.0, 0.01) << name;
        EXPECT_DOUBLE_EQ(core.hbmBytes * hw.coresPerChip, m.hbmBytesPerChip) << name;
        EXPECT_EQ(hw.coresPerChip, m.megacore ? 1 : m.tensorcoresPerChip) << name;
        EXPECT_LE(core.hbmEfficiency, 1.0) << name;
    }
}

// Per-dimension bidirectional rings on a 3-D torus: X, then Y on 1/nx of the data, then Z on
// 1/(nx ny), each phase (n-1) steps of a latency and a half-payload shard.
TEST(Machine, ThreeDTorusAllReduceMatchesItsClosedForm) {
    const double alpha = 1e-6, bandwidth = 45e9, bytes = 64.0 * 1024 * 1024;
    const std::vector<int> dims = {4, 4, 8};
    const Topology torus = test::grid(dims, {true, true, true}, bandwidth, alpha);
    CollectiveSpec spec;
    spec.algorithm = Algorithm::TwoD;
    spec.bytesPerChip = bytes;
    const auto result = runAnalytic(torus, spec);
    double expected = 0;
    double share = 1;
    for (const int n : dims) {
        share *= n;
        expected += 2 * (n - 1) * (alpha + bytes / 2 / share / bandwidth);
    }
    EXPECT_NEAR(result.timeS / expected, 1.0, 1e-12);
    ASSERT_EQ(result.phases.size(), 6u);
    EXPECT_EQ(result.phases[2].name, "reduce-scatter along Z");
    spec.bytesPerChip = 1e6;
    const auto check = runFunctional(torus, spec);
    EXPECT_TRUE(check.verified) << check.problem;
}

TEST(Machine, TheTpuV4PodAllReduceMatchesItsClosedForm) {
    const Machine& m = bundledMachine("tpu-v4");
    const Topology pod = podOf(m);
    CollectiveSpec spec;
    spec.algorithm = Algorithm::TwoD;
    spec.bytesPerChip = 256.0 * 1024 * 1024;
    const double alpha = pod.linkLatency();
    double expected = 0;
    double share = 1;
    for (const int n : m.podDims) {
        share *= n;
        expected += 2 * (n - 1) * (alpha + spec.bytesPerChip / 2 / share / m.linkBandwidthBps);
    }
    EXPECT_NEAR(runAnalytic(pod, spec).timeS / expected, 1.0, 1e-12);
}

// --- The loader's errors name the file and the key.

std::string bundledText(const std::string& name) {
    return std::string(resources::text("machines/" + name + ".json"));
}

std::string refusal(const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = nlohmann::json::parse(bundledText("tpu-v4"));
    edit(j);
    try {
        parseMachine(j.dump(), "test.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

// Optical switching is a sourced fact where a machine's papers say it, and unstated elsewhere
// (the view then names the links by where they run, nothing more).
TEST(Machine, OpticalCubesAreReadWhereStated) {
    const std::vector<int> cube{4, 4, 4};
    EXPECT_EQ(bundledMachine("tpu-v4").opticalCube, cube);
    EXPECT_EQ(bundledMachine("tpu-v5p").opticalCube, cube);
    EXPECT_TRUE(bundledMachine("tpu-v3").opticalCube.empty());
    nlohmann::json j = nlohmann::json::parse(bundledText("tpu-v4"));
    j["pod"].erase("optical_cube");
    EXPECT_TRUE(parseMachine(j.dump(), "test.json").opticalCube.empty());
}

// A machine file without the transposing rate (a user's, written before it existed) still
// loads, and its transposing copies stream at the achieved rate, as every other kernel's bytes.
TEST(Machine, TheTransposingRateIsOptional) {
    nlohmann::json j = nlohmann::json::parse(bundledText("tpu-v4"));
    j["chip"].erase("hbm_transpose_GBps");
    const Machine m = parseMachine(j.dump(), "test.json");
    EXPECT_FALSE(m.hbmTransposeBpsPerChip.has_value());
    EXPECT_LT(*bundledMachine("tpu-v3").hbmTransposeBpsPerChip,
              bundledMachine("tpu-v3").hbmAchievedBpsPerChip / 2);
}

// Likewise the time per gathered row: without it gathers stream by their bytes. A megacore
// device's two TensorCores split the rows, so its per-row time is half a core's.
TEST(Machine, TheGatherRowTimeIsOptional) {
    nlohmann::json j = nlohmann::json::parse(bundledText("tpu-v4"));
    j["tensorcore"].erase("gather_row_ns");
    EXPECT_FALSE(parseMachine(j.dump(), "test.json").gatherRowSPerTensorcore.has_value());
    const double v3 = *bundledMachine("tpu-v3").gatherRowSPerTensorcore;
    EXPECT_NEAR(v3, 58e-9, 1e-12);
    EXPECT_DOUBLE_EQ(loadCoreModel("tpu-v3").gatherRowS, v3);
    ASSERT_TRUE(bundledMachine("tpu-v4").megacore);
    EXPECT_DOUBLE_EQ(loadCoreModel("tpu-v4").gatherRowS,
                     *bundledMachine("tpu-v4").gatherRowSPerTensorcore / 2);
}

TEST(Machine, LoaderRefusesBrokenFilesNamingTheKey) {
    EXPECT_NO_THROW(parseMachine(bundledText("tpu-v4"), "tpu-v4.json"));
    auto has = [](const std::string& message, const std::string& part) {
        return message.find(part) != std::string::npos;
    };
    std::string e = refusal([](auto& j) { j["chip"].erase("hbm_GBps"); });
    EXPECT_TRUE(has(e, "test.json") && has(e, "chip.hbm_GBps") && has(e, "missing")) << e;
    e = refusal([](auto& j) { j["chip"]["hbm_GBps"]["basis"] = "guess"; });
    EXPECT_TRUE(has(e, "chip.hbm_GBps.basis")) << e;
    e = refusal([](auto& j) { j["chip"]["hbm_GBps"]["value"] = -1; });
    EXPECT_TRUE(has(e, "chip.hbm_GBps") && has(e, "out of range")) << e;
    e = refusal([](auto& j) { j["chip"]["hbm_GBps"]["value"] = "fast"; });
    EXPECT_TRUE(has(e, "expected a number")) << e;
    e = refusal([](auto& j) { j["tensorcore"]["clock_MHz"]["value"] = 2000; });
    EXPECT_TRUE(has(e, "chip.peak_bf16_flops") && has(e, "1%")) << e;
    e = refusal([](auto& j) { j["ici"]["links_per_chip"]["value"] = 4; });
    EXPECT_TRUE(has(e, "ici.links_per_chip") && has(e, "3-D torus")) << e;
    e = refusal([](auto& j) { j["slices"]["list"][0]["chips"] = 5; });
    EXPECT_TRUE(has(e, "slices.list[0].chips") && has(e, "product")) << e;
    e = refusal([](auto& j) { j["slices"]["list"][0]["dims"] = {2, 2}; });
    EXPECT_TRUE(has(e, "slices.list[0]")) << e;
    e = refusal([](auto& j) { j["host"]["host_block"]["value"] = {2, 2, 2}; });
    EXPECT_TRUE(has(e, "host.host_block") && has(e, "chips_per_host")) << e;
    e = refusal([](auto& j) { j["named"][1]["name"] = "tpu-v4-pod"; });
    EXPECT_TRUE(has(e, "appears twice")) << e;
    e = refusal([](auto& j) { j["calibration"]["basis"] = "hoped"; });
    EXPECT_TRUE(has(e, "calibration.basis")) << e;
    e = refusal([](auto& j) { j["pod"]["optical_cube"]["value"] = {4, 4}; });
    EXPECT_TRUE(has(e, "pod.optical_cube") && has(e, "2 dimensions")) << e;
    e = refusal([](auto& j) { j["chip"]["hbm_transpose_GBps"]["value"] = 2000; });
    EXPECT_TRUE(has(e, "chip.hbm_transpose_GBps") && has(e, "hbm_achieved_GBps")) << e;
    e = refusal([](auto& j) { j["tensorcore"]["gather_row_ns"]["value"] = -5; });
    EXPECT_TRUE(has(e, "tensorcore.gather_row_ns") && has(e, "out of range")) << e;

    EXPECT_THROW(parseMachine("{", "x.json"), InputError);
    EXPECT_THROW(parseMachine("[]", "x.json"), InputError);
    EXPECT_THROW(parseMachine(std::string(100, '[') + std::string(100, ']'), "x.json"), InputError);
    try {
        bundledMachine("tpu-v99");
        ADD_FAILURE();
    } catch (const InputError& error) {
        EXPECT_EQ(error.field(), "hardware");
        EXPECT_TRUE(has(error.what(), "tpu-v4")) << error.what(); // lists the known machines
    }
}

} // namespace
} // namespace podscope
