// --workload FILE on the command line: every command takes a file; a bad one exits 2.
#include "ScratchDir.hpp"
#include "cli/CliRunner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace podscope::cli::test {
namespace {

using podscope::test::ScratchDir;
using podscope::test::writeFile;

std::string gpt2() {
    return std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/hf/gpt2/config.json";
}

// A 16-chip preset with the model replaced: its other settings stay.
const std::vector<std::string> kSlice = {
    "--preset", "mlperf07-bert-tf2-16", "--framework", "jax", "--topology", "4x4", "--global-batch",
    "64",       "--sequence-length",    "512"};

std::vector<std::string> with(std::vector<std::string> head) {
    head.insert(head.end(), kSlice.begin(), kSlice.end());
    return head;
}

TEST(WorkloadCli, SimulateJsonReportsTheModelAndWhyNoTimeToTrain) {
    const Outcome o = runCli(with({"simulate", "--workload", gpt2(), "--json"}));
    ASSERT_EQ(o.status, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_NEAR(j.at("parameters").get<double>() / 124e6, 1.0, 0.01);
    EXPECT_GT(j.at("forward_flops_per_example").get<double>(), 2 * 124e6 * 512);
    EXPECT_TRUE(j.at("time_to_train_s").is_null());
    EXPECT_NE(j.at("time_to_train_missing").get<std::string>().find("--train-steps"),
              std::string::npos);
    EXPECT_GT(j.at("step_time_s").get<double>(), 0);
    EXPECT_FALSE(j.contains("unmapped_operators"));
}

TEST(WorkloadCli, SimulateTextStatesTheMissingTimeToTrain) {
    const Outcome o = runCli(with({"simulate", "--workload", gpt2()}));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("Time to train  unknown: gpt2 has no convergence data"), std::string::npos)
        << o.out;
    const Outcome known = runCli(with({"simulate", "--workload", gpt2(), "--train-steps", "1000"}));
    ASSERT_EQ(known.status, 0) << known.err;
    EXPECT_NE(known.out.find("(1000 steps, 0 evaluations"), std::string::npos) << known.out;
}

TEST(WorkloadCli, EveryCommandTakesAFile) {
    for (const std::string command : {"layers", "timeline", "sweep"}) {
        SCOPED_TRACE(command);
        std::vector<std::string> args = with({command, "--workload", gpt2()});
        if (command == "sweep") {
            args.insert(args.end(), {"--chips", "16,32"});
        }
        const Outcome o = runCli(args);
        EXPECT_EQ(o.status, 0) << o.err;
    }
}

TEST(WorkloadCli, BadFilesExit2NamingTheProblem) {
    ScratchDir dir;
    const auto path = (dir.path / "mymodel.json").string();
    writeFile(path, R"({"name": "m", "graph": {"layers": [
        {"name": "block3.fc", "type": "dense", "rows": 1, "in": -1, "out": 4}]}})");
    Outcome o = runCli(with({"simulate", "--workload", path}));
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("layer 'block3.fc' (index 0): field 'in' must be a positive number"),
              std::string::npos)
        << o.err;
    writeFile(path, "not json");
    o = runCli(with({"simulate", "--workload", path}));
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("not valid JSON"), std::string::npos) << o.err;
    o = runCli(with({"simulate", "--workload", (dir.path / "none.json").string()}));
    EXPECT_EQ(o.status, 2) << o.err;
    o = runCli(with({"simulate", "--workload", (dir.path / "model.onnx").string()}));
    EXPECT_EQ(o.status, 2) << o.err;
}

// An imported torchvision ResNet-50 trains like the built-in graph of the same model: the same
// 25.56 M parameters and, at the built-in preset's configuration, a training step within 3 %
// (the graphs differ in the stem: torchvision's 7x7 convolution, the MLPerf code's
// space-to-depth one). The built-in step has no evaluation or input in it to compare against
// an imported model, which has neither: the training step alone is compared.
TEST(WorkloadCli, AnImportedResNetStepsLikeTheBuiltInOne) {
    const std::string onnx = std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/onnx/resnet50.onnx";
    const std::vector<std::string> preset = {"simulate", "--preset", "mlperf07-resnet50-tf-4096",
                                             "--json"};
    const Outcome builtIn = runCli(preset);
    ASSERT_EQ(builtIn.status, 0) << builtIn.err;
    std::vector<std::string> imported = preset;
    imported.insert(imported.end(), {"--workload", onnx});
    const Outcome o = runCli(imported);
    ASSERT_EQ(o.status, 0) << o.err;
    const auto a = nlohmann::json::parse(builtIn.out);
    const auto b = nlohmann::json::parse(o.out);
    EXPECT_NEAR(b.at("parameters").get<double>(), 25.557e6, 0.001e6);
    EXPECT_NEAR(b.at("parameters").get<double>() / a.at("parameters").get<double>(), 1.0, 0.001);
    const double ratio =
        b.at("train_step_time_s").get<double>() / a.at("train_step_time_s").get<double>();
    EXPECT_NEAR(ratio, 1.0, 0.03) << "imported " << b.at("train_step_time_s") << " s, built-in "
                                  << a.at("train_step_time_s") << " s";
    EXPECT_TRUE(b.at("time_to_train_s").is_null()); // no convergence data in an ONNX file
}

// A model given alone: no preset, no file; the required settings from the flags and the
// table's standalone framework, the same configuration as naming that framework.
TEST(WorkloadCli, AModelAloneNeedsOnlyItsSliceAndBatch) {
    const std::string onnx = std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/onnx/resnet50.onnx";
    const std::vector<std::string> alone = {"simulate", "--workload",     onnx,  "--chips",
                                            "16",       "--global-batch", "512", "--json"};
    const Outcome o = runCli(alone);
    ASSERT_EQ(o.status, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j.at("scenario").at("framework"), "jax");
    EXPECT_EQ(j.at("chips"), 16);
    std::vector<std::string> named = alone;
    named.insert(named.end(), {"--framework", "jax"});
    const Outcome same = runCli(named);
    ASSERT_EQ(same.status, 0) << same.err;
    EXPECT_EQ(nlohmann::json::parse(same.out), j);

    const Outcome noBatch = runCli({"simulate", "--workload", onnx, "--chips", "16"});
    EXPECT_EQ(noBatch.status, 2);
    EXPECT_NE(noBatch.err.find("global-batch: is required for a model given alone"),
              std::string::npos)
        << noBatch.err;
    const Outcome noSlice = runCli({"simulate", "--workload", onnx, "--global-batch", "512"});
    EXPECT_EQ(noSlice.status, 2);
    EXPECT_NE(noSlice.err.find("topology: is required (or --chips)"), std::string::npos)
        << noSlice.err;
    const Outcome nothing = runCli({"simulate", "--chips", "16"});
    EXPECT_EQ(nothing.status, 2);
    EXPECT_NE(nothing.err.find("--workload MODEL"), std::string::npos) << nothing.err;
}

// The same model in a configuration file without a preset reads as the flags do: the table's
// standalone framework fills in, so a file that the flags would accept is not refused.
TEST(WorkloadCli, AConfigurationFileWithAModelAloneReadsAsTheFlags) {
    const std::string onnx = std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/onnx/resnet50.onnx";
    ScratchDir dir;
    const auto config = dir.path / "own-model.json";
    podscope::test::writeFile(
        config, nlohmann::json{{"workload", onnx}, {"chips", 16}, {"global_batch", 512}}.dump());
    const Outcome file = runCli({"simulate", "--config", config.string(), "--json"});
    ASSERT_EQ(file.status, 0) << file.err;
    const Outcome flags = runCli(
        {"simulate", "--workload", onnx, "--chips", "16", "--global-batch", "512", "--json"});
    ASSERT_EQ(flags.status, 0) << flags.err;
    EXPECT_EQ(nlohmann::json::parse(file.out), nlohmann::json::parse(flags.out));
    EXPECT_EQ(nlohmann::json::parse(file.out).at("scenario").at("framework"), "jax");
}

} // namespace
} // namespace podscope::cli::test
