#include "CliRunner.hpp"
#include "PngHeader.hpp"
#include "ScratchDir.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace podscope::cli {
namespace {

namespace fs = std::filesystem;

using test::runCli;

using podscope::test::readFile;
using podscope::test::ScratchDir;

// By default the whole step of every chip (the step timeline); --collective the analytic
// breakdown with the gradient all-reduce, as before issue 23.
TEST(TraceCli, WritesTheWholeStepByDefaultAndTheCollectiveOneFlagAway) {
    ScratchDir dir;
    const auto file = (dir.path / "step.json").string();
    auto r =
        runCli({"trace", "--preset", "mlperf07-resnet50-tf2-16", "--out", file, "--chips", "64"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto json = nlohmann::json::parse(readFile(file));
    EXPECT_FALSE(json.at("traceEvents").empty());
    EXPECT_TRUE(json.at("otherData").at("scenario").contains("topology"));
    EXPECT_TRUE(json.at("otherData").contains("step_s")); // the timeline's
    EXPECT_NE(json.dump().find("all chips aggregated (64 chips)"), std::string::npos);
    EXPECT_NE(json.dump().find("forward"), std::string::npos);

    r = runCli({"trace", "--preset", "mlperf07-resnet50-tf2-16", "--out", file, "--chips", "64",
                "--collective"});
    ASSERT_EQ(r.status, 0) << r.err;
    json = nlohmann::json::parse(readFile(file));
    EXPECT_NE(json.dump().find("training step (64 chips)"), std::string::npos);
    EXPECT_NE(json.dump().find("(event engine, "), std::string::npos); // the gradient collective

    r = runCli({"trace", "--preset", "mlperf07-resnet50-tf2-16", "--out", file, "--chips", "64",
                "--no-collective"});
    ASSERT_EQ(r.status, 0) << r.err;
    json = nlohmann::json::parse(readFile(file));
    EXPECT_NE(json.dump().find("training step (64 chips)"), std::string::npos);
    EXPECT_EQ(json.dump().find("(event engine, "), std::string::npos);
    // The step and the breakdown are one or the other.
    for (const char* other : {"--collective", "--no-collective"}) {
        r = runCli(
            {"trace", "--preset", "mlperf07-resnet50-tf2-16", "--out", file, "--step", other});
        EXPECT_EQ(r.status, 2) << other;
    }
}

TEST(TraceCli, BadInputExitsTwoNamingTheFieldAndKeepsTheOldFile) {
    ScratchDir dir;
    const auto file = dir.path / "step.json";
    std::ofstream(file) << "old";
    auto r = runCli({"trace", "--preset", "no-such-preset", "--out", file.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("preset"), std::string::npos) << r.err;
    r = runCli(
        {"trace", "--preset", "mlperf07-resnet50-tf2-16", "--out", file.string(), "--chips", "17"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("chips"), std::string::npos) << r.err;
    EXPECT_EQ(readFile(file), "old");
    r = runCli({"trace", "--preset", "mlperf07-resnet50-tf2-16", "--out",
                (dir.path / "missing" / "x.json").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("out"), std::string::npos) << r.err;
}

TEST(ReportCli, WritesTheReportDirectoryWithProgress) {
    ScratchDir dir;
    const auto out = dir.path / "report";
    const auto r =
        runCli({"report", "--preset", "mlperf07-resnet50-tf2-16", "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    // 9 slices twice (strong and weak scaling) and 12 global batches on the 16-chip slice.
    EXPECT_NE(r.err.find("[1/30] strong scaling: 16 chips"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[30/30] batch"), std::string::npos) << r.err;
    const std::string html = readFile(out / "report.html");
    EXPECT_NE(html.find("measured MLPerf"), std::string::npos);
#ifdef PODSCOPE_WITH_CHARTS
    // The app's charts, drawn off-screen: an SVG and a 1600x1000 PNG each, and inline.
    for (const char* name :
         {"strong-scaling", "weak-scaling", "breakdown", "batch", "layers", "roofline"}) {
        SCOPED_TRACE(name);
        EXPECT_NE(readFile(out / (std::string(name) + ".svg")).find("<svg"), std::string::npos);
        const std::string png = readFile(out / (std::string(name) + ".png"));
        const auto size = podscope::test::pngSize(png);
        ASSERT_TRUE(size) << "not a PNG";
        EXPECT_EQ(size->width, 1600u);
        EXPECT_EQ(size->height, 1000u);
        EXPECT_NE(html.find("<figure id=\"figure-" + std::string(name) + "\">"), std::string::npos);
    }
    EXPECT_NE(html.find("Weak scaling: throughput against chips"), std::string::npos);
    EXPECT_NE(html.find("Strong scaling: throughput against chips"), std::string::npos);
    // Nothing but progress on stderr: no platform noise from the off-screen charts.
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
        EXPECT_EQ(line.rfind("report: ", 0), 0u) << line;
    }
#endif
}

// Issue 23: the report is read outside the repository: it cites its sources by name (papers,
// MLPerf runs, machine descriptions), never by a path inside PodScope's source tree. The 4096-chip
// ResNet-50 preset explains its super-linear points from the machine's slices, the text that
// once named resources/machines/<file>.json.
TEST(ReportCli, TheReportCitesItsSourcesWithoutInternalPaths) {
    ScratchDir dir;
    const auto out = dir.path / "report";
    const auto r =
        runCli({"report", "--preset", "mlperf07-resnet50-tf-4096", "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = readFile(out / "report.html");
    EXPECT_NE(html.find("machine description"), std::string::npos);
    for (const char* internal : {"resources/", "shared/", "docs/", "tests/", "../", ".md"}) {
        const auto at = html.find(internal);
        EXPECT_EQ(at, std::string::npos)
            << internal << " in: " << html.substr(at == std::string::npos ? 0 : at - 80, 160);
    }
}

TEST(ReportCli, AConfigurationNamingAPresetIsComparedWithItsMeasuredRun) {
    ScratchDir dir;
    const auto config = dir.path / "named.json";
    std::ofstream(config) << R"({"preset": "mlperf07-resnet50-tf2-16", "global_batch": 256})";
    const auto out = dir.path / "report";
    auto r = runCli({"report", "--config", config.string(), "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(readFile(out / "report.html").find("measured MLPerf"), std::string::npos);
    // A configuration of its own has no measured run to compare with.
    const auto plain = dir.path / "plain.json";
    std::ofstream(plain)
        << R"({"workload": "resnet50", "framework": "tf", "chips": 16, "global_batch": 256})";
    r = runCli({"report", "--config", plain.string(), "--out", (dir.path / "plain").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(readFile(dir.path / "plain" / "report.html").find("measured MLPerf"),
              std::string::npos);
}

TEST(ReportCli, TraceAndReportCheckTheGlobalBatchAsSimulateDoes) {
    ScratchDir dir;
    for (const char* command : {"simulate", "trace", "report"}) {
        SCOPED_TRACE(command);
        const auto out = (dir.path / "out").string();
        std::vector<std::string> args{command, "--preset", "mlperf07-resnet50-tf2-16",
                                      "--global-batch", "0"};
        if (std::string(command) != "simulate") {
            args.insert(args.end(), {"--out", out});
        }
        const auto r = runCli(args);
        EXPECT_EQ(r.status, 2);
        EXPECT_NE(r.err.find("global-batch: '0' must be between 1 and"), std::string::npos)
            << r.err;
        EXPECT_FALSE(fs::exists(out));
    }
}

TEST(ReportCli, BadInputExitsTwo) {
    ScratchDir dir;
    const auto r = runCli(
        {"report", "--config", (dir.path / "none.json").string(), "--out", dir.path.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("config"), std::string::npos) << r.err;
}

} // namespace
} // namespace podscope::cli
