// ONNX import (issue 21): torchvision models exported by tests/data/onnx/make_fixtures.py (shapes
// only, weights stripped) against the published sizes and the built-in ResNet-50 graph.
//
// Convention: Layer::forwardMacs counts multiply-accumulates. torchvision's model tables give
// "GFLOPS" counted one per multiply-accumulate (ResNet-50: 4.09), so they compare with MACs.
#include "import/OnnxImport.hpp"

#include "compute/LayerCost.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/Workload.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <onnx/onnx_pb.h>
#include <tuple>

namespace podscope {
namespace {

std::string fixture(const std::string& name) {
    return std::string(PODSCOPE_ONNX_FIXTURES) + "/" + name + ".onnx";
}

LayerGraph bound(const ImportedGraph& imported) {
    return bindLayerGraph(parseLayerGraphSpec(imported.workload.at("graph"), "test"), {});
}

int countType(const LayerGraph& g, LayerType type) {
    return static_cast<int>(std::count_if(g.layers.begin(), g.layers.end(),
                                          [&](const Layer& l) { return l.type == type; }));
}

struct GroupTotals {
    double macs = 0, parameters = 0;
};

std::map<std::string, GroupTotals> byGroup(const LayerGraph& g) {
    std::map<std::string, GroupTotals> groups;
    for (const Layer& l : g.layers) {
        groups[l.group].macs += l.forwardMacs();
        groups[l.group].parameters += l.parameters();
    }
    return groups;
}

using ConvShape = std::tuple<double, double, double, double, int, int, int, int, bool>;

std::vector<ConvShape> convShapes(const LayerGraph& g, const std::string& group) {
    std::vector<ConvShape> shapes;
    for (const Layer& l : g.layers) {
        if (l.type == LayerType::Conv && l.group == group) {
            shapes.emplace_back(l.h, l.w, l.cin, l.cout, l.k, l.stride,
                                static_cast<int>(l.batchNorm), static_cast<int>(l.activation),
                                l.residual);
        }
    }
    std::sort(shapes.begin(), shapes.end());
    return shapes;
}

TEST(OnnxImport, DocumentIsAWorkloadGraph) {
    const ImportedGraph imported = importOnnx(fixture("resnet50"));
    const auto& doc = imported.workload;
    EXPECT_EQ(doc.at("format_version"), 1);
    EXPECT_EQ(doc.at("name"), "resnet50");
    EXPECT_EQ(doc.at("example_unit"), "example");
    EXPECT_EQ(doc.at("graph").at("source"), "resnet50.onnx (ONNX import)");
    EXPECT_TRUE(doc.at("graph").at("variables").empty());
    EXPECT_TRUE(imported.unmapped.empty());
    EXPECT_NE(doc.at("description").get<std::string>().find("Every operator maps"),
              std::string::npos);
}

// torchvision resnet50: 25,557,032 parameters, 4.09 GFLOPS (multiply-accumulates) at 224x224
// (torchvision model documentation, ResNet50_Weights.IMAGENET1K_V1). The built-in graph follows
// the TPU implementation, whose space-to-depth stem differs (docs/training-model.md, section 1):
// every other group must match it layer for layer.
TEST(OnnxImport, ResNet50MatchesTorchvisionAndTheBuiltInGraph) {
    const LayerGraph imported = bound(importOnnx(fixture("resnet50")));
    EXPECT_NEAR(imported.parameters(), 25557032, 1);
    EXPECT_NEAR(imported.forwardMacsPerExample() / 1e9, 4.09, 0.005);

    const Workload builtIn = loadWorkload("resnet50");
    const LayerGraph reference = bindLayerGraph(builtIn.graph, {});
    EXPECT_NEAR(imported.parameters() / 1e6, 25.56, 0.005);
    EXPECT_NEAR(reference.parameters() / 1e6, 25.56, 0.005);
    EXPECT_NEAR(imported.forwardMacsPerExample() / reference.forwardMacsPerExample(), 1, 0.01);

    const auto mine = byGroup(imported);
    const auto theirs = byGroup(reference);
    for (int i = 1; i <= 4; ++i) {
        const std::string group = "group" + std::to_string(i), layer = "layer" + std::to_string(i);
        ASSERT_TRUE(mine.count(layer)) << layer;
        EXPECT_DOUBLE_EQ(mine.at(layer).macs, theirs.at(group).macs) << group;
        EXPECT_DOUBLE_EQ(mine.at(layer).parameters, theirs.at(group).parameters) << group;
        EXPECT_EQ(convShapes(imported, layer), convShapes(reference, group)) << group;
    }
    EXPECT_DOUBLE_EQ(mine.at("fc").macs, theirs.at("head").macs);
    EXPECT_DOUBLE_EQ(mine.at("fc").parameters, theirs.at("head").parameters);
    // Only the stems differ: torchvision's 7x7 conv on 3 channels against the folded 4x4 on 12.
    const double stemMacs = imported.forwardMacsPerExample() - reference.forwardMacsPerExample();
    EXPECT_DOUBLE_EQ(stemMacs, mine.at("conv1").macs - theirs.at("stem").macs);
    EXPECT_EQ(countType(imported, LayerType::Conv), 53);
    EXPECT_EQ(countType(imported, LayerType::Pool), 1);
    // The built-in graph also states the infeed's relayout into the stem's layout, which an
    // ONNX file does not; every other layer has its counterpart.
    EXPECT_EQ(countType(reference, LayerType::Relayout), 1);
    EXPECT_EQ(imported.layers.size(), reference.layers.size() - 1);
}

// torchvision vit_b_16: 86,567,656 parameters, 17.56 GFLOPS (multiply-accumulates).
TEST(OnnxImport, VitB16MatchesTorchvision) {
    const LayerGraph g = bound(importOnnx(fixture("vit_b_16")));
    EXPECT_NEAR(g.parameters(), 86567656, 1);
    EXPECT_NEAR(g.forwardMacsPerExample() / 1e9, 17.56, 0.01);
    ASSERT_EQ(countType(g, LayerType::Attention), 12);
    for (const Layer& l : g.layers) {
        if (l.type == LayerType::Attention) {
            EXPECT_EQ(l.heads, 12);
            EXPECT_EQ(l.q, 197);
            EXPECT_EQ(l.kv, 197);
            EXPECT_EQ(l.dim, 64);
        }
    }
    EXPECT_EQ(countType(g, LayerType::Norm), 25); // two per block and the final one
    const auto gelu = std::count_if(g.layers.begin(), g.layers.end(), [](const Layer& l) {
        return l.activation == Activation::Gelu;
    });
    EXPECT_EQ(gelu, 12);
}

// torchvision mobilenet_v3_large: 5,483,032 parameters, 0.22 GFLOPS; efficientnet_b0:
// 5,288,548 parameters, 0.39 GFLOPS. Depthwise convolutions carry cin / groups.
TEST(OnnxImport, MobileNetV3AndEfficientNetB0MatchTorchvision) {
    const LayerGraph mobile = bound(importOnnx(fixture("mobilenet_v3_large")));
    EXPECT_NEAR(mobile.parameters(), 5483032, 1);
    EXPECT_NEAR(mobile.forwardMacsPerExample() / 1e9, 0.22, 0.005);
    const LayerGraph efficient = bound(importOnnx(fixture("efficientnet_b0")));
    EXPECT_NEAR(efficient.parameters(), 5288548, 1);
    EXPECT_NEAR(efficient.forwardMacsPerExample() / 1e9, 0.39, 0.005);
    const auto depthwise =
        std::count_if(efficient.layers.begin(), efficient.layers.end(),
                      [](const Layer& l) { return l.type == LayerType::Conv && l.cin == 1; });
    EXPECT_EQ(depthwise, 16); // one per MBConv block
}

// torch.nn.Transformer(d_model=128, nhead=4, 2 + 2 layers, dim_feedforward=512): 926,208
// parameters (sum of p.numel() in torch, printed by make_fixtures.py).
TEST(OnnxImport, TorchTransformerLoads) {
    const ImportedGraph imported = importOnnx(fixture("transformer"));
    EXPECT_TRUE(imported.unmapped.empty());
    const LayerGraph g = bound(imported);
    EXPECT_NEAR(g.parameters(), 926208, 1);
    // Self-attention in each layer and cross-attention in each decoder layer, 4 heads of 32.
    ASSERT_EQ(countType(g, LayerType::Attention), 6);
    for (const Layer& l : g.layers) {
        if (l.type == LayerType::Attention) {
            EXPECT_EQ(l.heads, 4);
            EXPECT_EQ(l.q, 32);
            EXPECT_EQ(l.dim, 32);
        }
    }
    EXPECT_EQ(countType(g, LayerType::Norm), 2 * 2 + 2 * 3 + 2);
}

// Embedding(1000, 64) -> LSTM(64, 128) -> GRU(128, 128) -> LayerNorm(128) -> Linear(128, 1000)
// over 16 tokens, opset 17: torch counts 391,656 parameters, the recurrent layers' two biases per
// gate (ONNX's Wb and Rb) among them.
TEST(OnnxImport, EmbeddingLstmGruAndLayerNormalization) {
    const LayerGraph g = bound(importOnnx(fixture("token_tagger")));
    EXPECT_EQ(g.parameters(), 391656);
    ASSERT_EQ(countType(g, LayerType::Embedding), 1);
    ASSERT_EQ(countType(g, LayerType::Recurrent), 2);
    ASSERT_EQ(countType(g, LayerType::Norm), 1);
    for (const Layer& l : g.layers) {
        if (l.type == LayerType::Recurrent) {
            EXPECT_EQ(l.steps, 16);
            EXPECT_EQ(l.hidden, 128);
            EXPECT_EQ(l.gates, l.in == 64 ? 4 : 3) << l.name;
        }
        if (l.type == LayerType::Embedding) {
            EXPECT_EQ(l.rows, 16); // one lookup per token
            EXPECT_EQ(l.vocab, 1000);
        }
        if (l.type == LayerType::Loss) {
            EXPECT_EQ(l.rows, 16);
            EXPECT_EQ(l.classes, 1000);
        }
    }
}

// torch's default layout, [sequence, batch, features] with the batch on axis 1:
// LSTM(32, 64, bidirectional) -> GRU(128, 48) -> Linear(48, 10) over 12 steps. torch counts
// 50,176 + 25,632 + 490 = 76,298 parameters; the forward pass is 12 steps of each direction's
// (32 + 64) x 4 x 64 and the GRU's (128 + 48) x 3 x 48 MACs, and the classifier's 12 x 48 x 10.
TEST(OnnxImport, SequenceFirstRecurrentLayersFindTheBatchOnTheSecondAxis) {
    const ImportedGraph imported = importOnnx(fixture("sequence_first_tagger"));
    const LayerGraph g = bound(imported);
    EXPECT_EQ(g.parameters(), 76298);
    ASSERT_EQ(countType(g, LayerType::Recurrent), 3);
    for (const Layer& l : g.layers) {
        if (l.type == LayerType::Recurrent) {
            EXPECT_EQ(l.steps, 12) << l.name; // not the batch
            EXPECT_EQ(l.biases, 2) << l.name;
        }
    }
    EXPECT_EQ(g.forwardMacsPerExample(),
              12.0 * (2 * (32 + 64) * 4 * 64 + (128 + 48) * 3 * 48 + 48 * 10));
    EXPECT_NE(imported.workload.at("description")
                  .get<std::string>()
                  .find("the batch is dimension 1 of input 'input' ('batch')"),
              std::string::npos);
}

// Conv2d(8, 32, 3, groups=4) and ConvTranspose2d(32, 16, 4, stride=2) on 32 x 32: torch counts
// 8,816 parameters. A grouped conv contracts over 8 / 4 channels per tap; a transposed one
// scatters each of its 32 x 32 inputs through 4 x 4 taps to 16 channels.
TEST(OnnxImport, GroupedAndTransposedConvolutions) {
    const ImportedGraph imported = importOnnx(fixture("upsampler"));
    const LayerGraph g = bound(imported);
    EXPECT_NEAR(g.parameters(), 8816, 0.5);
    ASSERT_EQ(countType(g, LayerType::Conv), 2);
    EXPECT_EQ(g.layers[0].cin, 2);
    EXPECT_EQ(g.layers[0].activation, Activation::Relu);
    EXPECT_DOUBLE_EQ(g.layers[0].forwardMacs(), 32.0 * 32 * 9 * 2 * 32);
    EXPECT_DOUBLE_EQ(g.layers[1].forwardMacs(), 32.0 * 32 * 16 * 32 * 16);
    EXPECT_EQ(countType(g, LayerType::Loss), 0); // an image out: no classes to score
}

// A ConvTranspose whose weight is computed (a Reshape of an initializer) has the weight's rank
// checked only once inference has reached the Reshape (import/OnnxInferenceGuard.hpp): the
// node waits a round, then maps to the same layer as with the initializer itself.
TEST(OnnxImport, TransposedConvolutionWithAComputedWeight) {
    onnx::ModelProto m;
    {
        std::ifstream in(fixture("upsampler"), std::ios::binary);
        ASSERT_TRUE(m.ParseFromIstream(&in));
    }
    auto& g = *m.mutable_graph();
    std::string weight;
    for (const auto& n : g.node()) {
        if (n.op_type() == "ConvTranspose") {
            weight = n.input(1);
        }
    }
    ASSERT_FALSE(weight.empty());
    auto* shape = g.add_initializer();
    shape->set_name("weight_shape");
    shape->set_data_type(onnx::TensorProto::INT64);
    shape->add_dims(4);
    for (const std::int64_t d : {32, 16, 4, 4}) {
        shape->add_int64_data(d);
    }
    for (auto& t : *g.mutable_initializer()) {
        if (t.name() == weight) {
            t.set_name(weight + ".source");
        }
    }
    auto* reshape = g.add_node();
    reshape->set_op_type("Reshape");
    reshape->add_input(weight + ".source");
    reshape->add_input("weight_shape");
    reshape->add_output(weight);
    const LayerGraph computed = bound(importOnnxBytes(m.SerializeAsString(), "computed.onnx"));
    ASSERT_EQ(countType(computed, LayerType::Conv), 2);
    EXPECT_DOUBLE_EQ(computed.layers[1].forwardMacs(), 32.0 * 32 * 16 * 32 * 16);
}

// The imported graph in the built-in ResNet-50 preset's plan (same slice, batch, core and split):
// its layers lowered as the plan lowers the built-in ones. The exchanges stay the plan's, which
// the two graphs share (the same parameters to 0.01 %, batch norm after the same convolutions).
TEST(OnnxImport, ResNet50StepWithinThreePercentOfTheBuiltIn) {
    const Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    const StepPlan builtIn = buildStepPlan(scenario);
    const LayerGraph imported = bound(importOnnx(fixture("resnet50")));
    StepPlan plan = builtIn;
    plan.graph = &imported;
    plan.layers.clear();
    plan.parametersPerCore = 0;
    double computeImported = 0, computeBuiltIn = 0;
    for (std::size_t i = 0; i < imported.layers.size(); ++i) {
        plan.layers.push_back(lowerLayer(imported.layers[i], builtIn.parallelism.perReplicaBatch,
                                         builtIn.split, builtIn.core, i > 0));
        plan.parametersPerCore += plan.layers.back().parameters;
        computeImported += plan.layers.back().forward.seconds + plan.layers.back().backward.seconds;
    }
    for (const LayerCost& c : builtIn.layers) {
        computeBuiltIn += c.forward.seconds + c.backward.seconds;
    }
    EXPECT_NEAR(computeImported / computeBuiltIn, 1, 0.03);
    const double step = evaluateStepPlan(plan, scenario).trainStepS;
    const double reference = evaluateStepPlan(builtIn, scenario).trainStepS;
    EXPECT_NEAR(step / reference, 1, 0.03) << step << " s against " << reference << " s";
    std::cout << "ResNet-50 step: imported " << step * 1e3 << " ms, built-in " << reference * 1e3
              << " ms; compute " << computeImported * 1e3 << " ms against " << computeBuiltIn * 1e3
              << " ms\n";
}

} // namespace
} // namespace podscope
