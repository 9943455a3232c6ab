#include "report/Report.hpp"

#include "analysis/SweepGrid.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace podscope {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class ReportTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("podscope-report-test-" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

// Figures as a chart renderer would hand them over: the core writes and embeds what it gets.
std::vector<report::ReportFigure> fakeFigures() {
    return {{"strong-scaling", "Strong scaling", "a < b & c",
             "<?xml version=\"1.0\"?>\n<svg id=\"s\"></svg>",
             std::string("\x89PNG\r\n\x1a\n\0one", 12)},
            {"batch", "Batch", "caption two", "<svg id=\"b\"></svg>", "png two"}};
}

TEST_F(ReportTest, WritesEveryFileWithTheConfigurationEmbedded) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
    const auto data = report::computeReport(preset.scenario, preset);
    const auto files = report::writeReport(data, fakeFigures(), dir_.string());
    EXPECT_TRUE(files.warnings.empty());
    for (const char* name : {"results.json", "results.csv", "trace.json", "strong-scaling.svg",
                             "strong-scaling.png", "batch.svg", "batch.png", "report.html"}) {
        EXPECT_TRUE(fs::exists(dir_ / name)) << name;
    }
    // Binary content arrives whole, NUL bytes included.
    EXPECT_EQ(readFile(dir_ / "strong-scaling.png"), std::string("\x89PNG\r\n\x1a\n\0one", 12));
    // No temporary files left behind.
    for (const auto& entry : fs::directory_iterator(dir_)) {
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    }

    const auto results = nlohmann::json::parse(readFile(dir_ / "results.json"));
    EXPECT_EQ(parseScenario(results.at("scenario").dump(), "results.json").globalBatch,
              preset.scenario.globalBatch);
    const auto slices = analysis::sweepSliceChips(preset.scenario.hardware);
    EXPECT_EQ(slices, (std::vector<std::int64_t>{16, 32, 64, 128, 256, 512, 1024, 2048, 4096}));
    EXPECT_EQ(results.at("strong_scaling").size(), slices.size());
    EXPECT_EQ(results.at("weak_scaling").size(), slices.size());
    EXPECT_EQ(results.at("batch_sweep").size(), data.batches.size());
    // Strong scaling keeps the global batch; weak scaling the examples per chip.
    const double perChip = double(preset.scenario.globalBatch) / double(data.result.chips);
    for (std::size_t i = 0; i < slices.size(); ++i) {
        const auto chips = double(slices[i]);
        EXPECT_EQ(results.at("strong_scaling")[i].at("global_batch"), preset.scenario.globalBatch);
        EXPECT_EQ(results.at("weak_scaling")[i].at("global_batch").get<double>(), perChip * chips);
    }

    std::istringstream csv(readFile(dir_ / "results.csv"));
    std::string line;
    std::getline(csv, line);
    ASSERT_EQ(line.rfind("# scenario: ", 0), 0u);
    EXPECT_EQ(parseScenario(line.substr(12), "results.csv").workload, "resnet50");
    std::getline(csv, line);
    const auto columns = std::count(line.begin(), line.end(), ',');
    int rows = 0;
    std::set<std::string> sweeps;
    while (std::getline(csv, line)) {
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), columns) << line;
        sweeps.insert(line.substr(0, line.find(',')));
        ++rows;
    }
    EXPECT_EQ(rows, 1 + 2 * int(slices.size()) + int(data.batches.size()));
    EXPECT_EQ(sweeps, (std::set<std::string>{"base", "strong_scaling", "weak_scaling", "batch"}));

    const auto trace = nlohmann::json::parse(readFile(dir_ / "trace.json"));
    EXPECT_TRUE(trace.contains("traceEvents"));

    const std::string html = readFile(dir_ / "report.html");
    EXPECT_NE(html.find("Comparison with the measured MLPerf"), std::string::npos);
    EXPECT_NE(html.find("id=\"bottleneck\""), std::string::npos);
    // Each figure inline, without its XML declaration, under its title and above its caption.
    EXPECT_NE(
        html.find("<figure id=\"figure-strong-scaling\"><h3>Strong scaling</h3>\n<svg id=\"s\">"),
        std::string::npos);
    EXPECT_EQ(html.find("<?xml"), std::string::npos);
    EXPECT_NE(html.find("<figcaption>a &lt; b &amp; c"), std::string::npos);
    EXPECT_NE(html.find("<svg id=\"b\">"), std::string::npos);
    EXPECT_EQ(html.find("id=\"no-charts\""), std::string::npos);
    // Sources are cited as their readers can look them up, not by paths inside our checkout.
    EXPECT_EQ(html.find("shared/reference"), std::string::npos);
    EXPECT_NE(html.find("mlcommons/training_results_v0.7"), std::string::npos);
    // Every id once: the breakdown table and the breakdown figure must not share one.
    std::set<std::string> ids;
    for (std::size_t at = html.find(" id=\""); at != std::string::npos;
         at = html.find(" id=\"", at + 1)) {
        const auto start = at + 5;
        EXPECT_TRUE(ids.insert(html.substr(start, html.find('"', start) - start)).second)
            << html.substr(start, 40);
    }
}

TEST_F(ReportTest, WithoutAChartRendererSaysSoAndWritesTheRest) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
    const auto files =
        report::writeReport(report::computeReport(preset.scenario, preset), {}, dir_.string());
    ASSERT_EQ(files.warnings.size(), 1u);
    EXPECT_NE(files.warnings[0].find("no charts"), std::string::npos);
    EXPECT_NE(readFile(dir_ / "report.html").find("id=\"no-charts\""), std::string::npos);
    EXPECT_TRUE(fs::exists(dir_ / "results.json"));
    EXPECT_FALSE(fs::exists(dir_ / "strong-scaling.svg"));
}

TEST(ReportSweeps, BatchesGiveEveryReplicaTheSameWholeNumberOfExamples) {
    const auto batches = analysis::sweepBatches(512, 3 * 512);
    ASSERT_EQ(batches.size(), 13u); // 1 ... 2048 per replica, and 3 per replica
    EXPECT_TRUE(std::is_sorted(batches.begin(), batches.end()));
    for (const auto b : batches) {
        EXPECT_EQ(b % 512, 0) << b;
    }
    EXPECT_EQ(batches.front(), 512);
    EXPECT_EQ(batches.back(), 2048 * 512);
    EXPECT_EQ(analysis::sweepBatches(512, 1024).size(), 12u); // already in the sweep
}

TEST_F(ReportTest, SameConfigurationGivesTheSameNumbers) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
    EXPECT_EQ(report::resultsJson(report::computeReport(preset.scenario, preset)),
              report::resultsJson(report::computeReport(preset.scenario, preset)));
}

} // namespace
} // namespace podscope
