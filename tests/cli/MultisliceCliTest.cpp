#include "CliRunner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace podscope::cli::test {
namespace {

TEST(MultisliceCli, TwoV3SlicesWithoutADcnBandwidthExitTwoNamingTheMissingFact) {
    const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf2-16", "--slices", "2"});
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.err.find("dcn_GBps_per_host"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--dcn-bw"), std::string::npos) << r.err;
}

TEST(MultisliceCli, SimulateAndTimelineReportTheDcnStage) {
    const auto one = runCli({"simulate", "--preset", "mlperf07-resnet50-tf2-16", "--json"});
    ASSERT_EQ(one.status, 0) << one.err;
    const auto oneJson = nlohmann::json::parse(one.out);
    EXPECT_FALSE(oneJson.contains("multislice"));

    const auto two = runCli({"simulate", "--preset", "mlperf07-resnet50-tf2-16", "--slices", "2",
                             "--dcn-bw", "12.5", "--json"});
    ASSERT_EQ(two.status, 0) << two.err;
    const auto j = nlohmann::json::parse(two.out);
    EXPECT_EQ(j.at("multislice").at("slices"), 2);
    EXPECT_EQ(j.at("multislice").at("replicas_per_slice"),
              oneJson.at("parallelism").at("replicas"));
    EXPECT_EQ(j.at("chips"), 2 * oneJson.at("chips").get<int>());
    EXPECT_GT(j.at("dcn_sync_s").get<double>(), 0);

    const auto timeline = runCli({"timeline", "--preset", "mlperf07-resnet50-tf2-16", "--slices",
                                  "2", "--dcn-bw", "12.5", "--json"});
    ASSERT_EQ(timeline.status, 0) << timeline.err;
    const auto t = nlohmann::json::parse(timeline.out);
    EXPECT_DOUBLE_EQ(t.at("multislice").at("dcn_sync_s").get<double>(),
                     j.at("dcn_sync_s").get<double>());
}

TEST(MultisliceCli, NonPositiveDcnBandwidthExitsTwo) {
    const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf2-16", "--slices", "2",
                           "--dcn-bw", "0"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("dcn"), std::string::npos) << r.err;
}

} // namespace
} // namespace podscope::cli::test
