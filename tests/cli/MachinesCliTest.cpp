#include "CliRunner.hpp"
#include "machine/Machine.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace podscope::cli::test {
namespace {

// The machine's largest standard slice of at most `limit` chips (its slices ascend).
std::int64_t largestSliceUpTo(const Machine& m, std::int64_t limit) {
    std::int64_t chips = 0;
    for (const MachineSlice& s : m.slices) {
        if (s.chips <= limit) {
            chips = s.chips;
        }
    }
    return chips;
}

TEST(MachinesCli, ListsEveryMachineWithPeakHbmIciAndPod) {
    const auto text = runCli({"machines"});
    ASSERT_EQ(text.status, 0) << text.err;
    const auto json = runCli({"machines", "--json"});
    ASSERT_EQ(json.status, 0) << json.err;
    const auto array = nlohmann::json::parse(json.out);
    ASSERT_EQ(array.size(), machineNames().size());
    for (const auto& m : array) {
        const std::string name = m.at("name");
        EXPECT_NE(text.out.find(name), std::string::npos) << name;
        const Machine& machine = bundledMachine(name);
        EXPECT_EQ(m.at("peak_bf16_flops_per_chip").get<double>(), machine.peakFlopsPerChip);
        EXPECT_EQ(m.at("pod_chips").get<std::int64_t>(), machine.podChips());
        EXPECT_GT(m.at("ici_link_Bps_per_direction").get<double>(), 0);
        EXPECT_FALSE(m.at("facts").empty());
        for (const auto& fact : m.at("facts")) {
            EXPECT_FALSE(fact.at("source").get<std::string>().empty()) << fact.at("key");
        }
    }
}

TEST(MachinesCli, UnknownHardwareExitsTwoNamingIt) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"simulate", "--preset", "mlperf07-bert-jax-4096", "--hardware",
                                   "tpu-v99"},
          std::vector<std::string>{"collective", "--hardware", "tpu-v99"}}) {
        const auto r = runCli(args);
        EXPECT_EQ(r.status, 2) << args[0];
        EXPECT_NE(r.err.find("tpu-v99"), std::string::npos) << r.err;
    }
    // A topology that is neither a preset nor dimensions: the machine's presets are named.
    const auto r = runCli({"collective", "--hardware", "tpu-v4", "--topology", "cube"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("tpu-v4-pod"), std::string::npos) << r.err;
    // Another machine's preset: its grid, with this machine's links.
    const auto what = runCli({"collective", "--hardware", "tpu-v4", "--topology", "tpu-v3-pod"});
    ASSERT_EQ(what.status, 0) << what.err;
    EXPECT_NE(what.out.find("32x32"), std::string::npos) << what.out;
    EXPECT_NE(what.out.find("45.0 GB/s"), std::string::npos) << what.out;
}

// calibrate fits a machine on its own measured steps: a machine whose parameters are carried
// over has none, and is refused with the fit it carries over named (not fitted on v3's steps
// under its name); an unknown machine is named.
TEST(MachinesCli, CalibrateRefusesAMachineWithNoMeasuredSteps) {
    for (const auto& name : machineNames()) {
        const Machine& m = bundledMachine(name);
        if (m.calibrationBasis == "fitted") {
            continue;
        }
        const auto r = runCli({"calibrate", "--hardware", name});
        EXPECT_EQ(r.status, 2) << name;
        EXPECT_NE(r.err.find("machine '" + name + "' has no measured steps"), std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("calibrate '" + m.calibrationFit + "' instead"), std::string::npos)
            << r.err;
    }
    const auto unknown = runCli({"calibrate", "--hardware", "tpu-v99"});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("tpu-v99"), std::string::npos) << unknown.err;
}

// calibrate --json gives, beside the points, the parameters of every leave-one-model-out refit:
// one per workload with fit points (none for a workload only checked), each inside the ranges
// the fit searches (docs/training-model.md section 8).
TEST(MachinesCli, CalibrateJsonNamesEveryLeaveOneModelOutRefit) {
    const auto r = runCli({"calibrate", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> fitted;
    for (const auto& point : j.at("points")) {
        if (point.at("role") == "fit") {
            fitted.insert(point.at("workload").get<std::string>());
        }
    }
    std::set<std::string> refits;
    for (const auto& [model, fit] : j.at("held_out_fits").items()) {
        refits.insert(model);
        EXPECT_GE(fit.at("link_latency_s").get<double>(), 0.05e-6) << model;
        EXPECT_LE(fit.at("link_latency_s").get<double>(), 3e-6) << model;
        EXPECT_LE(fit.at("kernel_overhead_s").get<double>(), 40e-6) << model;
        EXPECT_GE(fit.at("mxu_efficiency").get<double>(), 0.3) << model;
        EXPECT_LE(fit.at("mxu_efficiency").get<double>(), 1.0) << model;
    }
    EXPECT_EQ(refits, fitted);
    EXPECT_GE(fitted.size(), 5u);
}

// compare runs the configuration on every machine: each row is what simulate predicts for that
// machine at the same chips and batch, a machine with no slice of that size says so, and the
// configuration's own machine is marked.
TEST(MachinesCli, CompareIsSimulateOnEveryMachine) {
    const std::string preset = "mlperf07-resnet50-tf-4096";
    const auto r = runCli({"compare", "--preset", preset, "--chips", "256", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = nlohmann::json::parse(r.out);
    ASSERT_EQ(rows.size(), machineNames().size());
    for (const auto& row : rows) {
        const std::string machine = row.at("hardware");
        const auto one = runCli(
            {"simulate", "--preset", preset, "--hardware", machine, "--chips", "256", "--json"});
        if (one.status != 0) {
            EXPECT_TRUE(row.contains("error")) << machine;
            continue;
        }
        const auto j = nlohmann::json::parse(one.out);
        ASSERT_FALSE(row.contains("error")) << machine << row.dump();
        EXPECT_DOUBLE_EQ(row.at("step_time_s").get<double>(), j.at("step_time_s").get<double>())
            << machine;
        EXPECT_DOUBLE_EQ(row.at("chip_seconds").get<double>(),
                         256 * j.at("time_to_train_s").get<double>())
            << machine;
    }
    // 4096 chips: a machine whose pods are smaller runs copies of its largest standard slice
    // that divides 4096, over the data-centre network: its row is `simulate` on that slice with
    // --slices. Without a stated DCN bandwidth such a machine is refused, saying what is missing;
    // a given --dcn-bw is the site's network and holds for every machine.
    for (const std::vector<std::string>& dcn :
         {std::vector<std::string>{}, std::vector<std::string>{"--dcn-bw", "12.5"}}) {
        std::vector<std::string> args = {"compare", "--preset", preset, "--json"};
        args.insert(args.end(), dcn.begin(), dcn.end());
        const auto big = runCli(args);
        ASSERT_EQ(big.status, 0) << big.err;
        int multislice = 0;
        for (const auto& row : nlohmann::json::parse(big.out)) {
            const std::string machine = row.at("hardware");
            EXPECT_EQ(row.at("chips").get<std::int64_t>(), 4096) << machine;
            const auto counts = standardChipCounts(machine);
            if (std::find(counts.begin(), counts.end(), 4096) != counts.end()) {
                EXPECT_EQ(row.at("slices").get<int>(), 1) << machine;
                continue;
            }
            ASSERT_FALSE(row.at("slices").is_null()) << machine << row.dump();
            const int slices = row.at("slices").get<int>();
            ASSERT_GT(slices, 1) << machine;
            ASSERT_EQ(4096 % slices, 0) << machine;
            const std::int64_t largest = 4096 / slices;
            // One slice is a standard slice, and no larger standard slice divides 4096.
            EXPECT_NE(std::find(counts.begin(), counts.end(), largest), counts.end()) << machine;
            for (const auto n : counts) {
                EXPECT_FALSE(n > largest && n < 4096 && 4096 % n == 0) << machine << " " << n;
            }
            std::vector<std::string> one = {"simulate",
                                            "--preset",
                                            preset,
                                            "--hardware",
                                            machine,
                                            "--chips",
                                            std::to_string(largest),
                                            "--slices",
                                            std::to_string(slices),
                                            "--json"};
            one.insert(one.end(), dcn.begin(), dcn.end());
            const auto single = runCli(one);
            if (single.status != 0) {
                ASSERT_TRUE(row.contains("error")) << machine << row.dump();
                const std::string error = row.at("error");
                EXPECT_NE(error.find("as " + std::to_string(slices) + " slices of "),
                          std::string::npos)
                    << error;
                if (!bundledMachine(machine).dcnBpsPerHost && dcn.empty()) {
                    EXPECT_NE(error.find("dcn_bandwidth_GBps"), std::string::npos) << error;
                }
                EXPECT_FALSE(!dcn.empty() && error.find("dcn_bandwidth_GBps") != std::string::npos)
                    << error;
                continue;
            }
            ASSERT_FALSE(row.contains("error")) << machine << row.dump();
            ++multislice;
            const auto j = nlohmann::json::parse(single.out);
            EXPECT_EQ(j.at("chips").get<std::int64_t>(), 4096) << machine;
            EXPECT_GT(j.at("dcn_sync_s").get<double>(), 0) << machine;
            EXPECT_DOUBLE_EQ(row.at("step_time_s").get<double>(), j.at("step_time_s").get<double>())
                << machine;
            EXPECT_DOUBLE_EQ(row.at("chip_seconds").get<double>(),
                             4096 * j.at("time_to_train_s").get<double>())
                << machine;
        }
        // Machines with smaller pods and a stated DCN run; with --dcn-bw so do the rest.
        EXPECT_GT(multislice, 0) << big.out;
    }
    const auto table = runCli({"compare", "--preset", preset});
    ASSERT_EQ(table.status, 0) << table.err;
    EXPECT_NE(table.out.find("tpu-v3 *"), std::string::npos) << table.out;
    EXPECT_EQ(runCli({"compare", "--preset", preset, "--chips", "255"}).status, 2);
}

// Every bundled workload on every machine, at the machine's largest standard slice up to 4096
// chips, with the preset's examples per replica: it runs, on the machine's chips, hosts and
// HBM per device. Where that batch does not fit the machine's HBM (v2's 8 GiB per core), the
// refusal names the machine's capacity and half the batch per replica is tried.
TEST(MachinesCli, SimulateRunsEveryPresetOnEveryMachine) {
    for (const auto& machineName : machineNames()) {
        const Machine& m = bundledMachine(machineName);
        const std::int64_t chips = largestSliceUpTo(m, 4096);
        for (const auto& presetName : presetNames()) {
            const Preset preset = loadPreset(presetName);
            const auto base = runCli({"simulate", "--preset", presetName, "--json"});
            ASSERT_EQ(base.status, 0) << presetName << base.err;
            const auto baseJson = nlohmann::json::parse(base.out);
            auto perReplica =
                baseJson.at("parallelism").at("per_replica_batch").get<std::int64_t>();
            const std::int64_t devices = chips * m.devicesPerChip();
            const std::int64_t replicas =
                std::max<std::int64_t>(1, devices / preset.scenario.modelParallel);
            const double capacityGiB = m.hbmBytesPerChip / m.devicesPerChip() / (1 << 30);
            char capacity[32];
            std::snprintf(capacity, sizeof capacity, "has %.2f GiB", capacityGiB);
            Outcome r;
            while (true) {
                r = runCli({"simulate", "--preset", presetName, "--hardware", machineName,
                            "--chips", std::to_string(chips), "--global-batch",
                            std::to_string(perReplica * replicas), "--json"});
                if (r.status == 0 || perReplica == 1 ||
                    r.err.find("of HBM per core") == std::string::npos) {
                    break;
                }
                EXPECT_NE(r.err.find(capacity), std::string::npos) << r.err;
                perReplica /= 2;
            }
            ASSERT_EQ(r.status, 0) << machineName << " " << presetName << ": " << r.err;
            const auto j = nlohmann::json::parse(r.out);
            EXPECT_EQ(j.at("chips").get<std::int64_t>(), chips) << machineName << presetName;
            EXPECT_DOUBLE_EQ(j.at("memory").at("capacity_bytes").get<double>(),
                             m.hbmBytesPerChip / m.devicesPerChip())
                << machineName << " " << presetName;
            EXPECT_EQ(
                j.at("input").at("chips_per_host").get<double>(),
                std::min<double>(static_cast<double>(m.chipsPerHost), static_cast<double>(chips)))
                << machineName << " " << presetName;
            EXPECT_GT(j.at("step_time_s").get<double>(), 0) << machineName << " " << presetName;
        }
    }
}

// The largest standard slice of a machine up to 4096 chips, and a global batch of the preset's
// examples per replica that fits the machine's HBM there (halved until it does, as above).
struct FittingRun {
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
};

FittingRun fittingRun(const Machine& m, const std::string& presetName) {
    FittingRun run;
    run.chips = largestSliceUpTo(m, 4096);
    const Preset preset = loadPreset(presetName);
    const auto base = nlohmann::json::parse(runCli({"simulate", "--preset", presetName, "--json"}).out);
    auto perReplica = base.at("parallelism").at("per_replica_batch").get<std::int64_t>();
    const std::int64_t replicas = std::max<std::int64_t>(
        1, run.chips * m.devicesPerChip() / preset.scenario.modelParallel);
    while (true) {
        run.globalBatch = perReplica * replicas;
        const auto r = runCli({"simulate", "--preset", presetName, "--hardware", m.name, "--chips",
                               std::to_string(run.chips), "--global-batch",
                               std::to_string(run.globalBatch)});
        if (r.status == 0 || perReplica == 1) {
            return run;
        }
        perReplica /= 2;
    }
}

// Issue 20's "every command runs every workload on every machine": layers, timeline and sweep
// (over every standard slice up to 4096 chips) for every preset on every machine, at the
// machine's own slices and memory limit. A sweep's smaller slices may refuse the batch (HBM);
// the slice it fits on must not, and every row is a standard slice.
TEST(MachinesCli, LayersTimelineAndSweepRunEveryPresetOnEveryMachine) {
    for (const auto& machineName : machineNames()) {
        const Machine& m = bundledMachine(machineName);
        std::string counts;
        std::size_t standard = 0;
        for (const MachineSlice& s : m.slices) {
            if (s.chips <= 4096) {
                counts += (counts.empty() ? "" : ",") + std::to_string(s.chips);
                ++standard;
            }
        }
        for (const auto& presetName : presetNames()) {
            SCOPED_TRACE(machineName + " " + presetName);
            const FittingRun run = fittingRun(m, presetName);
            const std::vector<std::string> common{"--preset",       presetName,
                                                  "--hardware",     machineName,
                                                  "--global-batch", std::to_string(run.globalBatch)};
            auto with = [&](std::vector<std::string> args) {
                args.insert(args.end(), common.begin(), common.end());
                return args;
            };
            const auto layers =
                runCli(with({"layers", "--chips", std::to_string(run.chips), "--json"}));
            ASSERT_EQ(layers.status, 0) << layers.err;
            EXPECT_FALSE(nlohmann::json::parse(layers.out).at("layers").empty());
            const auto timeline =
                runCli(with({"timeline", "--chips", std::to_string(run.chips), "--json"}));
            ASSERT_EQ(timeline.status, 0) << timeline.err;
            EXPECT_EQ(nlohmann::json::parse(timeline.out).at("chips").get<std::int64_t>(),
                      run.chips);
            const auto sweep = runCli(with({"sweep", "--chips", counts, "--json"}));
            ASSERT_EQ(sweep.status, 0) << sweep.err;
            const auto rows = nlohmann::json::parse(sweep.out);
            ASSERT_EQ(rows.size(), standard);
            bool fitted = false;
            for (const auto& row : rows) {
                if (row.at("chips").get<std::int64_t>() == run.chips) {
                    fitted = !row.contains("error");
                }
            }
            EXPECT_TRUE(fitted) << sweep.out.substr(0, 2000);
        }
    }
}

// And the search: every bundled model's first preset tuned on every machine at 256 chips (or
// the machine's largest slice below that), its best configuration on that machine.
TEST(MachinesCli, TuneRunsEveryModelOnEveryMachine) {
    std::vector<std::string> firstOfModel;
    std::set<std::string> models;
    for (const auto& presetName : presetNames()) {
        if (models.insert(loadPreset(presetName).scenario.workload).second) {
            firstOfModel.push_back(presetName);
        }
    }
    EXPECT_GE(firstOfModel.size(), 6u);
    for (const auto& machineName : machineNames()) {
        const std::int64_t chips = largestSliceUpTo(bundledMachine(machineName), 256);
        for (const auto& presetName : firstOfModel) {
            SCOPED_TRACE(machineName + " " + presetName);
            const auto r = runCli({"tune", "--preset", presetName, "--hardware", machineName,
                                   "--chips", std::to_string(chips), "--json"});
            ASSERT_EQ(r.status, 0) << r.err;
            const auto j = nlohmann::json::parse(r.out);
            ASSERT_FALSE(j.at("pareto_front").at("points").empty());
            EXPECT_EQ(j.at("pareto_front").at("points").front().at("chips").get<std::int64_t>(),
                      chips);
        }
    }
}

} // namespace
} // namespace podscope::cli::test
