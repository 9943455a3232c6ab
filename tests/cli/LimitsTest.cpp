// Hostile flags and files on podscope-cli's command line (issue 7): each one exits with status 2
// and a message naming the flag or field, within a second.
#include "CliRunner.hpp"
#include "common/Limits.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace podscope::cli {
namespace {

namespace fs = std::filesystem;
using test::runCli;

struct Case {
    std::vector<std::string> args;
    std::string field; // must appear in the message
};

std::string joined(const std::vector<std::string>& args) {
    std::string text;
    for (const auto& a : args) {
        if (!text.empty()) {
            text += ' '; // appended: GCC 12 -O3 misreads `(c ? "" : " ") + std::string`
        }
        text += a.substr(0, 60);
    }
    return text;
}

// "16,16,...": `count` copies of `value`, for sweeps with many points.
std::string repeated(const std::string& value, int count) {
    std::string list;
    for (int i = 0; i < count; ++i) {
        list += (i ? "," : "") + value;
    }
    return list;
}

class CliLimits : public ::testing::TestWithParam<Case> {};

TEST_P(CliLimits, ExitTwoQuicklyNamingTheField) {
    const auto began = std::chrono::steady_clock::now();
    const auto r = runCli(GetParam().args);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    EXPECT_EQ(r.status, kExitBadInput) << joined(GetParam().args) << ": " << r.err;
    EXPECT_NE(r.err.find(GetParam().field), std::string::npos) << r.err;
    EXPECT_LT(seconds, 1.0) << joined(GetParam().args);
}

const std::string kPreset = "mlperf07-resnet50-tf-4096";

INSTANTIATE_TEST_SUITE_P(
    Simulate, CliLimits,
    ::testing::Values(
        Case{{"simulate", "--preset", kPreset, "--global-batch", "-5"}, "global-batch"},
        Case{{"simulate", "--preset", kPreset, "--global-batch", "0"}, "global-batch"},
        Case{{"simulate", "--preset", kPreset, "--global-batch", "99999999999999"}, "global-batch"},
        Case{{"simulate", "--preset", kPreset, "--global-batch", "abc"}, "global-batch"},
        Case{{"simulate", "--preset", kPreset, "--global-batch", "nan"}, "global-batch"},
        Case{{"simulate", "--preset", kPreset, "--model-parallel", "3"}, "model_parallel"},
        Case{{"simulate", "--preset", kPreset, "--model-parallel", "99999999999"}, "model-parallel"},
        Case{{"simulate", "--preset", kPreset, "--link-bw", "nan"}, "link-bw"},
        Case{{"simulate", "--preset", kPreset, "--link-bw", "inf"}, "link-bw"},
        Case{{"simulate", "--preset", kPreset, "--link-bw", "-1"}, "link-bw"},
        Case{{"simulate", "--preset", kPreset, "--link-bw", "1e300"}, "link-bw"},
        Case{{"simulate", "--preset", kPreset, "--link-bw", "fast"}, "link-bw"},
        Case{{"simulate", "--preset", kPreset, "--chips", "5"}, "chips"},
        Case{{"simulate", "--preset", kPreset, "--chips", "-16"}, "chips"},
        Case{{"simulate", "--preset", kPreset, "--topology", "100000x1"}, "topology"},
        Case{{"simulate", "--preset", kPreset, "--topology", "4096x4096"}, "topology"},
        Case{{"simulate", "--preset", kPreset, "--topology", "1x1x1x1x1"}, "topology"},
        Case{{"simulate", "--preset", kPreset, "--wrap", "q"}, "wrap"},
        Case{{"simulate", "--preset", kPreset, "--wus", "maybe"}, "wus"},
        Case{{"simulate", "--preset", "../../etc/passwd"}, "preset"}));

INSTANTIATE_TEST_SUITE_P(
    Sweep, CliLimits,
    ::testing::Values(
        // Used to run with an error row per chip count and exit 0.
        Case{{"sweep", "--preset", kPreset, "--chips", "16", "--global-batch", "-1"},
             "global-batch"},
        Case{{"sweep", "--preset", kPreset, "--chips", "16", "--global-batch", "0,4096"},
             "global-batch"},
        Case{{"sweep", "--preset", kPreset, "--chips", "16,nan"}, "chips"},
        Case{{"sweep", "--preset", kPreset, "--chips", "16", "--global-batch", "1e3"},
             "global-batch"},
        Case{{"sweep", "--preset", kPreset, "--chips", "16,5"}, "chips"},
        Case{{"sweep", "--preset", kPreset, "--chips", repeated("16", 100), "--global-batch",
              repeated("4096", 11)},
             "chips"}));

INSTANTIATE_TEST_SUITE_P(
    Collective, CliLimits,
    ::testing::Values(
        Case{{"collective", "--latency-us", "nan"}, "latency-us"},
        Case{{"collective", "--latency-us", "inf"}, "latency-us"},
        Case{{"collective", "--latency-us", "-1"}, "latency-us"},
        Case{{"collective", "--link-bw", "inf"}, "link-bw"},
        Case{{"collective", "--cross-pod-bw", "nan"}, "cross-pod-bw"},
        Case{{"collective", "--chunks", "100000"}, "chunks"},
        Case{{"collective", "--chunks", "0"}, "chunks"},
        Case{{"collective", "--chunks", "abc"}, "chunks"},
        Case{{"collective", "--bytes", "nan"}, "bytes"},
        Case{{"collective", "--bytes", "inf"}, "bytes"},
        Case{{"collective", "--bytes", "1e400"}, "bytes"},
        Case{{"collective", "--bytes", "-1"}, "bytes"},
        Case{{"collective", "--bytes", "2TiB"}, "bytes"},
        Case{{"collective", "--bytes", "lots"}, "bytes"},
        Case{{"collective", "--groups", "within:0x2"}, "groups"},
        Case{{"collective", "--groups", "within:99999999999"}, "groups"},
        Case{{"collective", "--topology", "0x4"}, "topology"},
        Case{{"collective", "--topology", "5000x1"}, "topology"},
        Case{{"collective", "--topology", "4096x4096"}, "topology"},
        Case{{"collective", "--dim-order", "xx"}, "dim-order"},
        // The event engine used to take half a minute and a gigabyte on these.
        Case{{"collective", "--engine", "event", "--chunks", "1024"}, "chunks"},
        Case{{"collective", "--engine", "event", "--chunks", "1024", "--topology", "16x16x16"},
             "chunks"}));

// Configuration files given with --config.
class CliConfigLimits : public ::testing::TestWithParam<Case> {};

TEST_P(CliConfigLimits, ExitTwoNamingTheField) {
    const fs::path path = fs::temp_directory_path() /
                          ("podscope-cli-limits-" + std::to_string(::getpid()) + ".json");
    std::ofstream(path) << GetParam().args.front();
    const auto began = std::chrono::steady_clock::now();
    const auto r = runCli({"simulate", "--config", path.string()});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    fs::remove(path);
    EXPECT_EQ(r.status, kExitBadInput) << r.err;
    EXPECT_NE(r.err.find(GetParam().field), std::string::npos) << r.err;
    EXPECT_LT(seconds, 1.0);
}

std::string withPreset(const std::string& fields) {
    return "{\"preset\": \"" + kPreset + "\", " + fields + "}";
}

INSTANTIATE_TEST_SUITE_P(
    Files, CliConfigLimits,
    ::testing::Values(
        Case{{std::string(100000, '[')}, "config"},
        Case{{withPreset("\"x\": \"" + std::string(limits::kMaxConfigFileBytes, 'a') + "\"")},
             "config"},
        Case{{withPreset(R"("global_batch": 1e400)")}, "config"},
        Case{{withPreset(R"("global_batch": "4096")")}, "global_batch"},
        Case{{withPreset(R"("global_batch": -4096)")}, "global_batch"},
        Case{{withPreset(R"("link_bandwidth_GBps": 1e300)")}, "link_bandwidth_GBps"},
        Case{{withPreset(R"("input": {"host_cpu_cores": 1e9})")}, "input.host_cpu_cores"},
        Case{{withPreset(R"("gradient": {"chunks": 100000})")}, "gradient.chunks"},
        Case{{withPreset(R"("chips": 100000)")}, "chips"},
        Case{{withPreset(R"("topology": "4096x4096")")}, "topology"}));

TEST(CliLimits, ConfigThatIsADirectoryOrEndlessExitsTwo) {
    for (const std::string& path : {fs::temp_directory_path().string(), std::string("/dev/zero")}) {
        const auto r = runCli({"simulate", "--config", path});
        EXPECT_EQ(r.status, kExitBadInput) << path << ": " << r.err;
        EXPECT_NE(r.err.find("config"), std::string::npos) << r.err;
    }
}

} // namespace
} // namespace podscope::cli
