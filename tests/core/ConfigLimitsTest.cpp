// Hostile configuration files (issue 7): every one is refused with an InputError that names the
// field, quickly and before anything large is allocated.
#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace podscope {
namespace {

namespace fs = std::filesystem;

// Parses and, when that succeeds, simulates: the error may come from either step.
std::string errorOf(const std::string& text) {
    try {
        simulateTraining(parseScenario(text, "test.json"));
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string withPreset(const std::string& fields) {
    return R"({"preset": "mlperf07-resnet50-tf-4096", )" + fields + "}";
}

struct Case {
    std::string text;
    std::string field; // must appear in the message
};

class ConfigLimits : public ::testing::TestWithParam<Case> {};

TEST_P(ConfigLimits, RefusedQuicklyNamingTheField) {
    const auto began = std::chrono::steady_clock::now();
    const std::string message = errorOf(GetParam().text);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    ASSERT_FALSE(message.empty()) << "accepted: " << GetParam().text.substr(0, 200);
    EXPECT_NE(message.find(GetParam().field), std::string::npos) << message;
    EXPECT_LT(seconds, 1.0) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Numbers, ConfigLimits,
    ::testing::Values(
        Case{withPreset(R"("global_batch": -1)"), "global_batch"},
        Case{withPreset(R"("global_batch": 0)"), "global_batch"},
        Case{withPreset(R"("global_batch": 2199023255553)"), "global_batch"},
        Case{withPreset(R"("global_batch": 18446744073709551615)"), "global_batch"},
        Case{withPreset(R"("global_batch": "4096")"), "global_batch"},
        Case{withPreset(R"("global_batch": 12.5)"), "global_batch"},
        Case{withPreset(R"("global_batch": true)"), "global_batch"},
        Case{withPreset(R"("global_batch": 1e400)"), "config"}, // too large for a double
        Case{withPreset(R"("link_bandwidth_GBps": -1)"), "link_bandwidth_GBps"},
        Case{withPreset(R"("link_bandwidth_GBps": 0)"), "link_bandwidth_GBps"},
        Case{withPreset(R"("link_bandwidth_GBps": 1e300)"), "link_bandwidth_GBps"},
        Case{withPreset(R"("link_bandwidth_GBps": "fast")"), "link_bandwidth_GBps"},
        Case{withPreset(R"("link_bandwidth_GBps": null)"), "link_bandwidth_GBps"},
        Case{withPreset(R"("input": {"host_cpu_cores": 1e9})"), "input.host_cpu_cores"},
        Case{withPreset(R"("input": {"host_cpu_cores": -4})"), "input.host_cpu_cores"},
        Case{withPreset(R"("input": {"prefetch_batches": -1})"), "input.prefetch_batches"},
        Case{withPreset(R"("gradient": {"chunks": 0})"), "gradient.chunks"},
        Case{withPreset(R"("gradient": {"chunks": 100000})"), "gradient.chunks"},
        Case{withPreset(R"("gradient": {"chunks": "4"})"), "gradient.chunks"},
        Case{withPreset(R"("model_parallel": {"degree": 17})"), "model_parallel.degree"},
        Case{withPreset(R"("model_parallel": {"degree": 3})"), "model_parallel"},
        Case{withPreset(R"("model_parallel": 4)"), "model_parallel"}));

INSTANTIATE_TEST_SUITE_P(
    Sizes, ConfigLimits,
    ::testing::Values(
        Case{withPreset(R"("chips": 5)"), "chips"},
        Case{withPreset(R"("chips": -16)"), "chips"},
        Case{withPreset(R"("chips": 1000000000)"), "chips"},
        Case{withPreset(R"("topology": "100000x1")"), "topology"},
        Case{withPreset(R"("topology": "4096x4096")"), "topology"},
        Case{withPreset(R"("topology": "1x1x1x1x1")"), "topology"},
        Case{withPreset(R"("topology": 128)"), "topology"},
        Case{withPreset(R"("wrap": 5)"), "wrap"}));

INSTANTIATE_TEST_SUITE_P(
    Structure, ConfigLimits,
    ::testing::Values(
        Case{std::string(100000, '['), "config"}, // deep nesting, refused before parsing
        Case{withPreset(R"("input": )" + std::string(10000, '{')), "config"},
        Case{"{\"preset\": \"mlperf07-resnet50-tf-4096\", \"x\": \"" +
                 std::string(limits::kMaxConfigFileBytes, 'a') + "\"}",
             "config"},
        Case{"", "config"}, Case{"[]", "config"}, Case{"null", "config"},
        // Found by tests/fuzz (podscope_fuzz_config): a number too large for a double made
        // nlohmann::json throw out_of_range, which escaped as an internal error.
        Case{std::string("{\"pre:et\":777777777777e7777ts7777777s\"\"t \333eMl7set\"\333 }}\n") +
                 std::string("\0\1\0\0\0\0)\0\6", 9),
             "config"}));

TEST(ConfigLimits, BracketsInsideStringsAreNotNesting) {
    // The depth check must not count brackets in string values: this is a normal bad key.
    std::string key = "\"";
    key.append(100, '[').append("\": 1"); // appended: GCC 12 -O3 misreads `"\"" + std::string`
    const std::string message = errorOf(withPreset(key));
    EXPECT_NE(message.find("unknown key"), std::string::npos) << message;
}

TEST(ConfigLimits, FilesOverTheLimitAreRefusedBeforeParsing) {
    const fs::path path = fs::temp_directory_path() / "podscope-config-limits-big.json";
    {
        std::ofstream out(path);
        out << "{\"preset\": \"mlperf07-resnet50-tf-4096\"}";
        out << std::string(limits::kMaxConfigFileBytes, ' ');
    }
    try {
        loadScenarioFile(path.string());
        ADD_FAILURE() << "a file over the limit was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "config");
        EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
    }
    fs::remove(path);
}

TEST(ConfigLimits, EndlessFilesAndDirectoriesAreRefused) {
    for (const std::string& path : {std::string("/dev/zero"), fs::temp_directory_path().string()}) {
        try {
            loadScenarioFile(path);
            ADD_FAILURE() << path << " was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), "config") << e.what();
        }
    }
}

} // namespace
} // namespace podscope
