// The step timeline as a Chrome trace (issue 13): it follows the trace format's rules, its
// spans are causal per chip, and a slow chip's trace shows its group waiting for it.
#include "trace/TimelineTrace.hpp"

#include "ChromeTraceSchema.hpp"
#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "timeline/StepTimeline.hpp"
#include "training/Presets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>

namespace podscope {
namespace {

// The plan built once and handed to the timeline, as a command does.
StepTimeline timelineOf(const Scenario& s, const TimelineOptions& o = {}) {
    return simulateStepTimeline(s, buildStepPlan(s), o);
}

using nlohmann::json;

Scenario preset(const std::string& name) {
    return loadPreset(name).scenario;
}

// The process named `name` (pid), or -1.
int pidOf(const json& trace, const std::string& name) {
    for (const auto& e : trace.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "process_name" &&
            e.at("args").at("name") == name) {
            return e.at("pid");
        }
    }
    return -1;
}

std::map<int, std::string> threadNames(const json& trace, int pid) {
    std::map<int, std::string> names;
    for (const auto& e : trace.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "thread_name" && e.at("pid") == pid) {
            names[e.at("tid").get<int>()] = e.at("args").at("name");
        }
    }
    return names;
}

std::vector<json> spansOf(const json& trace, int pid) {
    std::vector<json> spans;
    for (const auto& e : trace.at("traceEvents")) {
        if (e.at("ph") == "X" && e.at("pid") == pid) {
            spans.push_back(e);
        }
    }
    return spans;
}

// Times in integer nanoseconds, as Perfetto reads them.
std::int64_t startNs(const json& span) {
    return std::llround(span.at("ts").get<double>() * 1000);
}
std::int64_t endNs(const json& span) {
    return startNs(span) + std::llround(span.at("dur").get<double>() * 1000);
}

struct Traced {
    Scenario scenario;
    StepTimeline timeline;
    json trace;
};

Traced traced(const Scenario& scenario, const TimelineOptions& options,
              const trace::TimelineTraceOptions& traceOptions = {}) {
    Traced t{scenario, {}, {}};
    t.timeline = timelineOf(t.scenario, options);
    // Through text, as a file would be read.
    t.trace = json::parse(
        trace::buildTimelineTrace(t.scenario, buildStepPlan(t.scenario), t.timeline, traceOptions)
            .dump());
    return t;
}

TEST(TimelineTrace, FollowsTheChromeTraceSchemaInMicroseconds) {
    const Traced t = traced(preset("mlperf07-resnet50-tf-4096"), {});
    const auto counts = test::expectChromeTraceSchema(t.trace);
    // Forward and backward of every layer, for chip 0 at least.
    EXPECT_GT(counts.spans, 2 * static_cast<int>(buildStepPlan(t.scenario).layers.size()));
    EXPECT_GE(counts.processes, 2);
    // Chip 0's step span lasts the step, in microseconds.
    const int chip0 = pidOf(t.trace, "chip 0");
    ASSERT_GT(chip0, 0);
    bool sawStep = false;
    for (const json& span : spansOf(t.trace, chip0)) {
        if (span.at("name") == "training step") {
            sawStep = true;
            EXPECT_NEAR(span.at("dur").get<double>(), t.timeline.items.back().spanOf(0).endS * 1e6,
                        2e-3);
            EXPECT_NEAR(span.at("dur").get<double>(), t.timeline.stepS * 1e6, 2e-3);
        }
    }
    EXPECT_TRUE(sawStep);
    // Compute is shown by layer group, and the layer's FLOPs travel with its span.
    const auto tracks = threadNames(t.trace, chip0);
    std::set<std::string> names;
    for (const auto& [tid, name] : tracks) {
        names.insert(name);
    }
    EXPECT_TRUE(names.count("compute: group1")) << testing::PrintToString(names);
    EXPECT_TRUE(names.count("batch-norm sums"));
    EXPECT_TRUE(names.count("optimizer"));
    EXPECT_TRUE(names.count("input (waiting for the host's batch)") || names.size() > 5);
    int forward = 0;
    for (const json& span : spansOf(t.trace, chip0)) {
        if (span.at("args").value("activity", "") == "forward") {
            ++forward;
            EXPECT_TRUE(span.at("args").contains("layer"));
            EXPECT_GE(span.at("args").at("flops_per_core").get<double>(), 0.0);
        }
    }
    EXPECT_EQ(forward, static_cast<int>(buildStepPlan(t.scenario).layers.size()));
    // The aggregated counters count chips: at the start of the step every chip does something.
    const int all = pidOf(t.trace, "all chips aggregated (4096 chips)");
    ASSERT_GT(all, 0);
    bool first = true;
    for (const auto& e : t.trace.at("traceEvents")) {
        if (e.at("ph") == "C" && e.at("pid") == all) {
            double chips = 0;
            for (const auto& [key, value] : e.at("args").items()) {
                chips += value.get<double>();
            }
            EXPECT_LE(chips, 4096 * (1 + 1e-9));
            if (first) {
                EXPECT_NEAR(chips, 4096, 1e-6);
                first = false;
            }
        }
    }
    EXPECT_FALSE(first);
}

// Per chip, in the trace: a layer's backward starts after its forward ends, and a gradient
// bucket starts after the backward of the layer that makes it ready (bucketed overlap, the
// buckets sharing the links).
TEST(TimelineTrace, SpansAreCausalPerChip) {
    TimelineOptions o;
    o.slowChip = 7;
    o.slowChipFactor = 1.3;
    for (const char* name : {"mlperf07-resnet50-tf-4096", "mlperf07-bert-jax-4096"}) {
        SCOPED_TRACE(name);
        Scenario s = preset(name);
        s.gradient.overlap = GradientOverlap::Bucketed;
        const Traced t = traced(s, o);
        test::expectChromeTraceSchema(t.trace);
        for (const std::string process : {"chip 0", "slowest chip (chip 7)"}) {
            SCOPED_TRACE(process);
            const int pid = pidOf(t.trace, process);
            ASSERT_GT(pid, 0);
            const auto tracks = threadNames(t.trace, pid);
            std::map<std::string, std::int64_t> forwardEnd, backwardEnd;
            int buckets = 0;
            // Spans are written in the plan's order, which the checks follow.
            for (const json& span : spansOf(t.trace, pid)) {
                const auto& args = span.at("args");
                const std::string activity = args.value("activity", "");
                const std::string layer = args.value("layer", "");
                const std::int64_t start = startNs(span);
                if (activity == "forward") {
                    forwardEnd[layer] = endNs(span);
                } else if (activity == "backward") {
                    ASSERT_TRUE(forwardEnd.count(layer)) << layer;
                    EXPECT_GE(start, forwardEnd.at(layer)) << layer;
                    backwardEnd[layer] = endNs(span);
                }
                if (tracks.at(span.at("tid")) == "gradient buckets (under the backward pass)") {
                    ++buckets;
                    ASSERT_TRUE(backwardEnd.count(layer)) << span.dump();
                    EXPECT_GE(start, backwardEnd.at(layer)) << span.dump();
                }
            }
            EXPECT_GT(buckets, 0);
            // Every layer runs forward; every layer that takes a gradient, backward (an input
            // relayout takes none).
            const StepPlan plan = buildStepPlan(s);
            const auto withBackward =
                std::count_if(plan.layers.begin(), plan.layers.end(),
                              [](const LayerCost& layer) { return layer.backward.seconds > 0; });
            EXPECT_EQ(forwardEnd.size(), plan.layers.size());
            EXPECT_EQ(backwardEnd.size(), static_cast<std::size_t>(withBackward));
        }
    }
}

// Chip 5 computes twice as slowly: the trace shows the chips of its batch-norm group waiting for
// it at the first batch-norm sum, and a chip outside its group not waiting there.
TEST(TimelineTrace, ASlowChipsGroupWaitsForItAtItsBarriers) {
    const Scenario s = preset("mlperf07-resnet50-tf-4096");
    const StepPlan plan = buildStepPlan(s);
    GroupLayout tile;
    tile.kind = GroupLayout::Kind::WithinTile;
    tile.tile = {2, 2};
    ChipId member = -1, outsider = -1;
    for (ChipId c = 0; c < 4096 && (member < 0 || outsider < 0); ++c) {
        const bool same = groupOf(plan.topology, tile, c) == groupOf(plan.topology, tile, 5);
        if (same && c != 5 && member < 0) {
            member = c;
        }
        if (!same && c != 0 && outsider < 0) {
            outsider = c;
        }
    }
    TimelineOptions o;
    o.slowChip = 5;
    o.slowChipFactor = 2;
    trace::TimelineTraceOptions to;
    to.chips = {member, outsider};
    const Traced t = traced(s, o, to);
    test::expectChromeTraceSchema(t.trace);
    EXPECT_EQ(t.trace.at("otherData").at("slowest_chip"), 5);
    std::string firstBatchNorm;
    for (const TimelineItem& item : t.timeline.items) {
        if (item.activity == ChipActivity::BatchNormSync) {
            firstBatchNorm = item.name;
            break;
        }
    }
    ASSERT_FALSE(firstBatchNorm.empty());
    const auto waitedAt = [&](const std::string& process) {
        std::map<std::string, double> waits;
        const int pid = pidOf(t.trace, process);
        EXPECT_GT(pid, 0) << process;
        for (const json& span : spansOf(t.trace, pid)) {
            const std::string name = span.at("name");
            if (name.rfind("waiting: ", 0) == 0) {
                waits[span.at("args").at("for")] += span.at("dur").get<double>();
            }
        }
        return waits;
    };
    const auto memberWaits = waitedAt("chip " + std::to_string(member));
    const auto outsiderWaits = waitedAt("chip " + std::to_string(outsider));
    const auto slowWaits = waitedAt("slowest chip (chip 5)");
    ASSERT_TRUE(memberWaits.count(firstBatchNorm));
    // It waited what chip 5's extra forward time was up to there (the stem's forward).
    EXPECT_GT(memberWaits.at(firstBatchNorm), 1.0); // µs
    EXPECT_FALSE(outsiderWaits.count(firstBatchNorm));
    EXPECT_FALSE(slowWaits.count(firstBatchNorm));
    // The whole multipod sums the gradients together: the outsider waits for chip 5 there.
    double outsiderTotal = 0;
    for (const auto& [item, us] : outsiderWaits) {
        outsiderTotal += us;
    }
    double slowTotal = 0;
    for (const auto& [item, us] : slowWaits) {
        slowTotal += us;
    }
    EXPECT_GT(outsiderTotal, 100.0) << testing::PrintToString(outsiderWaits);
    EXPECT_LT(slowTotal, outsiderTotal);
}

// The link counters (TimelineLinkUse) show gradient traffic exactly while a gradient exchange
// runs, and busy links then.
TEST(TimelineTrace, LinkCountersShowTrafficWhileExchangesRun) {
    Scenario s = preset("mlperf07-resnet50-tf-4096");
    s.gradient.overlap = GradientOverlap::Bucketed;
    const Traced t = traced(s, {});
    test::expectChromeTraceSchema(t.trace);
    const int all = pidOf(t.trace, "all chips aggregated (4096 chips)");
    std::vector<std::pair<double, double>> gradientSpans; // µs, most chips'
    for (const TimelineItem& item : t.timeline.items) {
        if (item.activity == ChipActivity::GradientSync && item.exchange >= 0) {
            gradientSpans.emplace_back(item.common.startS * 1e6, item.common.endS * 1e6);
        }
    }
    ASSERT_GT(gradientSpans.size(), 2u);
    const double binUs = t.timeline.stepS * 1e6 / 200;
    double peak = 0, busiest = 0;
    int samples = 0;
    for (const auto& e : t.trace.at("traceEvents")) {
        if (e.at("ph") != "C" || e.at("pid") != all) {
            continue;
        }
        const double ts = e.at("ts");
        if (e.at("name") == "busiest link (% of its capacity)") {
            busiest = std::max(busiest, e.at("args").at("utilisation").get<double>());
            EXPECT_LE(e.at("args").at("utilisation").get<double>(), 100.0 + 1e-9);
        }
        if (e.at("name") != "link use by traffic kind (% of all links' capacity)") {
            continue;
        }
        ++samples;
        const double gradient = e.at("args").at("gradient sync");
        EXPECT_GE(gradient, 0.0);
        EXPECT_LE(gradient, 100.0 + 1e-9);
        peak = std::max(peak, gradient);
        if (gradient > 0) {
            const bool during =
                std::any_of(gradientSpans.begin(), gradientSpans.end(), [&](const auto& span) {
                    return span.first < ts + binUs && span.second > ts;
                });
            EXPECT_TRUE(during) << "gradient traffic at " << ts
                                << " µs without a gradient exchange";
        }
    }
    EXPECT_EQ(samples, 201);
    EXPECT_GT(peak, 10.0);
    EXPECT_GT(busiest, 50.0);
}

TEST(TimelineTrace, RefusesChipsThatDoNotExist) {
    const Scenario s = preset("mlperf07-resnet50-tf2-16");
    const StepTimeline t = timelineOf(s);
    trace::TimelineTraceOptions o;
    o.chips = {16};
    EXPECT_THROW(trace::buildTimelineTrace(s, buildStepPlan(s), t, o), InputError);
    o.chips = {};
    o.timeBins = 5;
    EXPECT_THROW(trace::buildTimelineTrace(s, buildStepPlan(s), t, o), InputError);
}

} // namespace
} // namespace podscope
