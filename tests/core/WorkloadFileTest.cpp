// Workload documents from a user's file: optional sections, versions, and errors that name the
// layer and the field.
#include "workload/WorkloadFile.hpp"

#include "ScratchDir.hpp"
#include "common/InputError.hpp"
#include "training/StepModel.hpp"
#include "training/TrainingJson.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/Workload.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace podscope {
namespace {

using nlohmann::json;
using test::ScratchDir;
using test::writeFile;

// The smallest useful document: a name and a graph (docs/workloads.md, "A document by hand").
json handWritten() {
    return json::parse(R"({
      "format_version": 1,
      "name": "mlp",
      "example_unit": "image",
      "graph": {
        "layers": [
          {"name": "fc1", "type": "dense", "rows": 1, "in": 1024, "out": 4096, "bias": true,
           "act": "relu", "split": "column"},
          {"name": "fc2", "type": "dense", "rows": 1, "in": 4096, "out": 1000, "bias": true,
           "split": "row"},
          {"name": "loss", "type": "loss", "rows": 1, "classes": 1000}
        ]
      }
    })");
}

std::string messageOf(const json& document) {
    try {
        parseWorkload(document, "mymodel.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(WorkloadDocument, OnlyNameAndGraphAreRequired) {
    const Workload w = parseWorkload(handWritten(), "mymodel.json");
    const LayerGraph g = bindLayerGraph(w.graph, {});
    // 1024 x 4096 + 4096 and 4096 x 1000 + 1000 weights and biases.
    EXPECT_EQ(g.parameters(), 1024.0 * 4096 + 4096 + 4096.0 * 1000 + 1000);
    EXPECT_EQ(g.forwardMacsPerExample(), 1024.0 * 4096 + 4096.0 * 1000);
    EXPECT_FALSE(w.hasConvergence());
    EXPECT_EQ(w.optimizer, "Adam");
    EXPECT_EQ(w.evalSchedule("jax").every, 0); // no evaluation
    EXPECT_EQ(w.startupS("tf"), 0);
    EXPECT_EQ(w.input.readS + w.input.decodeS + w.input.augmentS + w.input.batchS, 0);
}

TEST(WorkloadDocument, BundledWorkloadsStillLoad) {
    for (const auto& name : workloadNames()) {
        SCOPED_TRACE(name);
        const Workload w = loadWorkload(name);
        EXPECT_TRUE(w.hasConvergence());
        EXPECT_GT(w.evalExamples, 0);
    }
}

TEST(WorkloadDocument, RefusesUnknownFormatVersions) {
    json d = handWritten();
    d["format_version"] = 2;
    EXPECT_NE(messageOf(d).find("format_version 2 is not one this PodScope reads (1)"),
              std::string::npos)
        << messageOf(d);
}

TEST(WorkloadDocument, ErrorsNameTheLayerAndTheField) {
    json d = handWritten();
    d["graph"]["layers"][1]["in"] = -4096;
    EXPECT_EQ(messageOf(d),
              "mymodel.json: layer 'fc2' (index 1): field 'in' must be a positive number");
    d = handWritten();
    d["graph"]["layers"][0].erase("out");
    EXPECT_EQ(messageOf(d), "mymodel.json: layer 'fc1' (index 0): field 'out' is missing");
    d = handWritten();
    d["graph"]["layers"][0]["out"] = "wide";
    EXPECT_EQ(messageOf(d),
              "mymodel.json: layer 'fc1' (index 0): field 'out' names an unknown variable 'wide'");
    d = handWritten();
    d["graph"]["layers"][0]["out"] = 1e15;
    EXPECT_EQ(messageOf(d),
              "mymodel.json: layer 'fc1' (index 0): field 'out' is absurdly large (above 1e12)");
    d = handWritten();
    d["graph"]["layers"][2]["type"] = "capsule";
    EXPECT_NE(messageOf(d).find("layer 'loss' (index 2): field 'type' has an unknown value "
                                "'capsule' (conv, dense"),
              std::string::npos)
        << messageOf(d);
    d = handWritten();
    d["graph"]["layers"][0]["bias"] = "yes";
    EXPECT_EQ(messageOf(d), "mymodel.json: layer 'fc1' (index 0): field 'bias' must be true or "
                            "false");
    d = handWritten();
    d["graph"]["layers"][1] = 7;
    EXPECT_EQ(messageOf(d), "mymodel.json: layer (index 1) must be an object");
}

TEST(WorkloadDocument, ErrorsNameTheSection) {
    json d = handWritten();
    d.erase("name");
    EXPECT_EQ(messageOf(d), "mymodel.json: field 'name' is missing");
    d = handWritten();
    d["name"] = 3;
    EXPECT_EQ(messageOf(d), "mymodel.json: field 'name' must be a string");
    d = handWritten();
    d["graph"]["layers"] = json::array();
    EXPECT_EQ(messageOf(d), "mymodel.json: graph: has no layers");
    d = handWritten();
    d["optimizer"] = "Adagrad";
    EXPECT_NE(messageOf(d).find("field 'optimizer' names no optimizer"), std::string::npos);
    d = handWritten();
    d["eval"] = {{"examples", {{"value", 100}, {"source", "mine"}}}, {"schedules", json::object()}};
    EXPECT_EQ(messageOf(d), "mymodel.json: eval.schedules: needs a 'default' schedule");
    d = handWritten();
    d["convergence"] = {{"examples_min", 5}};
    EXPECT_EQ(messageOf(d), "mymodel.json: convergence: 'examples_min' must be {\"value\": number, "
                            "\"source\": text}");
    EXPECT_EQ(messageOf(json::array()), "mymodel.json: a workload document must be a JSON object");
}

TEST(WorkloadFile, BadFilesAreInputErrorsNamingTheFile) {
    ScratchDir dir;
    const auto path = (dir.path / "broken.json").string();
    writeFile(path, "{\"name\": \"x\", \"graph\": ");
    try {
        loadWorkload(path);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ": not valid JSON"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(loadWorkload((dir.path / "absent.json").string()), InputError);
    EXPECT_THROW(loadWorkload(dir.path.string() + "/"), InputError); // a folder
    writeFile(path, std::string(200, '[') + std::string(200, ']'));
    EXPECT_THROW(loadWorkload(path), InputError);
    writeFile(path, R"({"model_type": "rwkv", "num_hidden_layers": 4})");
    try {
        loadWorkload(path);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("model_type 'rwkv' is not a family"),
                  std::string::npos);
    }
    writeFile(path, R"({"model_type": "gpt2", "n_layer": 2, "n_embd": -5})");
    EXPECT_THROW(loadWorkload(path), InputError);
}

TEST(WorkloadFile, TellsFilesFromBundledNames) {
    EXPECT_FALSE(isWorkloadFilePath("bert"));
    EXPECT_TRUE(isWorkloadFilePath("mymodel.json"));
    EXPECT_TRUE(isWorkloadFilePath("models/resnet.onnx"));
    EXPECT_TRUE(isWorkloadFilePath("./llama"));
}

TEST(WorkloadFile, ReadsAgainWhenTheFileChanges) {
    ScratchDir dir;
    const auto path = (dir.path / "mlp.json").string();
    writeFile(path, handWritten().dump());
    EXPECT_EQ(cachedWorkload(path).name, "mlp");
    json d = handWritten();
    d["name"] = "renamed-and-longer";
    writeFile(path, d.dump());
    EXPECT_EQ(cachedWorkload(path).name, "renamed-and-longer");
}

Scenario scenarioOf(const std::string& workload) {
    Scenario s;
    s.workload = workload;
    s.framework = "jax";
    s.topology = "4x4";
    s.globalBatch = 256;
    return s;
}

TEST(WorkloadFile, WithoutConvergenceTheTimeToTrainIsUnknownAndSaysWhy) {
    ScratchDir dir;
    const auto path = (dir.path / "mlp.json").string();
    writeFile(path, handWritten().dump());
    const TrainingResult r = simulateTraining(scenarioOf(path));
    EXPECT_FALSE(r.timeToTrainKnown);
    EXPECT_NE(r.timeToTrainMissing.find("--train-steps"), std::string::npos);
    EXPECT_GT(r.stepTimeS, 0);
    EXPECT_GT(r.throughputExamplesPerS, 0);
    EXPECT_GT(r.modelFlopsUtilization, 0);
    EXPECT_LE(r.modelFlopsUtilization, r.computeEfficiency);
    const json j = toJson(r);
    EXPECT_TRUE(j.at("time_to_train_s").is_null());
    EXPECT_TRUE(j.at("time_to_train_missing").is_string());
    EXPECT_EQ(j.at("parameters").get<double>(), 1024.0 * 4096 + 4096 + 4096.0 * 1000 + 1000);
    EXPECT_EQ(j.at("forward_flops_per_example").get<double>(), 2 * (1024.0 * 4096 + 4096.0 * 1000));
}

TEST(WorkloadFile, TrainStepsAndExamplesGiveTheTimeToTrain) {
    ScratchDir dir;
    const auto path = (dir.path / "mlp.json").string();
    writeFile(path, handWritten().dump());
    Scenario s = scenarioOf(path);
    s.trainSteps = 1000;
    const TrainingResult steps = simulateTraining(s);
    ASSERT_TRUE(steps.timeToTrainKnown);
    // No evaluation and no start-up in the document: the run is its steps.
    EXPECT_DOUBLE_EQ(steps.timeToTrainS, 1000 * steps.stepTimeS);
    s.trainSteps.reset();
    s.trainExamples = 1000 * 256 - 100; // rounds up to 1000 whole steps
    const TrainingResult examples = simulateTraining(s);
    EXPECT_EQ(examples.steps, 1000);
    EXPECT_DOUBLE_EQ(examples.timeToTrainS, steps.timeToTrainS);
}

TEST(WorkloadFile, BuiltInAndHfModelsReportParametersAndFlops) {
    Scenario s = scenarioOf("bert");
    s.globalBatch = 512;
    const TrainingResult r = simulateTraining(s);
    const Workload& bert = cachedWorkload("bert");
    EXPECT_NEAR(r.parameters / bert.published.parameters, 1.0, 0.01);
    EXPECT_NEAR(r.forwardFlopsPerExample / (2 * bert.published.forwardMacsPerExample), 1.0, 0.02);
    EXPECT_TRUE(r.timeToTrainKnown);
}

} // namespace
} // namespace podscope
