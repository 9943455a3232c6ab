#include "CliRunner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace podscope::cli::test {
namespace {

// "3.130 ms" and the like, as the text prints durations, in seconds.
double seconds(const std::string& number, const std::string& unit) {
    const double value = std::stod(number);
    return unit == "s" ? value : unit == "ms" ? value * 1e-3 : value * 1e-6;
}

double bytes(const std::string& number, const std::string& unit) {
    const double value = std::stod(number);
    const double scale = unit == "GiB"   ? 1024.0 * 1024 * 1024
                         : unit == "MiB" ? 1024.0 * 1024
                         : unit == "KiB" ? 1024.0
                                         : 1.0;
    return value * scale;
}

// The DCN stage as the text prints it: time, bytes per host, bandwidth per host, rate in use.
struct DcnLines {
    bool found = false;
    double seconds = 0, bytesPerHost = 0, sentPerHost = 0, bandwidthGBps = 0, inUseGBps = 0;
    int slices = 0;
    std::string source;
};

DcnLines dcnLines(const std::string& text) {
    static const std::regex stage(
        "DCN stage +([0-9.]+) (µs|ms|s) per step: all-reduce of ([0-9.]+) (B|KiB|MiB|GiB) per host "
        "across ([0-9]+) slices \\(ring sends ([0-9.]+) (B|KiB|MiB|GiB) per host\\)\n +DCN "
        "bandwidth ([0-9.]+) GB/s per host \\(([^)]*)\\), ([0-9.]+) GB/s in use over the stage");
    std::smatch m;
    DcnLines d;
    if (!std::regex_search(text, m, stage)) {
        return d;
    }
    d.found = true;
    d.seconds = seconds(m[1], m[2]);
    d.bytesPerHost = bytes(m[3], m[4]);
    d.slices = std::stoi(m[5]);
    d.sentPerHost = bytes(m[6], m[7]);
    d.bandwidthGBps = std::stod(m[8]);
    d.source = m[9];
    d.inUseGBps = std::stod(m[10]);
    return d;
}

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

TEST(MultisliceCli, SimulateTextShowsTheDcnStageOnlyForSeveralSlices) {
    const std::vector<std::string> v5e = {"simulate",   "--preset", "mlperf07-resnet50-tf2-16",
                                          "--hardware", "tpu-v5e",  "--topology",
                                          "4x4"};
    const auto one = runCli(v5e);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(one.out.find("DCN"), std::string::npos) << one.out;
    EXPECT_EQ(one.out.find("Multislice"), std::string::npos) << one.out;

    auto args = v5e;
    args.insert(args.end(), {"--slices", "4"});
    const auto four = runCli(args);
    ASSERT_EQ(four.status, 0) << four.err;
    EXPECT_NE(
        four.out.find(
            "Multislice     4 slices of 16 chips (64 in all), 16 replicas per slice (64 in all)"),
        std::string::npos)
        << four.out;
    const DcnLines d = dcnLines(four.out);
    ASSERT_TRUE(d.found) << four.out;
    EXPECT_EQ(d.slices, 4);
    EXPECT_EQ(d.source, "the machine file's");
    EXPECT_DOUBLE_EQ(d.bandwidthGBps, 25); // resources/machines/tpu-v5e.json
    // A ring across S slices sends 2(S-1)/S of each host's bytes.
    EXPECT_NEAR(d.sentPerHost / d.bytesPerHost, 1.5, 0.01);
    // Bandwidth-bound: the rate in use is the host's DCN bandwidth, less the ring steps' latency.
    EXPECT_LE(d.inUseGBps, d.bandwidthGBps);
    EXPECT_GT(d.inUseGBps, 0.9 * d.bandwidthGBps);

    args.push_back("--json");
    const auto json = nlohmann::json::parse(runCli(args).out);
    EXPECT_NEAR(d.seconds, json.at("dcn_sync_s").get<double>(), 5e-4 * d.seconds);
    // The bytes per host are the timeline's, and each host all-reduces its chips' shards of the
    // gradients: one host's share of the slice's chips.
    auto timelineArgs = args;
    timelineArgs[0] = "timeline";
    const auto t = nlohmann::json::parse(runCli(timelineArgs).out);
    EXPECT_NEAR(d.bytesPerHost, t.at("multislice").at("dcn_bytes_per_host").get<double>(),
                0.005 * d.bytesPerHost);

    // Half the bandwidth, given: twice the time of a bandwidth-bound stage.
    auto given = v5e;
    given.insert(given.end(), {"--slices", "4", "--dcn-bw", "12.5"});
    const auto slow = runCli(given);
    ASSERT_EQ(slow.status, 0) << slow.err;
    const DcnLines h = dcnLines(slow.out);
    ASSERT_TRUE(h.found) << slow.out;
    EXPECT_EQ(h.source, "given");
    EXPECT_DOUBLE_EQ(h.bandwidthGBps, 12.5);
    EXPECT_NEAR(h.seconds / d.seconds, 2, 0.05); // the ring steps' latency stays
    EXPECT_NEAR(h.bytesPerHost, d.bytesPerHost, 0.005 * d.bytesPerHost);
}

TEST(MultisliceCli, TimelineTextShowsTheDcnStage) {
    const auto r = runCli({"timeline", "--preset", "mlperf07-resnet50-tf2-16", "--hardware",
                           "tpu-v5e", "--topology", "4x4", "--slices", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Multislice     2 slices of 16 chips stepping alike"), std::string::npos)
        << r.out;
    const DcnLines d = dcnLines(r.out);
    ASSERT_TRUE(d.found) << r.out;
    EXPECT_EQ(d.slices, 2);
    // Two slices: the ring sends each host's bytes once.
    EXPECT_NEAR(d.sentPerHost / d.bytesPerHost, 1, 0.01);
    const auto one = runCli({"timeline", "--preset", "mlperf07-resnet50-tf2-16", "--hardware",
                             "tpu-v5e", "--topology", "4x4"});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(one.out.find("DCN"), std::string::npos) << one.out;
}

TEST(MultisliceCli, NonPositiveDcnBandwidthExitsTwo) {
    const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf2-16", "--slices", "2",
                           "--dcn-bw", "0"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("dcn"), std::string::npos) << r.err;
}

} // namespace
} // namespace podscope::cli::test
