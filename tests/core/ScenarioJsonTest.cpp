#include "ScratchDir.hpp"
#include "training/ScenarioJson.hpp"

#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/TrainingJson.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace podscope {
namespace {

namespace fs = std::filesystem;

using TempDir = podscope::test::ScratchDir;
using podscope::test::readFile;

InputError errorOf(const std::string& text) {
    try {
        simulateTraining(parseScenario(text, "test.json"));
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << "no InputError for " << text;
    return InputError("none", "");
}

TEST(ScenarioJson, EveryPresetRoundTripsThroughAFile) {
    TempDir dir;
    for (const auto& name : presetNames()) {
        const Scenario original = loadPreset(name).scenario;
        const auto path = (dir.path / (name + ".json")).string();
        saveScenarioFile(path, original);
        const Scenario loaded = loadScenarioFile(path);
        EXPECT_EQ(toJson(loaded), toJson(original)) << name;
        EXPECT_EQ(toJson(simulateTraining(loaded)), toJson(simulateTraining(original))) << name;
    }
}

// Menus and legends show the title; it must say what the preset simulates, not what it was named.
TEST(ScenarioJson, EveryPresetTitleNamesItsFrameworkAndChipCount) {
    for (const auto& name : presetNames()) {
        const Preset preset = loadPreset(name);
        ASSERT_NE(preset.title, preset.name) << name;
        std::string framework = preset.scenario.framework;
        for (char& c : framework) {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        const auto chips = simulateTraining(preset.scenario).chips;
        EXPECT_NE(preset.title.find(", " + framework + ", "), std::string::npos) << preset.title;
        EXPECT_TRUE(preset.title.ends_with(", " + std::to_string(chips) + " chips")) << preset.title;
    }
}

// "none" with several cores per replica is the workload's split, as the CLI's --model-parallel
// takes it: the Transformer splits tensors, SSD images, and neither is refused.
TEST(ScenarioJson, SeveralCoresPerReplicaWithoutAKindTakeTheWorkloadsSplit) {
    for (const char* name : {"mlperf07-transformer-jax-4096", "mlperf07-ssd-tf-4096"}) {
        const Preset preset = loadPreset(name);
        ASSERT_GT(preset.scenario.modelParallel, 1) << name;
        const Scenario unnamed = parseScenario(
            std::string(R"({"preset": ")") + name + R"(", "model_parallel": {"kind": "none"}})",
            "test.json");
        ASSERT_EQ(unnamed.modelParallelKind, ModelParallelKind::None);
        EXPECT_EQ(toJson(simulateTraining(unnamed)), toJson(simulateTraining(preset.scenario)))
            << name;
    }
}

TEST(ScenarioJson, AFileMayNameAPresetAndOverrideSomeFields) {
    const Scenario base = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    const Scenario s = parseScenario(R"({"preset": "mlperf07-resnet50-tf-4096",
        "global_batch": 32768, "input": {"decoded_cache": false}})",
                                     "test.json");
    EXPECT_EQ(s.globalBatch, 32768);
    EXPECT_FALSE(s.input.decodedCache);
    EXPECT_EQ(s.workload, base.workload);
    EXPECT_EQ(s.framework, base.framework);
    EXPECT_EQ(s.topology, base.topology);
    EXPECT_EQ(s.gradient.precision, base.gradient.precision);
    EXPECT_EQ(s.input.prefetchBatches, base.input.prefetchBatches);

    const Scenario sliced =
        parseScenario(R"({"preset": "mlperf07-resnet50-tf-4096", "chips": 1024})", "t");
    EXPECT_EQ(simulateTraining(sliced).chips, 1024);
}

TEST(ScenarioJson, BadFilesNameTheFieldAndLine) {
    {
        const auto e =
            errorOf("{\n  \"preset\": \"mlperf07-bert-tf-4096\",\n  \"global_batch\": \"big\"\n}");
        EXPECT_EQ(e.field(), "global_batch");
        EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
    {
        const auto e = errorOf(R"({"preset": "mlperf07-bert-tf-4096", "gradient": {"chunk": 2}})");
        EXPECT_EQ(e.field(), "gradient.chunk");
        EXPECT_NE(std::string(e.what()).find("unknown key"), std::string::npos);
    }
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "globalbatch": 2})").field(),
              "globalbatch");
    EXPECT_EQ(errorOf(R"({"workload": "bert", "framework": "tf", "topology": "tpu-v3-multipod"})")
                  .field(),
              "global_batch");
    EXPECT_EQ(errorOf(R"({"framework": "tf", "topology": "8x8", "global_batch": 128})").field(),
              "workload");
    EXPECT_EQ(errorOf(R"({"preset": "no-such-preset"})").field(), "preset");
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "workload": "bertt"})").field(),
              "workload");
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "framework": "pytorch"})").field(),
              "framework");
    EXPECT_EQ(
        errorOf(R"({"preset": "mlperf07-bert-tf-4096", "weight_update_sharding": "yes"})").field(),
        "weight_update_sharding");
    EXPECT_EQ(
        errorOf(R"({"preset": "mlperf07-bert-tf-4096", "gradient": {"precision": "fp8"}})").field(),
        "gradient.precision");
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "chips": 100})").field(), "chips");
    EXPECT_EQ(
        errorOf(R"({"preset": "mlperf07-bert-tf-4096", "model_parallel": {"degree": 3}})").field(),
        "model_parallel");
    // Impossible combinations: fewer examples than replicas. (A degree without a kind takes the
    // workload's split: SeveralCoresPerReplicaWithoutAKindTakeTheWorkloadsSplit.)
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "global_batch": 4096})").field(),
              "global_batch");
    {
        const auto e =
            errorOf("{\n \"preset\": \"mlperf07-bert-tf-4096\",\n \"global_batch\": 8192,\n}");
        EXPECT_EQ(e.field(), "config");
        EXPECT_NE(std::string(e.what()).find("line 4"), std::string::npos) << e.what();
    }
    EXPECT_EQ(errorOf("[1, 2]").field(), "config");
}

// The keys the predictive model added: sequence length, batch-norm group, overlap policy.
TEST(ScenarioJson, ModelKeysRoundTripAndActOnTheResult) {
    const Scenario s = parseScenario(R"({"preset": "mlperf07-bert-tf-4096", "sequence_length": 128,
        "gradient": {"overlap": "bucketed", "bucket_MiB": 16}})", "test.json");
    EXPECT_EQ(s.sequenceLength, 128);
    EXPECT_EQ(s.gradient.overlap, GradientOverlap::Bucketed);
    EXPECT_DOUBLE_EQ(s.gradient.bucketMiB, 16);
    const Scenario again = parseScenario(toJson(s).dump(), "again.json");
    EXPECT_EQ(toJson(again), toJson(s));
    // A quarter of the tokens: less than half the compute per step (each kernel's fixed cost stays).
    EXPECT_LT(simulateTraining(s).breakdown.compute,
              0.5 * simulateTraining(loadPreset("mlperf07-bert-tf-4096").scenario).breakdown.compute);
    const Scenario grouped = parseScenario(R"({"preset": "mlperf07-resnet50-tf-4096", "batch_norm_group": 16})", "t.json");
    EXPECT_EQ(grouped.batchNormGroup, 16);
}

TEST(ScenarioJson, BadModelKeysNameTheField) {
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-resnet50-tf-4096", "sequence_length": 128})").field(),
              "sequence_length"); // images have no sequence length
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "sequence_length": 1024})").field(),
              "sequence_length"); // beyond BERT's 512 positions
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-resnet50-tf-4096", "batch_norm_group": 6})").field(),
              "batch_norm_group");
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "gradient": {"overlap": "sometimes"}})").field(),
              "gradient.overlap");
    EXPECT_EQ(errorOf(R"({"preset": "mlperf07-bert-tf-4096", "gradient": {"bucket_MiB": 0}})").field(),
              "gradient.bucket_MiB");
}

TEST(ScenarioJson, SavingIsAtomicAndFailsWithoutTouchingFiles) {
    TempDir dir;
    const auto path = dir.path / "config.json";
    { std::ofstream(path) << "previous contents\n"; }
    const Scenario s = loadPreset("mlperf07-gnmt-tf-512").scenario;
    saveScenarioFile(path.string(), s);
    EXPECT_EQ(readFile(path).find("previous contents"), std::string::npos);
    EXPECT_EQ(toJson(loadScenarioFile(path.string())), toJson(s));
    // No temporary file is left next to it.
    int entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path)) {
        ++entries;
    }
    EXPECT_EQ(entries, 1);
    EXPECT_THROW(saveScenarioFile((dir.path / "missing" / "c.json").string(), s), InputError);
    EXPECT_FALSE(fs::exists(dir.path / "missing"));
}

} // namespace
} // namespace podscope
