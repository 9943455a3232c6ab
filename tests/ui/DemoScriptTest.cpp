// Demo scripts (issue 8): the bundled demos load and keep their promises; a malformed script is
// refused with a message naming the step and the field.
#include "demo/CaptionFields.hpp"
#include "demo/DemoScript.hpp"
#include "figure/FigureData.hpp"
#include "view/TrainingAnalysis.hpp"
#include "common/InputError.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "collective/AnalyticEngine.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include "ScratchDir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace podscope::ui {
namespace {

using nlohmann::json;

// The field and message of the InputError that parsing `script` throws.
std::pair<std::string, std::string> refusal(const json& script) {
    try {
        parseDemoScript(script.dump(2), "test.json");
    } catch (const InputError& e) {
        return {e.field(), e.what()};
    }
    ADD_FAILURE() << "accepted: " << script.dump();
    return {};
}

json validScript() {
    return json::parse(R"({
        "name": "test", "title": "A test", "summary": "Two steps.",
        "steps": [
            {"title": "one", "caption": "{chips} chips", "chart": "scaling",
             "scenario": {"preset": "mlperf07-resnet50-tf-4096", "chips": 64, "global_batch": 1024}},
            {"title": "two", "caption": "batch {global_batch}", "scenario": {"global_batch": 2048}}
        ]})");
}

TEST(DemoScript, BundledDemosCoverTheTopicsInMenuOrder) {
    const std::vector<std::string> expected{"ring-allreduce",         "twod-allreduce", "batch-limit",
                                            "model-parallelism",      "weight-update-sharding",
                                            "input-pipeline",         "distributed-evaluation",
                                            "tori-2d-3d"};
    EXPECT_EQ(bundledDemoNames(), expected);
}

TEST(DemoScript, EveryBundledDemoEndsAtFullScaleOnTheMultipod) {
    for (const auto& name : bundledDemoNames()) {
        SCOPED_TRACE(name);
        const DemoScript demo = loadDemo(name);
        EXPECT_EQ(demo.name, name);
        ASSERT_GE(demo.steps.size(), 4u);
        EXPECT_FALSE(demo.sources.empty());
        const DemoStep& last = demo.steps.back();
        EXPECT_TRUE(last.fullScale);
        EXPECT_EQ(simulateTraining(last.scenario).chips, 4096);
        // The small steps come first: the demo starts where the eye can follow.
        EXPECT_FALSE(demo.steps.front().fullScale);
        EXPECT_LT(simulateTraining(demo.steps.front().scenario).chips, 4096);
        for (const auto& step : demo.steps) {
            // All filled but the replay clock, which the panel fills once the replay runs.
            std::string caption = step.caption;
            for (std::size_t at; (at = caption.find(kReplayClockField)) != std::string::npos;) {
                caption.erase(at, std::string(kReplayClockField).size());
            }
            EXPECT_EQ(caption.find('{'), std::string::npos) << step.caption;
            EXPECT_FALSE(step.title.empty());
        }
    }
}

TEST(DemoScript, RingDemoShowsDataBlocksOnEightChipsThenTheBidirectionalRing) {
    const DemoScript demo = loadDemo("ring-allreduce");
    ASSERT_TRUE(demo.steps[0].dataBlocks);
    EXPECT_EQ(simulateTraining(demo.steps[0].scenario).chips, 8);
    EXPECT_EQ(demo.steps[0].scenario.gradient.algorithm, Algorithm::Ring);
    EXPECT_EQ(demo.steps[3].scenario.gradient.algorithm, Algorithm::BidirRing);
    // "Twice as fast": the bidirectional ring moves half the data per direction, so its time on
    // the links halves; the sum of the chip's two cores (through HBM) stays.
    auto linkTime = [](const Scenario& s) {
        const Topology topology = scenarioTopology(s);
        return runAnalytic(topology, gradientCollectives(s).front()).timeS;
    };
    EXPECT_NEAR(linkTime(demo.steps[2].scenario) / linkTime(demo.steps[3].scenario), 2.0, 0.1);
    const double ring = simulateTraining(demo.steps[2].scenario).gradientSyncS;
    const double bidir = simulateTraining(demo.steps[3].scenario).gradientSyncS;
    EXPECT_GT(ring / bidir, 1.5);
}

TEST(DemoScript, TwoDDemoShowsTheWrappedDimensionFirstIsFaster) {
    const DemoScript demo = loadDemo("twod-allreduce");
    const auto& lineFirst = demo.steps[3];
    const auto& ringFirst = demo.steps[4];
    EXPECT_EQ(lineFirst.scenario.gradient.dimOrder, "xy");
    EXPECT_EQ(ringFirst.scenario.gradient.dimOrder, "yx");
    // The titles say which dimension goes first, as the captions and the replay do.
    EXPECT_NE(lineFirst.title.find("line goes first"), std::string::npos) << lineFirst.title;
    EXPECT_NE(ringFirst.title.find("first"), std::string::npos) << ringFirst.title;
    EXPECT_LT(simulateTraining(ringFirst.scenario).gradientSyncS, simulateTraining(lineFirst.scenario).gradientSyncS);
    // The mesh (folded lines) is slower than the torus.
    EXPECT_GT(simulateTraining(demo.steps[2].scenario).gradientSyncS,
              simulateTraining(demo.steps[1].scenario).gradientSyncS);
}

TEST(DemoScript, InputDemoTurnsInputBoundAndBack) {
    const DemoScript demo = loadDemo("input-pipeline");
    EXPECT_EQ(simulateTraining(demo.steps[0].scenario).input.hosts, 1);
    EXPECT_FALSE(simulateTraining(demo.steps[0].scenario).input.inputBound);
    EXPECT_TRUE(simulateTraining(demo.steps[2].scenario).input.inputBound);
    EXPECT_FALSE(simulateTraining(demo.steps.back().scenario).input.inputBound);
}

TEST(DemoScript, EvaluationDemoOverlapsTheEvaluation) {
    const DemoScript demo = loadDemo("distributed-evaluation");
    const TrainingResult sync = simulateTraining(demo.steps[1].scenario);
    const TrainingResult async = simulateTraining(demo.steps[2].scenario);
    EXPECT_EQ(sync.bottleneck, "eval");
    EXPECT_LT(async.timeToTrainS, sync.timeToTrainS);
    EXPECT_GT(simulateTraining(demo.steps[3].scenario).evaluations, simulateTraining(demo.steps[4].scenario).evaluations);
}

// The before/after pairs of the bundled demos: the step compares with the one before, and the
// pair differs where the caption says it does.
TEST(DemoScript, BeforeAndAfterStepsCompareWithThePreviousStep) {
    struct Pair {
        const char* demo;
        int after; // 0-based
        double StepBreakdown::*part;
    };
    for (const Pair& pair : {Pair{"weight-update-sharding", 1, &StepBreakdown::optimizer},
                             Pair{"weight-update-sharding", 3, &StepBreakdown::optimizer},
                             Pair{"distributed-evaluation", 2, &StepBreakdown::evalAmortized},
                             Pair{"distributed-evaluation", 4, &StepBreakdown::evalAmortized},
                             Pair{"input-pipeline", 5, &StepBreakdown::inputStall}}) {
        SCOPED_TRACE(std::string(pair.demo) + " step " + std::to_string(pair.after + 1));
        const DemoScript demo = loadDemo(pair.demo);
        const auto after = static_cast<std::size_t>(pair.after);
        EXPECT_TRUE(demo.steps[after].compareWithPrevious);
        EXPECT_FALSE(demo.steps[after - 1].compareWithPrevious); // not inherited
        EXPECT_EQ(demo.steps[after].chart, ChartKind::Breakdown);
        const StepBreakdown before = simulateTraining(demo.steps[after - 1].scenario).breakdown;
        const StepBreakdown now = simulateTraining(demo.steps[after].scenario).breakdown;
        EXPECT_LT(now.*pair.part, 0.9 * (before.*pair.part));
        EXPECT_LT(now.total(), before.total());
    }
}

// Each step's point in the step's own result: where the caption says a quantity changes from
// the step before, it does, the way the caption says (issue 23: steps whose pictures were the
// same). The quantities are read from the results, not from the captions' text.
TEST(DemoScript, EachStepChangesWhatItsCaptionSaysChanges) {
    using Quantity = double (*)(const TrainingResult&);
    struct Change {
        const char* demo;
        int step; // 0-based; compared with step - 1
        const char* what;
        Quantity quantity;
        int direction; // +1 rises, -1 falls
    };
    const Quantity perCore = [](const TrainingResult& r) { return r.plan.examplesPerCore; };
    const Quantity efficiency = [](const TrainingResult& r) { return r.computeEfficiency; };
    const Quantity evalShare = [](const TrainingResult& r) { return r.breakdown.evalAmortized / r.stepTimeS; };
    const Quantity eval = [](const TrainingResult& r) { return r.breakdown.evalAmortized; };
    const Quantity evaluations = [](const TrainingResult& r) { return static_cast<double>(r.evaluations); };
    const Quantity capacity = [](const TrainingResult& r) { return r.input.capacityExamplesPerSPerHost; };
    const Quantity stall = [](const TrainingResult& r) { return r.breakdown.inputStall; };
    const Quantity sync = [](const TrainingResult& r) { return r.gradientSyncS; };
    const Quantity optimizer = [](const TrainingResult& r) { return r.breakdown.optimizer; };
    const Quantity halo = [](const TrainingResult& r) { return r.breakdown.modelParallelComm; };
    const Quantity replicas = [](const TrainingResult& r) { return static_cast<double>(r.plan.replicas); };
    const std::vector<Change> changes{
        {"batch-limit", 1, "examples per core (four times the chips)", perCore, -1},
        {"batch-limit", 1, "efficiency falls", efficiency, -1},
        {"batch-limit", 2, "one example per core", perCore, -1},
        {"batch-limit", 2, "efficiency", efficiency, -1},
        {"distributed-evaluation", 1, "evaluation's share of the step", evalShare, +1},
        {"distributed-evaluation", 2, "overlapped evaluation", eval, -1},
        {"distributed-evaluation", 4, "the rules' cadence", evaluations, -1},
        {"input-pipeline", 1, "a smaller host", capacity, -1},
        {"input-pipeline", 2, "8 cores", capacity, -1},
        {"input-pipeline", 2, "the chips wait", stall, +1},
        {"model-parallelism", 1, "halo exchange", halo, +1},
        {"model-parallelism", 1, "replicas", replicas, -1},
        {"model-parallelism", 2, "four partitions", replicas, -1},
        {"model-parallelism", 3, "eight partitions", replicas, -1},
        {"ring-allreduce", 3, "the bidirectional ring", sync, -1},
        {"twod-allreduce", 2, "folded lines", sync, +1},
        {"twod-allreduce", 4, "the wrapped dimension first", sync, -1},
        {"weight-update-sharding", 1, "sharded update", optimizer, -1},
    };
    for (const Change& change : changes) {
        SCOPED_TRACE(std::string(change.demo) + " step " + std::to_string(change.step + 1) + ": " + change.what);
        const DemoScript demo = loadDemo(change.demo);
        ASSERT_LT(static_cast<std::size_t>(change.step), demo.steps.size());
        const double before = change.quantity(simulateTraining(demo.steps[static_cast<std::size_t>(change.step - 1)].scenario));
        const double now = change.quantity(simulateTraining(demo.steps[static_cast<std::size_t>(change.step)].scenario));
        // Visibly: a tenth at least, not a rounding difference.
        if (change.direction > 0) {
            EXPECT_GT(now, 1.1 * before) << before << " -> " << now;
        } else {
            EXPECT_LT(now, 0.9 * before) << before << " -> " << now;
        }
    }
    // "Not four times the 256-chip figure"; "then raise the batch?" changes the chart, to time to
    // train against the batch.
    const DemoScript batch = loadDemo("batch-limit");
    EXPECT_EQ(batch.steps[3].chart, ChartKind::Batch);
    EXPECT_NE(batch.steps[2].chart, ChartKind::Batch);
    EXPECT_LT(simulateTraining(batch.steps[1].scenario).throughputExamplesPerS,
              3.5 * simulateTraining(batch.steps[0].scenario).throughputExamplesPerS);
}

// The batch-limit demo's first three steps keep the global batch, so their scaling curve is the
// same; the chart marks each step's own configuration on it, so the picture moves with the
// chips the caption names (issue 23).
TEST(DemoScript, BatchLimitScalingChartMarksEachStepsConfiguration) {
    const DemoScript demo = loadDemo("batch-limit");
    std::vector<double> marked;
    for (std::size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE("batch-limit step " + std::to_string(i + 1));
        const DemoStep& step = demo.steps[i];
        ASSERT_EQ(step.chart, ChartKind::Scaling);
        const ScalingFigure figure = scalingFigure(analyzeTraining(step.scenario));
        ASSERT_TRUE(figure.current);
        // On the curve: the sweep's point at the step's chips is the step's own result.
        const auto onCurve =
            std::find_if(figure.model.begin(), figure.model.end(),
                         [&](const FigurePoint& p) { return p.x == figure.current->x; });
        ASSERT_NE(onCurve, figure.model.end());
        EXPECT_NEAR(onCurve->y / figure.current->y, 1.0, 1e-9);
        EXPECT_DOUBLE_EQ(figure.current->y, simulateTraining(step.scenario).throughputExamplesPerS);
        marked.push_back(figure.current->x);
    }
    EXPECT_EQ(marked, (std::vector<double>{256, 1024, 4096}));
}

TEST(DemoScript, StepsInheritWhatTheyDoNotChange) {
    const DemoScript demo = parseDemoScript(validScript().dump(), "test.json");
    ASSERT_EQ(demo.steps.size(), 2u);
    EXPECT_EQ(demo.steps[1].chart, ChartKind::Scaling);
    EXPECT_EQ(demo.steps[1].scenario.topology, demo.steps[0].scenario.topology);
    EXPECT_EQ(demo.steps[1].scenario.globalBatch, 2048);
    EXPECT_EQ(demo.steps[0].caption, "64 chips");
    EXPECT_EQ(demo.steps[1].caption, "batch 2,048");
}

TEST(DemoScript, CaptionFieldsQuoteTheModel) {
    const Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    const TrainingResult result = simulateTraining(scenario);
    EXPECT_EQ(fillCaption("{chips} chips, {bottleneck}", scenario, result), "4,096 chips, " + result.bottleneck);
    char step[32];
    std::snprintf(step, sizeof step, "%.2f", result.stepTimeS * 1e3);
    EXPECT_EQ(fillCaption("{step_ms}", scenario, result), step);
    EXPECT_THROW(fillCaption("{nope}", scenario, result), InputError);
    EXPECT_THROW(fillCaption("{chips", scenario, result), InputError);
}

// The ring fields read the core's schedule. Summed one dimension at a time, a ring of n chips
// takes n-1 steps in each direction of the reduce-scatter and again in the all-gather, so a
// DIMS torus takes 2 * sum(n_i - 1) ring steps; weight-update sharding splits the same rings
// into a reduce-scatter and an all-gather, so the count stays.
TEST(DemoScript, RingFieldsCountTheGradientSumsRings) {
    Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    scenario.hardware = "tpu-v4";
    scenario.globalBatch = 8192;
    scenario.gradient.algorithm = Algorithm::TwoD;
    struct Case {
        const char* topology;
        const char* wrap;
        const char* rings; // "{ring_chips} {ring_steps} {topology}"
    };
    for (const Case& c : {Case{"8x8", "xy", "8 28 8x8"}, Case{"4x4x4", "xyz", "4 18 4x4x4"},
                          Case{"16x16x16", "xyz", "16 90 16x16x16"}}) {
        SCOPED_TRACE(c.topology);
        scenario.topology = c.topology;
        scenario.wrap = c.wrap;
        scenario.weightUpdateSharding = false;
        const TrainingResult result = simulateTraining(scenario);
        EXPECT_EQ(fillCaption("{ring_chips} {ring_steps} {topology}", scenario, result), c.rings);
        scenario.weightUpdateSharding = true;
        EXPECT_EQ(fillCaption("{ring_chips} {ring_steps} {topology}", scenario, simulateTraining(scenario)),
                  c.rings);
    }
    EXPECT_EQ(fillCaption("{hardware}, {slices} slice", scenario, simulateTraining(scenario)), "tpu-v4, 1 slice");
}

// The tori demo: the cube's rings are shorter, so its sum is no slower for the same data, and
// the full pod is a 3-D torus of 4096 chips.
TEST(DemoScript, ToriDemoSetsTheSameChipsAsASquareAndACube) {
    const DemoScript demo = loadDemo("tori-2d-3d");
    ASSERT_EQ(demo.steps.size(), 5u);
    const TrainingResult square = simulateTraining(demo.steps[0].scenario);
    const TrainingResult cube = simulateTraining(demo.steps[1].scenario);
    EXPECT_EQ(square.chips, 64);
    EXPECT_EQ(cube.chips, 64);
    EXPECT_EQ(scenarioTopology(demo.steps[0].scenario).rank(), 2);
    EXPECT_EQ(scenarioTopology(demo.steps[1].scenario).rank(), 3);
    EXPECT_LE(cube.gradientSyncS, square.gradientSyncS);
    EXPECT_EQ(scenarioTopology(demo.steps[3].scenario).rank(), 2);
    EXPECT_EQ(demo.steps[3].scenario.hardware, "tpu-v5e");
    EXPECT_EQ(scenarioTopology(demo.steps[4].scenario).rank(), 3);
    EXPECT_EQ(simulateTraining(demo.steps[4].scenario).chips, 4096);
}

struct Malformed {
    const char* what;
    std::function<void(json&)> breakIt;
    const char* field;
};

TEST(DemoScript, MalformedScriptsAreRefusedNamingStepAndField) {
    const std::vector<Malformed> cases{
        {"missing steps", [](json& s) { s.erase("steps"); }, "steps"},
        {"empty steps", [](json& s) { s["steps"] = json::array(); }, "steps"},
        {"unknown top key", [](json& s) { s["colour"] = 1; }, "colour"},
        {"missing caption", [](json& s) { s["steps"][1].erase("caption"); }, "steps[1].caption"},
        {"caption not text", [](json& s) { s["steps"][0]["caption"] = 3; }, "steps[0].caption"},
        {"unknown caption field", [](json& s) { s["steps"][1]["caption"] = "{speed}"; },
         "steps[1].caption"},
        {"unknown chart", [](json& s) { s["steps"][1]["chart"] = "pie"; }, "steps[1].chart"},
        {"unknown layout",
         [](json& s) {
             s["steps"][1]["view"] = {{"layout", "sphere"}};
         },
         "steps[1].view.layout"},
        {"unknown colour mode",
         [](json& s) {
             s["steps"][1]["view"] = {{"color_by", "mood"}};
         },
         "steps[1].view.color_by"},
        {"time out of range",
         [](json& s) {
             s["steps"][1]["view"] = {{"time_fraction", 1.5}};
         },
         "steps[1].view.time_fraction"},
        {"unknown step key", [](json& s) { s["steps"][1]["zoom"] = 2; }, "steps[1].zoom"},
        {"first step without scenario", [](json& s) { s["steps"][0].erase("scenario"); },
         "steps[0].scenario"},
        {"bad batch", [](json& s) { s["steps"][1]["scenario"]["global_batch"] = -5; },
         "steps[1].scenario.global_batch"},
        {"impossible batch", [](json& s) { s["steps"][1]["scenario"]["global_batch"] = 7; },
         "steps[1].scenario.global_batch"},
        {"unknown preset",
         [](json& s) {
             s["steps"][1]["scenario"] = {{"preset", "gpt-5"}};
         },
         "steps[1].scenario.preset"},
        {"unknown scenario key", [](json& s) { s["steps"][1]["scenario"]["speed"] = 1; },
         "steps[1].scenario.speed"},
        {"data blocks on 64+ chips",
         [](json& s) {
             s["steps"][1]["data_blocks"] = true;
             s["steps"][1]["scenario"]["chips"] = 128;
         },
         "steps[1].data_blocks"},
        {"full_scale not bool", [](json& s) { s["steps"][1]["full_scale"] = "yes"; },
         "steps[1].full_scale"},
        {"compare not bool", [](json& s) { s["steps"][1]["compare_with_previous"] = 1; },
         "steps[1].compare_with_previous"},
        {"first step compares", [](json& s) { s["steps"][0]["compare_with_previous"] = true; },
         "steps[0].compare_with_previous"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        json script = validScript();
        c.breakIt(script);
        const auto [field, message] = refusal(script);
        EXPECT_EQ(field, c.field) << message;
        if (std::string(c.field).rfind("steps[", 0) == 0) {
            const int index = std::stoi(std::string(c.field).substr(6));
            EXPECT_NE(message.find("step " + std::to_string(index + 1) + " of demo 'test'"), std::string::npos)
                << message;
        }
    }
}

TEST(DemoScript, NotJsonOrTooDeepIsRefused) {
    EXPECT_THROW(parseDemoScript("{\"name\": ", "x.json"), InputError);
    EXPECT_THROW(parseDemoScript(std::string(100, '[') + std::string(100, ']'), "x.json"), InputError);
    EXPECT_THROW(parseDemoScript("[]", "x.json"), InputError);
}

TEST(DemoScript, TheGuideDocumentsEveryCaptionField) {
    const std::string guide = test::readFile(std::filesystem::path(PODSCOPE_SOURCE_DIR) / "docs" / "demos.md");
    ASSERT_FALSE(guide.empty());
    for (const auto& name : captionFieldNames()) {
        EXPECT_NE(guide.find("`" + name + "`"), std::string::npos) << name;
    }
    for (const auto& name : bundledDemoNames()) {
        EXPECT_NE(guide.find("(`" + name + "`)"), std::string::npos) << name;
    }
}

TEST(DemoScript, ATeachersFileLoadsWithoutRebuilding) {
    test::ScratchDir dir;
    const auto path = dir.path / "my-demo.json";
    std::ofstream(path) << validScript().dump(2);
    EXPECT_EQ(loadDemo(path.string()).steps.size(), 2u);
    try {
        loadDemo("no-such-demo");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "demo");
        EXPECT_NE(std::string(e.what()).find("ring-allreduce"), std::string::npos); // lists the bundled
    }
    EXPECT_THROW(loadDemo((dir.path / "missing.json").string()), InputError);
    EXPECT_THROW(loadDemo(dir.path.string() + "/"), InputError);
}

} // namespace
} // namespace podscope::ui
