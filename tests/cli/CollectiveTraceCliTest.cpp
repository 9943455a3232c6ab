// `podscope-cli collective --trace`: the event engine's timeline as a Chrome trace.
#include "CliRunner.hpp"
#include "ScratchDir.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace podscope::cli {
namespace {

namespace fs = std::filesystem;

using podscope::test::readFile;
using podscope::test::ScratchDir;
using test::runCli;

void expectChromeTrace(const nlohmann::json& json) {
    ASSERT_TRUE(json.at("traceEvents").is_array());
    std::set<std::string> phases;
    for (const auto& event : json.at("traceEvents")) {
        for (const char* key : {"ph", "pid", "name"}) {
            ASSERT_TRUE(event.contains(key)) << event.dump();
        }
        const std::string ph = event.at("ph");
        phases.insert(ph);
        if (ph == "X" || ph == "C") {
            EXPECT_TRUE(event.contains("ts")) << event.dump();
        }
        if (ph == "X") {
            EXPECT_TRUE(event.contains("tid")) << event.dump();
            EXPECT_GE(event.at("dur").get<double>(), 0.0);
        }
    }
    EXPECT_TRUE(phases.count("X")) << "no spans";
    EXPECT_TRUE(phases.count("C")) << "no counters";
}

TEST(CollectiveTraceCli, WritesTheEventEngineTimelineWithItsConfiguration) {
    ScratchDir dir;
    const auto file = (dir.path / "allreduce.json").string();
    const auto r = runCli({"collective", "--topology", "16x16", "--wrap", "xy", "--bytes", "4MiB",
                           "--chunks", "2", "--engine", "event", "--trace", file});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(file), std::string::npos) << r.out;
    const auto json = nlohmann::json::parse(readFile(file));
    expectChromeTrace(json);
    const auto& other = json.at("otherData");
    EXPECT_EQ(other.at("collective").at("chunks"), 2);
    EXPECT_TRUE(other.at("topology").contains("dims")) << other.dump();
}

TEST(CollectiveTraceCli, TheAnalyticEngineStillTracesTheEventRecordAndJsonStaysOneObject) {
    ScratchDir dir;
    const auto file = (dir.path / "t.json").string();
    const auto r = runCli(
        {"collective", "--topology", "tpu-v3-pod", "--bytes", "1MiB", "--json", "--trace", file});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("engine"), "analytic");
    expectChromeTrace(nlohmann::json::parse(readFile(file)));
}

TEST(CollectiveTraceCli, AnUnwritablePathExitsTwoNamingTraceAndKeepsOldFiles) {
    ScratchDir dir;
    auto r = runCli({"collective", "--topology", "16x16", "--engine", "event", "--trace",
                     (dir.path / "missing" / "t.json").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("trace"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path / "missing"));

    const auto old = dir.path / "old.json";
    std::ofstream(old) << "old";
    r = runCli({"collective", "--topology", "16x16", "--chunks", "0", "--trace", old.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(readFile(old), "old");
}

} // namespace
} // namespace podscope::cli
