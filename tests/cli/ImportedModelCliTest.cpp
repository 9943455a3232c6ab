// An imported ONNX model everywhere (issue 21, item 4): the layers table, the step timeline,
// tensor and spatial splits, memory with rematerialization and the search, each on a model
// given alone (--workload FILE --chips N --global-batch N), checked against another command's
// number or a closed form.
#include "cli/CliRunner.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace podscope::cli::test {
namespace {

using nlohmann::json;

std::string fixture(const std::string& name) {
    return std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/onnx/" + name + ".onnx";
}

json runJson(std::vector<std::string> args) {
    args.emplace_back("--json");
    const Outcome o = runCli(args);
    EXPECT_EQ(o.status, 0) << o.err;
    return o.status == 0 ? json::parse(o.out) : json::object();
}

// The model alone on a 16-chip slice, with more flags.
std::vector<std::string> alone(const std::string& command, const std::string& model,
                               const std::string& batch, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {command, "--workload",     fixture(model), "--chips",
                                     "16",    "--global-batch", batch};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// The layers table is the step's compute, layer by layer: its times add up to simulate's.
TEST(ImportedModelCli, TheLayersTableAddsUpToTheStepsCompute) {
    const json layers = runJson(alone("layers", "resnet50", "512"));
    const json step = runJson(alone("simulate", "resnet50", "512"));
    ASSERT_TRUE(layers.contains("layers"));
    double total = 0;
    bool named = false;
    for (const json& l : layers.at("layers")) {
        total += l.at("forward_s").get<double>() + l.at("backward_s").get<double>() +
                 l.at("recompute_s").get<double>();
        named = named || l.at("name") == "layer1.0.conv1"; // torchvision's module path
    }
    EXPECT_TRUE(named);
    EXPECT_NEAR(total / step.at("breakdown").at("compute").get<double>(), 1.0, 1e-6);
}

// The event-driven timeline of every chip steps as the analytic model does (no slow chip).
TEST(ImportedModelCli, TheTimelineStepsAsTheAnalyticModel) {
    const json timeline = runJson(alone("timeline", "vit_b_16", "256"));
    const json step = runJson(alone("simulate", "vit_b_16", "256"));
    ASSERT_TRUE(timeline.contains("step_s"));
    EXPECT_NEAR(timeline.at("step_s").get<double>() / step.at("step_time_s").get<double>(), 1.0,
                0.02);
}

// ViT's attention and MLP projections pair up for a tensor split, its preferred one: two cores
// hold half the weights of one, but for what is not split (the patch convolution, the position
// table, the norms, the head: 1.5 M of 86.6 M parameters).
TEST(ImportedModelCli, ATensorSplitDividesTheRecognisedMatmuls) {
    const json one = runJson(alone("simulate", "vit_b_16", "256"));
    const json two = runJson(alone("simulate", "vit_b_16", "256", {"--model-parallel", "2"}));
    EXPECT_EQ(two.at("parallelism").at("kind"), "tensor");
    const double share = two.at("memory").at("weights_bytes").get<double>() /
                         one.at("memory").at("weights_bytes").get<double>();
    EXPECT_GT(share, 0.5);
    EXPECT_LT(share, 0.5 + 1.5 / 86.6);
    EXPECT_GT(two.at("breakdown").at("model_parallel_comm").get<double>(), 0);
    // torch.nn.Transformer's encoder and decoder layers too.
    const json transformer =
        runJson(alone("simulate", "transformer", "256",
                      {"--model-parallel", "2", "--model-parallel-kind", "tensor"}));
    EXPECT_GT(transformer.at("breakdown").at("model_parallel_comm").get<double>(), 0);
}

// ResNet-50's convolutions split spatially, its preferred split: at the same examples per core
// a core computes about what an unsplit one does (the halo rows on top), and it has no matmul
// pair for a tensor split, which is refused by name.
TEST(ImportedModelCli, ASpatialSplitDividesTheConvolutions) {
    const json one = runJson(alone("simulate", "resnet50", "512"));
    const json two = runJson(alone("simulate", "resnet50", "512", {"--model-parallel", "2"}));
    EXPECT_EQ(two.at("parallelism").at("kind"), "spatial");
    ASSERT_EQ(two.at("parallelism").at("examples_per_core"),
              one.at("parallelism").at("examples_per_core"));
    const double ratio = two.at("breakdown").at("compute").get<double>() /
                         one.at("breakdown").at("compute").get<double>();
    EXPECT_GE(ratio, 1.0);
    EXPECT_LT(ratio, 1.1);
    const Outcome tensor =
        runCli(alone("simulate", "resnet50", "512",
                     {"--model-parallel", "2", "--model-parallel-kind", "tensor"}));
    EXPECT_EQ(tensor.status, 2);
    EXPECT_NE(tensor.err.find("has no layers that a tensor split divides"), std::string::npos)
        << tensor.err;
}

// 768 examples per core overflow 16 GiB of HBM: remat recomputes layers until they fit; off,
// the batch is refused with the need stated.
TEST(ImportedModelCli, RematerializationFitsABatchThatOverflows) {
    const json fitted = runJson(alone("simulate", "resnet50", "12288"));
    const json& memory = fitted.at("memory");
    EXPECT_GT(memory.at("recompute").at("layers").get<int>(), 0);
    EXPECT_LE(memory.at("total_bytes").get<double>(), memory.at("capacity_bytes").get<double>());
    EXPECT_GT(fitted.at("breakdown").at("recompute").get<double>(), 0);
    const Outcome off = runCli(alone("simulate", "resnet50", "12288", {"--remat", "off"}));
    EXPECT_EQ(off.status, 2);
    EXPECT_NE(off.err.find("rematerialization is off"), std::string::npos) << off.err;
}

// The search takes a model file; with a run length in examples, a candidate's steps are the
// examples over its batch, rounded up.
TEST(ImportedModelCli, TuneSearchesAnImportedModel) {
    const std::vector<std::string> tune = {"tune",    "--model", fixture("resnet50"),
                                           "--chips", "16",      "--top",
                                           "1",       "--fix",   "model_parallel=none"};
    std::vector<std::string> withLength = tune;
    withLength.insert(withLength.end(), {"--train-examples", "1.28e8"});
    const json report = runJson(withLength);
    ASSERT_TRUE(report.contains("top"));
    const json& best = report.at("top").at(0);
    const double batch = std::stod(best.at("settings").at("global_batch").get<std::string>());
    EXPECT_EQ(best.at("steps").get<double>(), std::ceil(1.28e8 / batch));
    EXPECT_GE(best.at("objective").get<double>(),
              best.at("steps").get<double>() * best.at("step_time_s").get<double>());
    const Outcome noLength = runCli(tune);
    EXPECT_EQ(noLength.status, 2);
    EXPECT_NE(noLength.err.find("--train-steps N or --train-examples N"), std::string::npos)
        << noLength.err;
}

} // namespace
} // namespace podscope::cli::test
