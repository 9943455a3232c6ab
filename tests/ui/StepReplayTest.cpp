// The step replay's colours, counts and tracks (issue 13), against the step timeline itself.
#include "color/ActivityColors.hpp"
#include "common/InputError.hpp"
#include "demo/DemoScript.hpp"
#include "scene/SceneLayout.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"
#include "view/StepColoring.hpp"
#include "view/StepRun.hpp"
#include "view/TimelineTracks.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace podscope::ui {
namespace {

const StepRun& resnetStep() {
    static const auto run =
        runStep(loadPreset("mlperf07-resnet50-tf-4096").scenario, ReplayKind::Step);
    return *run;
}

TEST(StepReplay, ReplayKindsRoundTripAndUnknownOnesAreRefused) {
    for (ReplayKind kind :
         {ReplayKind::Collective, ReplayKind::Step, ReplayKind::StepWithEvaluation}) {
        EXPECT_EQ(parseReplayKind(toString(kind)), kind);
    }
    try {
        parseReplayKind("whole");
        FAIL() << "accepted an unknown replay";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "replay");
        EXPECT_NE(std::string(e.what()).find("step-eval"), std::string::npos) << e.what();
    }
}

TEST(StepReplay, ActivityColoursAreDistinct) {
    std::set<std::tuple<int, int, int>> colours;
    for (podscope::ChipActivity a : activitiesInLegendOrder()) {
        const Rgb c = activityColor(a);
        colours.insert({c.r, c.g, c.b});
    }
    EXPECT_EQ(colours.size(), static_cast<std::size_t>(kChipActivityCount));
    EXPECT_EQ(activityLegend().categories.size(), static_cast<std::size_t>(kChipActivityCount));
}

// Every chip's colour is the colour of StepTimeline::activityAt at that time, in the middle of
// every item of the step (so forward, backward, gradient sync and the optimizer among them).
TEST(StepReplay, ChipColoursAreTheActivityOfEveryChipAtTheTime) {
    const StepRun& run = resnetStep();
    const SceneGeometry scene = buildScene(run.topology(), LayoutKind::Torus);
    StepColoring coloring(run, scene);
    FrameColors frame;
    std::set<podscope::ChipActivity> seen;
    for (const int index : run.timeline.foreground) {
        const ChipSpan& span = run.timeline.items[static_cast<std::size_t>(index)].common;
        const double t = (span.startS + span.endS) / 2;
        coloring.compute(t, 0, StepLinkColors::TrafficKind, 0, frame);
        ASSERT_EQ(frame.chips.size(), static_cast<std::size_t>(run.topology().chipCount()));
        for (ChipId c = 0; c < run.topology().chipCount(); c += 7) {
            const podscope::ChipActivity a = run.timeline.activityAt(c, t);
            ASSERT_EQ(frame.chips[static_cast<std::size_t>(c)], activityColor(a))
                << "chip " << c << " at " << t;
            seen.insert(a);
        }
        EXPECT_EQ(frame.links.size(), scene.links.size());
        EXPECT_NE(frame.caption.find("chip 0"), std::string::npos) << frame.caption;
    }
    EXPECT_TRUE(seen.count(podscope::ChipActivity::Forward));
    EXPECT_TRUE(seen.count(podscope::ChipActivity::Backward));
    EXPECT_TRUE(seen.count(podscope::ChipActivity::Optimizer));
}

// Links show TimelineLinkUse's traffic kind, or its utilisation on the heat map's scale.
TEST(StepReplay, LinksShowTheTrafficTheLinkUseReports) {
    const StepRun& run = resnetStep();
    const SceneGeometry scene = buildScene(run.topology(), LayoutKind::Grid);
    StepColoring coloring(run, scene);
    FrameColors frame;
    std::vector<podscope::ChipActivity> kinds;
    std::vector<float> use;
    int busy = 0;
    for (int k = 0; k <= 100; ++k) {
        const double t = run.timeline.stepS * k / 100.0;
        coloring.compute(t, 0, StepLinkColors::TrafficKind, 0, frame);
        run.linkUse->kind(t, kinds);
        for (std::size_t i = 0; i < scene.links.size(); i += 13) {
            const podscope::ChipActivity kind = kinds[static_cast<std::size_t>(scene.links[i])];
            if (carriesTraffic(kind)) {
                EXPECT_EQ(frame.links[i], activityColor(kind));
                ++busy;
            } else {
                EXPECT_EQ(frame.links[i], frame.linkLegend.categories.back().second);
            }
        }
        const double window = run.timeline.stepS / 100;
        coloring.compute(t, 0, StepLinkColors::Utilisation, window, frame);
        EXPECT_TRUE(frame.linkLegend.continuous);
        run.linkUse->utilisation(t, window, use);
        for (std::size_t i = 0; i < scene.links.size(); i += 13) {
            EXPECT_EQ(frame.links[i],
                      utilizationColor(use[static_cast<std::size_t>(scene.links[i])]));
        }
    }
    EXPECT_GT(busy, 0) << "no link ever carried traffic during the step";
}

// The panel's counts are the integral of activityAt over each bin: between consecutive span
// boundaries of any chip nothing changes, so the exact integral is the count at each such
// interval's middle times its overlap with the bin.
TEST(StepReplay, ActivityCountsAreTheIntegralOfActivityAt) {
    const StepRun& run = resnetStep();
    const StepTimeline& timeline = run.timeline;
    const int bins = 200;
    const ActivityCounts counts = countActivities(timeline, bins);
    ASSERT_EQ(counts.bins(), bins);
    std::set<double> boundaries{0.0, timeline.stepS};
    for (const int index : timeline.foreground) {
        const TimelineItem& item = timeline.items[static_cast<std::size_t>(index)];
        for (const ChipSpan* span : {&item.common}) {
            boundaries.insert({span->readyS, span->startS, span->endS});
        }
        for (const auto& exception : item.exceptions) {
            boundaries.insert(
                {exception.second.readyS, exception.second.startS, exception.second.endS});
        }
    }
    for (int b = 0; b < bins; ++b) {
        boundaries.insert(b * counts.binS);
    }
    std::vector<double> exact(static_cast<std::size_t>(bins) * kChipActivityCount, 0.0);
    for (auto it = boundaries.begin(); std::next(it) != boundaries.end(); ++it) {
        const double lo = *it, hi = *std::next(it);
        if (hi - lo < 1e-15 || lo >= timeline.stepS) {
            continue;
        }
        const int bin = std::min(static_cast<int>((lo + hi) / 2 / counts.binS), bins - 1);
        for (ChipId c = 0; c < timeline.chips; ++c) {
            const auto a = static_cast<std::size_t>(timeline.activityAt(c, (lo + hi) / 2));
            exact[static_cast<std::size_t>(bin) * kChipActivityCount + a] +=
                (hi - lo) / counts.binS;
        }
    }
    for (int b = 0; b < bins; ++b) {
        for (int a = 0; a < kChipActivityCount; ++a) {
            EXPECT_NEAR(counts.at(b, static_cast<podscope::ChipActivity>(a)),
                        exact[static_cast<std::size_t>(b) * kChipActivityCount +
                              static_cast<std::size_t>(a)],
                        1e-3 * timeline.chips)
                << "bin " << b << " activity "
                << podscope::toString(static_cast<podscope::ChipActivity>(a));
        }
    }
}

// ResNet-50 on four 16-chip v5e slices joined over the data-centre network.
Scenario fourSlicesOf16() {
    Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    s.hardware = "tpu-v5e";
    s.topology = "4x4";
    s.wrap.reset();
    s.slices = 4;
    return s;
}

// Issue 20: a multislice step shows its DCN stage on a track of its own, under the ICI's
// gradient sync, as long as the plan's DCN all-reduce.
TEST(StepReplay, AMultisliceStepShowsTheDcnStageOnItsOwnTrack) {
    const Scenario s = fourSlicesOf16();
    const auto run = runStep(s, ReplayKind::Step);
    const double dcnS = buildStepPlan(s).dcn.seconds();
    ASSERT_GT(dcnS, 0);
    for (const ChipId chip : {ChipId{0}, ChipId{15}}) {
        const auto tracks = buildChipTracks(run->timeline, chip);
        const auto dcn = std::find_if(tracks.begin(), tracks.end(), [](const Track& t) {
            return t.label == "Across slices (DCN)";
        });
        ASSERT_NE(dcn, tracks.end());
        ASSERT_EQ(dcn->spans.size(), 1u);
        const TimelineItem& item =
            run->timeline.items[static_cast<std::size_t>(dcn->spans.front().item)];
        EXPECT_EQ(item.name, "gradient all-reduce across 4 slices (DCN)");
        EXPECT_NEAR(dcn->spans.front().endS - dcn->spans.front().startS, dcnS, 1e-9 + 1e-6 * dcnS);
        const auto ici = std::find_if(tracks.begin(), tracks.end(),
                                      [](const Track& t) { return t.label == "Gradient sync"; });
        ASSERT_NE(ici, tracks.end());
        EXPECT_FALSE(ici->spans.empty());
        for (const TrackSpan& span : ici->spans) {
            EXPECT_NE(run->timeline.items[static_cast<std::size_t>(span.item)].group, "dcn");
        }
        // After the ICI reduce-scatter of the last bucket it waits for.
        EXPECT_GE(dcn->spans.front().startS, ici->spans.front().endS);
    }
    // One slice: no DCN item, the track empty (the panel leaves it out).
    const auto tracks = buildChipTracks(resnetStep().timeline, 0);
    for (const Track& t : tracks) {
        if (!t.group.empty()) {
            EXPECT_TRUE(t.spans.empty()) << t.label;
        }
    }
}

// The 3-D view of a multislice step (issue 20): the slices drawn apart, and their DCN links in
// use exactly while the timeline's DCN stage runs, quiet in every other item of the step.
TEST(StepReplay, DcnLinksAreInUseDuringTheDcnStageOnly) {
    const Scenario s = fourSlicesOf16();
    const auto run = runStep(s, ReplayKind::Step);
    SceneOptions options;
    options.slices = s.slices;
    const SceneGeometry scene = buildScene(run->topology(), LayoutKind::Torus, options);
    ASSERT_FALSE(scene.dcnLinks.empty());
    StepColoring coloring(*run, scene);
    FrameColors frame;
    const Rgb busy = activityColor(podscope::ChipActivity::GradientSync);
    const auto same = [](Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; };
    int dcnItems = 0;
    for (const TimelineItem& item : run->timeline.items) {
        const ChipSpan& span = item.spanOf(0);
        if (span.endS <= span.startS) {
            continue;
        }
        coloring.compute((span.startS + span.endS) / 2, 0, StepLinkColors::TrafficKind, 0, frame);
        const bool dcn = item.group == "dcn";
        dcnItems += dcn ? 1 : 0;
        // Background items (gradient buckets) may overlap the DCN stage; foreground ones never.
        if (dcn || !item.background) {
            EXPECT_EQ(same(frame.dcnLink, busy), dcn) << item.name;
        }
    }
    EXPECT_EQ(dcnItems, 1);
}

// Each track holds exactly the items of its kinds, at the chip's own spans, in lanes that never
// overlap.
TEST(StepReplay, TracksHoldTheChipsSpansInLanesThatDoNotOverlap) {
    const StepRun& run = resnetStep();
    const ChipId chip = 1234;
    const auto tracks = buildChipTracks(run.timeline, chip);
    std::size_t placed = 0;
    for (const Track& track : tracks) {
        for (std::size_t i = 0; i < track.spans.size(); ++i) {
            const TrackSpan& span = track.spans[i];
            const TimelineItem& item = run.timeline.items[static_cast<std::size_t>(span.item)];
            EXPECT_NE(std::find(track.activities.begin(), track.activities.end(), item.activity),
                      track.activities.end());
            EXPECT_EQ(span.startS, item.spanOf(chip).startS);
            EXPECT_EQ(span.endS, item.spanOf(chip).endS);
            EXPECT_LT(span.lane, track.lanes);
            for (std::size_t j = 0; j < i; ++j) {
                if (track.spans[j].lane == span.lane) {
                    EXPECT_LE(track.spans[j].endS, span.readyS) << track.label;
                }
            }
        }
        placed += track.spans.size();
    }
    std::size_t shown = 0;
    for (const auto& item : run.timeline.items) {
        shown += item.activity != podscope::ChipActivity::Idle &&
                 item.activity != podscope::ChipActivity::WaitingAtBarrier;
    }
    EXPECT_EQ(placed, shown);
    EXPECT_FALSE(tracks[1].spans.empty()) << "no compute on the compute track";
    const TrackSpan& first = tracks[1].spans.front();
    EXPECT_EQ(spanAt(tracks[1], (first.startS + first.endS) / 2, 0), &first);
    EXPECT_EQ(spanAt(tracks[1], -1.0, 0), nullptr);
}

} // namespace
} // namespace podscope::ui

namespace podscope::ui {
namespace {

// The distributed-evaluation demo's steps 2 and 3 (synchronous, then overlapped evaluation):
// the replayed step carries the evaluations' share the breakdown charges, so the two replays
// differ as the chart does (issue 23: both showed the same step).
TEST(StepReplay, EvaluationDemoReplaysTheEvaluationTheChartCharges) {
    const DemoScript demo = loadDemo("distributed-evaluation");
    double evaluation[2] = {0, 0}, stepS[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const DemoStep& step = demo.steps[static_cast<std::size_t>(i + 1)];
        SCOPED_TRACE("step " + std::to_string(i + 2));
        ASSERT_EQ(step.replay, ReplayKind::StepWithEvaluation);
        const auto run = runStep(step.scenario, step.replay);
        const TrainingResult analytic = simulateTraining(step.scenario);
        evaluation[i] =
            run->timeline
                .secondsByActivity[static_cast<std::size_t>(podscope::ChipActivity::Evaluating)];
        stepS[i] = run->timeline.stepS;
        EXPECT_NEAR(evaluation[i] / analytic.breakdown.evalAmortized, 1.0, 1e-9);
        EXPECT_NEAR(stepS[i] / analytic.stepTimeS, 1.0, 0.02);
    }
    EXPECT_LT(evaluation[1], 0.9 * evaluation[0]);
    EXPECT_LT(stepS[1], 0.9 * stepS[0]);
}

// The demos' step-replay steps open on their point (issue 13): what chip 0 does at the step's
// time fraction of the replayed step.
TEST(StepReplay, DemoStepsShowTheirPointInTheStepReplay) {
    struct Point {
        const char* demo;
        int step; // 0-based
        ReplayKind replay;
        std::vector<podscope::ChipActivity> shows;
    };
    const std::vector<Point> points = {
        {"input-pipeline", 2, ReplayKind::Step, {podscope::ChipActivity::WaitingForInput}},
        {"weight-update-sharding",
         1,
         ReplayKind::Step,
         {podscope::ChipActivity::GradientSync, podscope::ChipActivity::Optimizer}},
        {"distributed-evaluation",
         0,
         ReplayKind::StepWithEvaluation,
         {podscope::ChipActivity::Evaluating}},
    };
    for (const Point& point : points) {
        const DemoScript demo = loadDemo(point.demo);
        const DemoStep& step = demo.steps[static_cast<std::size_t>(point.step)];
        EXPECT_EQ(step.replay, point.replay) << point.demo;
        const auto run = runStep(step.scenario, step.replay);
        const double t = step.timeFraction * run->timeline.stepS;
        const podscope::ChipActivity a = run->timeline.activityAt(0, t);
        EXPECT_NE(std::find(point.shows.begin(), point.shows.end(), a), point.shows.end())
            << point.demo << " step " << point.step + 1 << " shows " << podscope::toString(a)
            << " at " << step.timeFraction;
    }
    // A step without "replay" inherits the previous step's.
    const DemoScript input = loadDemo("input-pipeline");
    EXPECT_EQ(input.steps[0].replay, ReplayKind::Collective);
    EXPECT_EQ(input.steps[3].replay, ReplayKind::Step);
}

} // namespace
} // namespace podscope::ui
