// A refused configuration told in the panel's words, with a nearby configuration the model
// accepts (issue 15).
#include "view/ConfigurationProblem.hpp"

#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"

#include <gtest/gtest.h>

namespace podscope::ui {
namespace {

// The model's refusal of a scenario, as the window receives it.
std::string refusalOf(const Scenario& scenario) {
    try {
        simulateTraining(scenario);
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
}

bool hasSnakeCase(const std::string& text) {
    for (std::size_t i = 1; i + 1 < text.size(); ++i) {
        if (text[i] == '_' && std::isalpha(static_cast<unsigned char>(text[i - 1])) &&
            std::isalpha(static_cast<unsigned char>(text[i + 1]))) {
            return true;
        }
    }
    return false;
}

TEST(ConfigurationProblem, ABatchThatDoesNotDivideSuggestsTheNearestThatDoes) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario; // 8192 replicas
    for (const auto& [typed, nearest] :
         {std::pair<std::int64_t, std::int64_t>{1000, 8192}, {70000, 73728}, {65000, 65536}}) {
        s.globalBatch = typed;
        const ConfigurationProblem problem = explainProblem(s, refusalOf(s));
        EXPECT_EQ(problem.field, "global_batch");
        EXPECT_EQ(problem.setting, "Global batch");
        EXPECT_EQ(problem.explanation.rfind("Global batch: ", 0), 0u) << problem.explanation;
        EXPECT_FALSE(hasSnakeCase(problem.explanation)) << problem.explanation;
        ASSERT_TRUE(problem.suggestion) << typed;
        EXPECT_EQ(problem.suggestion->scenario.globalBatch, nearest) << typed;
        EXPECT_NE(problem.suggestion->action.find(std::to_string(nearest)), std::string::npos);
        // The suggestion changes only the batch, and the model accepts it.
        Scenario back = problem.suggestion->scenario;
        back.globalBatch = typed;
        EXPECT_EQ(refusalOf(back), refusalOf(s));
        EXPECT_NO_THROW(simulateTraining(problem.suggestion->scenario));
        // The nearest: no multiple of the replicas lies closer to what was typed.
        const std::int64_t replicas = simulateTraining(problem.suggestion->scenario).plan.replicas;
        EXPECT_EQ(nearest % replicas, 0);
        EXPECT_LE(std::llabs(nearest - typed), replicas / 2 + (typed < replicas ? replicas : 0));
    }
}

// A degree without a kind is no problem to explain: it takes the workload's split (SSD's is
// spatial), as the CLI's --model-parallel does.
TEST(ConfigurationProblem, ADegreeWithoutAKindTakesTheWorkloadsSplit) {
    Scenario s = loadPreset("mlperf07-ssd-tf-4096").scenario;
    s.topology = "tpu-v3-pod";
    s.globalBatch = 2048;
    s.modelParallel = 4;
    s.modelParallelKind = ModelParallelKind::None;
    EXPECT_EQ(simulateTraining(s).plan.kind, ModelParallelKind::Spatial);
}

TEST(ConfigurationProblem, ADimensionOrderForAnotherGridFallsBackToTheDefault) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    s.gradient.dimOrder = "xyz"; // the multipod has two dimensions
    const ConfigurationProblem problem = explainProblem(s, refusalOf(s));
    EXPECT_EQ(problem.setting, "Dimension order");
    ASSERT_TRUE(problem.suggestion);
    EXPECT_TRUE(problem.suggestion->scenario.gradient.dimOrder.empty());
}

TEST(ConfigurationProblem, EveryFieldReadsInWords) {
    for (const char* field :
         {"global_batch", "model_parallel", "link_bandwidth_GBps", "gradient.dim_order",
          "eval_every_epochs", "input.decode_s", "cross_pod_bandwidth_GBps", "gradient.overlap",
          "gradient.bucket_MiB", "batch_norm_group", "sequence_length", "some_new_field"}) {
        const std::string name = settingName(field);
        EXPECT_FALSE(hasSnakeCase(name)) << name;
        EXPECT_EQ(name.find('.'), std::string::npos) << name;
        EXPECT_TRUE(std::isupper(static_cast<unsigned char>(name[0]))) << name;
    }
    EXPECT_EQ(settingName("some_new_field"), "Some new field");
}

TEST(ConfigurationProblem, ABatchThatDoesNotFitInHbmShowsTheNumbersAndSuggestsOneThatFits) {
    // BERT-large keeps 14 sequences of 512 per core; recomputing, it fits 256 but not 512
    // (docs/training-model.md, 6).
    Scenario s = loadPreset("mlperf07-bert-jax-4096").scenario;
    const std::int64_t cores = simulateTraining(s).plan.replicas;
    s.globalBatch = 512 * cores;
    const ConfigurationProblem problem = explainProblem(s, refusalOf(s));
    EXPECT_EQ(problem.setting, "Global batch");
    EXPECT_NE(problem.explanation.find("of HBM per core, has 16.0 GiB"), std::string::npos)
        << problem.explanation;
    EXPECT_EQ(problem.explanation.find("same whole number"), std::string::npos)
        << problem.explanation; // the batch divides evenly: that is not the problem
    ASSERT_TRUE(problem.suggestion);
    const Scenario& fixed = problem.suggestion->scenario;
    EXPECT_LT(fixed.globalBatch, s.globalBatch);
    EXPECT_EQ(fixed.globalBatch % cores, 0);
    EXPECT_TRUE(simulateTraining(fixed).memory.fits());
    // The largest that fits among the halvings tried: twice it does not.
    Scenario twice = fixed;
    twice.globalBatch *= 2;
    EXPECT_NE(refusalOf(twice).find("of HBM per core"), std::string::npos);
}

TEST(ConfigurationProblem, NoSuggestionWhenNoneIsEasyToFind) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    s.topology = "7x0";
    const ConfigurationProblem problem = explainProblem(s, refusalOf(s));
    EXPECT_FALSE(problem.explanation.empty());
    EXPECT_FALSE(problem.suggestion);
}

} // namespace
} // namespace podscope::ui
