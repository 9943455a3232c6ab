#include "CliRunner.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "settings/SettingsMarkdown.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace podscope::cli {
namespace {

using test::Outcome;
using test::runCli;

TEST(Cli, CollectiveJsonHasTheDocumentedFields) {
    const auto r = runCli({"collective", "--topology", "8x4", "--wrap", "y", "--bytes", "1MiB",
                           "--chunks", "2", "--engine", "event", "--verify", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    for (const char* field : {"time_s", "phases", "algbw_GBps", "busbw_GBps", "lower_bound_s",
                              "engine", "events", "wall_s", "max_link_utilization", "verified"}) {
        EXPECT_TRUE(json.contains(field)) << field;
    }
    EXPECT_EQ(json["engine"], "event");
    EXPECT_EQ(json["verified"], true);
    EXPECT_GT(json["events"].get<int>(), 0);
    double phaseSum = 0;
    for (const auto& phase : json["phases"]) {
        phaseSum += phase["time_s"].get<double>();
    }
    EXPECT_NEAR(phaseSum, json["time_s"].get<double>(), 1e-12);
    EXPECT_EQ(json["topology"]["chips"], 32);
}

TEST(Cli, AnalyticAndEventAgreeThroughTheCommandLine) {
    auto time = [](const char* engine) {
        const auto r = runCli({"collective", "--algorithm", "2d", "--bytes", "64MiB", "--chunks",
                               "4", "--engine", engine, "--json"});
        EXPECT_EQ(r.status, 0) << r.err;
        return nlohmann::json::parse(r.out)["time_s"].get<double>();
    };
    EXPECT_NEAR(time("event") / time("analytic"), 1.0, 0.01);
}

TEST(Cli, LinkBandwidthAndLatencyFlagsTakeEffect) {
    auto time = [](std::vector<std::string> extra) {
        std::vector<std::string> args = {"collective", "--topology",  "16",   "--wrap",
                                         "x",          "--algorithm", "ring", "--bytes",
                                         "16000000",   "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = runCli(args);
        EXPECT_EQ(r.status, 0) << r.err;
        return nlohmann::json::parse(r.out)["time_s"].get<double>();
    };
    // 2(p-1)(alpha + S/(pB)) with p = 16.
    EXPECT_NEAR(time({"--link-bw", "100", "--latency-us", "0"}), 30 * 16e6 / 16 / 100e9, 1e-12);
    EXPECT_NEAR(time({"--link-bw", "100", "--latency-us", "2"}), 30 * (2e-6 + 16e6 / 16 / 100e9),
                1e-12);
}

TEST(Cli, TextOutputIsReadable) {
    const auto r = runCli({"collective", "--topology", "tpu-v3-pod", "--verify"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("reduce-scatter along X"), std::string::npos);
    EXPECT_NE(r.out.find("Bus bandwidth"), std::string::npos);
    EXPECT_NE(r.out.find("verified"), std::string::npos);
}

TEST(Cli, BadInputExitsTwoAndNamesTheProblem) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"collective", "--topology", "1000000x1000000"}, "topology"},
        {{"collective", "--topology", "12ax4"}, "topology"},
        {{"collective", "--topology", "no-such-pod"}, "topology"},
        {{"collective", "--bytes", "0"}, "bytes"},
        {{"collective", "--bytes", "-64"}, "bytes"},
        {{"collective", "--bytes", "64XB"}, "bytes"},
        {{"collective", "--chunks", "0"}, "chunks"},
        {{"collective", "--chunks", "100000"}, "chunks"},
        {{"collective", "--chunks", "many"}, "chunks: 'many' is not a whole number"},
        {{"collective", "--op", "broadcast"}, "op"},
        {{"collective", "--algorithm", "tree"}, "algorithm"},
        {{"collective", "--engine", "quantum"}, "engine"},
        {{"collective", "--wrap", "z"}, "wrap"},
        {{"collective", "--link-bw", "0"}, "link-bw"},
        {{"collective", "--link-bw", "nan"}, "link-bw"},
        {{"collective", "--latency-us", "-1"}, "latency-us"},
        {{"collective", "--groups", "within:3x3"}, "groups"},
        {{"collective", "--dim-order", "xx"}, "dim-order"},
        {{"collective", "--element", "int4"}, "element"},
        {{"collective", "--no-such-flag"}, "no-such-flag"},
        {{"no-such-command"}, "no-such-command"},
    };
    for (const auto& [args, named] : cases) {
        const auto r = runCli(args);
        EXPECT_EQ(r.status, 2) << args.back();
        EXPECT_NE(r.err.find(named), std::string::npos) << args.back() << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args.back();
    }
}

TEST(Cli, HelpAndVersionSucceed) {
    EXPECT_EQ(runCli({"--help"}).status, 0);
    const auto help = runCli({"collective", "--help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--algorithm"), std::string::npos);
    const auto version = runCli({"--version"});
    EXPECT_EQ(version.status, 0);
    EXPECT_NE(version.out.find("podscope-cli"), std::string::npos);
}

// The settings table, as docs/settings.md holds it; and the scenario flags of every command that
// takes a configuration come from it (sweep takes lists of chips and batches instead).
TEST(Cli, SettingsListsTheTableAndEveryScenarioCommandTakesItsFlags) {
    const auto markdown = runCli({"settings", "--markdown"});
    EXPECT_EQ(markdown.status, 0);
    EXPECT_EQ(markdown.out, settingsMarkdown());
    const auto text = runCli({"settings"});
    EXPECT_EQ(text.status, 0);
    for (const char* command : {"simulate", "sweep", "trace", "timeline", "layers", "report"}) {
        const auto help = runCli({command, "--help"});
        EXPECT_EQ(help.status, 0) << command;
        for (const Setting& s : scenarioSettings()) {
            EXPECT_NE(text.out.find(std::string(s.key)), std::string::npos) << s.key;
            const bool listed =
                help.out.find("--" + std::string(s.flag) + " ") != std::string::npos;
            const bool list = std::string(command) == "sweep" &&
                              (s.key == "chips" || s.key == "global_batch"); // sweep's own
            EXPECT_TRUE(listed || s.flag.empty()) << command << " --" << s.flag;
            if (listed && !list) {
                EXPECT_NE(help.out.find(settingHelp(s)), std::string::npos)
                    << command << " --" << s.flag;
            }
        }
    }
}

} // namespace
} // namespace podscope::cli
