#include "report/Report.hpp"

#include "report/SvgChart.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
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

// A small well-formedness check (balanced, properly nested elements; quoted attributes), enough
// to catch a broken writer without an XML library in the tests.
bool wellFormedXml(const std::string& text) {
    std::vector<std::string> open;
    std::size_t i = 0;
    while ((i = text.find('<', i)) != std::string::npos) {
        const auto end = text.find('>', i);
        if (end == std::string::npos) {
            return false;
        }
        const std::string tag = text.substr(i + 1, end - i - 1);
        i = end + 1;
        if (tag.empty() || tag[0] == '?' || tag[0] == '!') {
            continue;
        }
        if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) {
            return false;
        }
        if (tag[0] == '/') {
            if (open.empty() || open.back() != tag.substr(1)) {
                return false;
            }
            open.pop_back();
        } else if (tag.back() != '/') {
            open.push_back(tag.substr(0, tag.find_first_of(" \n\t")));
        }
    }
    return open.empty();
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

TEST_F(ReportTest, WritesEveryFileWithTheConfigurationEmbedded) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
    const auto data = report::computeReport(preset.scenario, preset);
    const auto files = report::writeReport(data, dir_.string());
    for (const char* name : {"results.json", "results.csv", "trace.json", "scaling.svg",
                             "breakdown.svg", "batch.svg", "report.html"}) {
        EXPECT_TRUE(fs::exists(dir_ / name)) << name;
    }
    // No temporary files left behind.
    for (const auto& entry : fs::directory_iterator(dir_)) {
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    }

    const auto results = nlohmann::json::parse(readFile(dir_ / "results.json"));
    EXPECT_EQ(parseScenario(results.at("scenario").dump(), "results.json").globalBatch,
              preset.scenario.globalBatch);
    EXPECT_EQ(results.at("scaling").size(), 9u);

    std::istringstream csv(readFile(dir_ / "results.csv"));
    std::string line;
    std::getline(csv, line);
    ASSERT_EQ(line.rfind("# scenario: ", 0), 0u);
    EXPECT_EQ(parseScenario(line.substr(12), "results.csv").workload, "resnet50");
    std::getline(csv, line);
    const auto columns = std::count(line.begin(), line.end(), ',');
    int rows = 0;
    while (std::getline(csv, line)) {
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), columns) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 1 + 9 + 6);

    const auto trace = nlohmann::json::parse(readFile(dir_ / "trace.json"));
    EXPECT_TRUE(trace.contains("traceEvents"));

    const std::string scaling = readFile(dir_ / "scaling.svg");
    EXPECT_TRUE(wellFormedXml(scaling));
    for (const char* series : {"data-name=\"simulated\"", "data-name=\"ideal scaling\"",
                               "data-name=\"MLPerf v0.7 measured\"", "chips", "examples/s"}) {
        EXPECT_NE(scaling.find(series), std::string::npos) << series;
    }
    const std::string breakdown = readFile(dir_ / "breakdown.svg");
    EXPECT_TRUE(wellFormedXml(breakdown));
    EXPECT_NE(breakdown.find("data-name=\"compute\""), std::string::npos);
    EXPECT_TRUE(wellFormedXml(readFile(dir_ / "batch.svg")));

    const std::string html = readFile(dir_ / "report.html");
    EXPECT_NE(html.find("Comparison with the measured MLPerf"), std::string::npos);
    EXPECT_NE(html.find("id=\"bottleneck\""), std::string::npos);
    EXPECT_NE(html.find("<svg"), std::string::npos);

    // An independent reader: librsvg renders each chart.
    if (std::system("command -v rsvg-convert >/dev/null 2>&1") == 0) {
        EXPECT_TRUE(fs::exists(dir_ / "scaling.png"));
        EXPECT_GT(fs::file_size(dir_ / "scaling.png"), 1000u);
    }
}

TEST_F(ReportTest, SameConfigurationGivesTheSameNumbers) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
    EXPECT_EQ(report::resultsJson(report::computeReport(preset.scenario, preset)),
              report::resultsJson(report::computeReport(preset.scenario, preset)));
}

TEST(SvgChart, EscapesTextAndNamesSeries) {
    report::LineChart c;
    c.title = "a < b & c";
    c.xLabel = "x (s)";
    c.yLabel = "y (m)";
    c.series = {{"one", {1, 2, 3}, {1, 4, 9}, false}};
    const std::string svg = report::renderSvg(c);
    EXPECT_TRUE(wellFormedXml(svg));
    EXPECT_NE(svg.find("a &lt; b &amp; c"), std::string::npos);
    EXPECT_NE(svg.find("data-name=\"one\""), std::string::npos);
}

} // namespace
} // namespace podscope
