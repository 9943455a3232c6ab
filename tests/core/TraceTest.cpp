#include "TestTopologies.hpp"
#include "collective/EventEngine.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "trace/CollectiveTrace.hpp"
#include "trace/StepTrace.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

namespace podscope {
namespace {

// Checks what Perfetto and chrome://tracing need of every event, and returns the number of
// counter samples.
int expectValidTrace(const nlohmann::json& trace) {
    EXPECT_TRUE(trace.is_object());
    EXPECT_TRUE(trace.contains("displayTimeUnit"));
    const auto& events = trace.at("traceEvents");
    EXPECT_TRUE(events.is_array());
    std::map<std::pair<int, std::string>, double> lastByTrack;
    int counters = 0;
    for (const auto& e : events) {
        for (const char* key : {"ph", "pid", "tid", "name", "ts"}) {
            EXPECT_TRUE(e.contains(key)) << key << " missing in " << e.dump();
        }
        const std::string ph = e.at("ph");
        const int pid = e.at("pid");
        const double ts = e.at("ts");
        EXPECT_GE(ts, 0.0);
        if (ph == "M") {
            EXPECT_TRUE(e.contains("args"));
            continue;
        }
        // Per track: a thread for spans, a named counter for counters.
        const std::string track = ph == "C" ? "C:" + e.at("name").get<std::string>()
                                            : "T:" + std::to_string(e.at("tid").get<int>());
        const auto key = std::make_pair(pid, track);
        if (lastByTrack.count(key)) {
            EXPECT_LE(lastByTrack[key], ts) << "time goes back on " << track;
        }
        lastByTrack[key] = ts;
        if (ph == "X") {
            EXPECT_TRUE(e.contains("dur"));
            EXPECT_GE(e.value("dur", 0.0), 0.0);
        } else if (ph == "C") {
            ++counters;
            for (const auto& [name, value] : e.at("args").items()) {
                EXPECT_GE(value.get<double>(), 0.0) << name;
                EXPECT_LE(value.get<double>(), 100.0) << name;
            }
        } else {
            ADD_FAILURE() << "unexpected phase " << ph;
        }
    }
    return counters;
}

TEST(Trace, CollectiveHasPhasesGroupsAndCounters) {
    const Topology t = test::grid({8, 8}, {true, true});
    CollectiveSpec spec;
    spec.algorithm = Algorithm::TwoD;
    spec.bytesPerChip = 4e6;
    spec.chunks = 4;
    const EventSimulation run = runEventEngine(t, spec);
    trace::TraceEvents events;
    trace::appendCollectiveTrace(events, t, run.record, {});
    const auto json = nlohmann::json::parse(events.toJson().dump());
    EXPECT_EQ(expectValidTrace(json), 2 * 201); // two dimensions, 200 bins and a closing zero
    bool sawPhase = false;
    double maxUtil = 0;
    for (const auto& e : json.at("traceEvents")) {
        sawPhase = sawPhase || (e.at("ph") == "X" && e.at("tid") == 1);
        if (e.at("ph") == "C") {
            maxUtil = std::max(maxUtil, e.at("args").at("busy").get<double>());
        }
    }
    EXPECT_TRUE(sawPhase);
    EXPECT_GT(maxUtil, 10.0); // an all-reduce keeps its links busy
}

TEST(Trace, MultipodAllReduceIsAggregatedPerPod) {
    const Topology t(resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3")));
    ASSERT_EQ(t.chipCount(), 4096);
    CollectiveSpec spec;
    spec.algorithm = Algorithm::TwoD;
    spec.chunks = 4;
    const EventSimulation run = runEventEngine(t, spec);
    trace::TraceEvents events;
    trace::appendCollectiveTrace(events, t, run.record, {});
    const std::string text = events.toJson().dump();
    EXPECT_LT(text.size(), 50u * 1000 * 1000);
    const auto json = nlohmann::json::parse(text);
    expectValidTrace(json);
    int tracks = 0;
    for (const auto& e : json.at("traceEvents")) {
        tracks += e.at("name") == "thread_name" ? 1 : 0;
    }
    // One phase track and one per pod, never one per chip.
    EXPECT_EQ(tracks, 1 + t.podCount());
    std::cerr << "multipod all-reduce trace: " << text.size() << " bytes\n";
}

TEST(Trace, StepTraceLaysOutTheBreakdownInOrder) {
    Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    const TrainingResult r = simulateTraining(s);
    const auto json = trace::buildStepTrace(s, r);
    expectValidTrace(json);
    double end = 0;
    int steps = 0;
    for (const auto& e : json.at("traceEvents")) {
        if (e.at("ph") == "X" && e.at("pid") == 1) {
            EXPECT_NEAR(e.at("ts").get<double>(), end, 1e-2); // parts follow one another
            end = e.at("ts").get<double>() + e.at("dur").get<double>();
            ++steps;
        }
    }
    EXPECT_GE(steps, 2);
    EXPECT_NEAR(end, r.stepTimeS * 1e6, 1e-2 + 1e-6 * r.stepTimeS * 1e6);
    // The configuration travels with the trace.
    EXPECT_EQ(parseScenario(json.at("otherData").at("scenario").dump(), "trace").workload,
              s.workload);
}

TEST(Trace, MultipodStepStaysUnderFiftyMegabytes) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    s.gradient.algorithm = Algorithm::TwoD;
    s.gradient.chunks = 4;
    const TrainingResult r = simulateTraining(s);
    ASSERT_EQ(r.chips, 4096);
    const std::string text = trace::buildStepTrace(s, r).dump();
    EXPECT_LT(text.size(), 50u * 1000 * 1000);
    const auto json = nlohmann::json::parse(text);
    expectValidTrace(json);
    // The event engine's collective agrees roughly with the analytic one the step uses.
    const double engine = json.at("otherData").at("gradient_sync_event_engine_s");
    EXPECT_NEAR(engine, r.gradientSyncS, 0.5 * r.gradientSyncS);
    std::cerr << "multipod step trace: " << text.size() << " bytes\n";
}

} // namespace
} // namespace podscope
