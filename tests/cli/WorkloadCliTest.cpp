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

} // namespace
} // namespace podscope::cli::test
