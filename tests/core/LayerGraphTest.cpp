// The workloads' layer graphs against the published totals of their architectures, and the
// rules that bind their shape variables.
#include "common/InputError.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/Workload.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace podscope {
namespace {

struct Totals {
    const char* workload;
    double parameterTolerance;
    double macTolerance;
};

class PublishedTotals : public ::testing::TestWithParam<Totals> {};

// Parameters and forward multiply-accumulates are computed from the shapes and compared with the
// published figures of ../shared/reference/compute-model.md section 2 (stored in each workload
// file as "published"). ResNet-50's space-to-depth stem (a 4x4 kernel on 12 channels instead of
// 7x7 on 3) adds 36M MACs of zero weights on the TPU, hence the wider MAC tolerance there.
TEST_P(PublishedTotals, ShapesGiveThePublishedParametersAndMacs) {
    const Totals t = GetParam();
    const Workload w = loadWorkload(t.workload);
    std::map<std::string, double> variables;
    if (std::string(t.workload) == "gnmt") {
        variables["len"] = 48; // the published GMAC are at the padded length 48
    }
    const LayerGraph g = bindLayerGraph(w.graph, variables);
    EXPECT_NEAR(g.parameters() / w.published.parameters, 1.0, t.parameterTolerance)
        << g.parameters() << " parameters";
    EXPECT_NEAR(g.forwardMacsPerExample() / w.published.forwardMacsPerExample, 1.0, t.macTolerance)
        << g.forwardMacsPerExample() << " MACs";
}

INSTANTIATE_TEST_SUITE_P(Workloads, PublishedTotals,
                         ::testing::Values(Totals{"resnet50", 0.01, 0.015}, Totals{"bert", 0.01, 0.01},
                                           Totals{"transformer", 0.01, 0.01},
                                           Totals{"gnmt", 0.01, 0.01}, Totals{"ssd", 0.01, 0.01},
                                           Totals{"maskrcnn", 0.01, 0.01}),
                         [](const auto& param) { return std::string(param.param.workload); });

TEST(LayerGraph, ResNetHasFiftyThreeConvolutionsAndOneClassifier) {
    const LayerGraph g = bindLayerGraph(loadWorkload("resnet50").graph, {});
    int convs = 0, dense = 0;
    for (const Layer& l : g.layers) {
        convs += l.type == LayerType::Conv;
        dense += l.type == LayerType::Dense;
    }
    EXPECT_EQ(convs, 53); // stem, 16 bottlenecks x 3, 4 projection shortcuts
    EXPECT_EQ(dense, 1);
}

TEST(LayerGraph, TiedWeightsCountOnce) {
    const LayerGraph g = bindLayerGraph(loadWorkload("transformer").graph, {});
    int tied = 0;
    for (const Layer& l : g.layers) {
        if (l.tiedTo >= 0) {
            ++tied;
            EXPECT_EQ(l.parameters(), 0) << l.name;
            EXPECT_EQ(g.layers[static_cast<std::size_t>(l.tiedTo)].name, "encoder.embedding");
        }
    }
    EXPECT_EQ(tied, 2); // the decoder embedding and the output projection share the table
}

TEST(LayerGraph, SequenceLengthScalesTheTokenWork) {
    const Workload bert = loadWorkload("bert");
    const LayerGraph full = bindLayerGraph(bert.graph, {});
    const LayerGraph short128 = bindLayerGraph(bert.graph, {{"seq", 128}});
    // Dense layers scale with the tokens, attention with their square; the parameters stay.
    EXPECT_DOUBLE_EQ(short128.parameters(), full.parameters());
    EXPECT_LT(short128.forwardMacsPerExample(), full.forwardMacsPerExample() / 4 * 1.01);
    EXPECT_GT(short128.forwardMacsPerExample(), full.forwardMacsPerExample() / 4 * 0.9);
}

// Issue 19: GNMT's length buckets were assumed equal (mean 32). Google's profile gives the steps
// per core at each padded length (2.5/36.0/47.3/36.0/20.7 of 142.2 at 18/24/30/42/48): mean
// (2.5 x 18 + 36 x 24 + 47.3 x 30 + 36 x 42 + 20.7 x 48) / 142.5 = 33.9, so 34 tokens.
TEST(LayerGraph, GnmtLengthIsTheProfiledBucketMix) {
    const Workload gnmt = loadWorkload("gnmt");
    const ShapeVariable& len = gnmt.graph.variables.at("len");
    const double profileMean = (2.5 * 18 + 36.0 * 24 + 47.3 * 30 + 36.0 * 42 + 20.7 * 48) /
                               (2.5 + 36.0 + 47.3 + 36.0 + 20.7);
    EXPECT_NEAR(profileMean, 33.9, 0.05);
    EXPECT_DOUBLE_EQ(len.value, std::round(profileMean));
    ASSERT_EQ(len.bucketShares.size(), 5u);
    EXPECT_NEAR(len.bucketShares[2], 47.3 / 142.5, 0.001); // the 30-token bucket, a third
    // A value out of step with its buckets (the old equal-share 32) is refused.
    const auto graph = [](double value) {
        return nlohmann::json::parse(R"({"variables": {"len": {"value": )" + std::to_string(value) +
                                     R"(, "min": 1, "max": 48, "source": "test", "buckets":
            {"lengths": [18, 24, 30, 42, 48], "shares": [0.018, 0.253, 0.332, 0.253, 0.145],
             "source": "test"}}}, "sequence_variable": "len",
            "layers": [{"name": "d", "type": "dense", "rows": "len", "in": 8, "out": 8}]})");
    };
    EXPECT_NO_THROW(parseLayerGraphSpec(graph(34), "test"));
    EXPECT_THROW(parseLayerGraphSpec(graph(32), "test"), InputError);
}

TEST(LayerGraph, ShapeVariablesOutsideTheirRangeAreRefused) {
    const Workload gnmt = loadWorkload("gnmt");
    EXPECT_THROW(bindLayerGraph(gnmt.graph, {{"len", 49}}), InputError); // buckets end at 48
    EXPECT_THROW(bindLayerGraph(gnmt.graph, {{"len", 12.5}}), InputError);
    EXPECT_THROW(bindLayerGraph(gnmt.graph, {{"width", 3}}), InputError);
    try {
        bindLayerGraph(gnmt.graph, {{"len", 0}});
        ADD_FAILURE() << "length 0 accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "sequence_length");
    }
}

// A sort layer reads its row count and length; a missing or empty length is refused by name.
TEST(LayerGraph, SortLayersNeedARowLength) {
    const auto graph = [](const std::string& sort) {
        return nlohmann::json::parse(R"({"layers": [{"name": "topk", "type": "sort", )" + sort +
                                     "}]}");
    };
    const LayerGraph ok = bindLayerGraph(
        parseLayerGraphSpec(graph(R"("rows": 1, "length": 4819, "element_bytes": 6)"), "test"), {});
    ASSERT_EQ(ok.layers.size(), 1u);
    EXPECT_EQ(ok.layers[0].type, LayerType::Sort);
    EXPECT_DOUBLE_EQ(ok.layers[0].length, 4819);
    EXPECT_DOUBLE_EQ(ok.layers[0].arrays, 2); // keys and their indices unless told
    EXPECT_DOUBLE_EQ(ok.layers[0].elementBytes, 6);
    for (const std::string& bad :
         {std::string(R"("rows": 1)"), std::string(R"("rows": 1, "length": 0)"),
          std::string(R"("rows": 1, "length": 8, "arrays": -1)")}) {
        try {
            bindLayerGraph(parseLayerGraphSpec(graph(bad), "test"), {});
            ADD_FAILURE() << bad << " accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(
                          bad.find("arrays") != std::string::npos ? "arrays" : "length"),
                      std::string::npos)
                << e.what();
        }
    }
}

// An embedding gathers its rows by index unless the graph says the code reads them in order:
// BERT's word table gathers, its position slice and two-row token-type product stream. An
// unknown way of reading is refused by field.
TEST(LayerGraph, EmbeddingsGatherUnlessTheirRowsStream) {
    const LayerGraph bert = bindLayerGraph(loadWorkload("bert").graph, {});
    std::map<std::string, bool> streamed;
    for (const Layer& l : bert.layers) {
        if (l.type == LayerType::Embedding) {
            streamed[l.name] = l.streamed;
        }
    }
    EXPECT_EQ(streamed, (std::map<std::string, bool>{{"embeddings.position", true},
                                                     {"embeddings.type", true},
                                                     {"embeddings.word", false}}));
    const auto graph = [](const std::string& lookup) {
        return nlohmann::json::parse(
            R"({"layers": [{"name": "table", "type": "embedding", "vocab": 8, "dim": 4, "rows": 2)" +
            lookup + "}]}");
    };
    EXPECT_FALSE(bindLayerGraph(parseLayerGraphSpec(graph(""), "test"), {}).layers[0].streamed);
    EXPECT_TRUE(bindLayerGraph(parseLayerGraphSpec(graph(R"(, "lookup": "streamed")"), "test"), {})
                    .layers[0]
                    .streamed);
    try {
        bindLayerGraph(parseLayerGraphSpec(graph(R"(, "lookup": "sliced")"), "test"), {});
        ADD_FAILURE() << "an unknown lookup accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("lookup"), std::string::npos) << what;
        EXPECT_NE(what.find("sliced"), std::string::npos) << what;
    }
}

// A relayout names its source and destination arrays with XLA's minor-to-major orders (axis 0
// the batch); an order that is not a permutation, arrays of different sizes or an unknown pass
// are refused by field.
TEST(LayerGraph, RelayoutsNeedTwoLayoutsOfOneArray) {
    const auto graph = [](const std::string& to, const std::string& extra) {
        return nlohmann::json::parse(
            R"({"layers": [{"name": "t", "type": "relayout", "element_bytes": 2,
                "from": {"dims": [209664, 4], "minor_to_major": [2, 1, 0]}, "to": )" +
            to + extra + "}]}");
    };
    const std::string good = R"({"dims": [209664, 4], "minor_to_major": [1, 2, 0]})";
    const LayerGraph ok = bindLayerGraph(
        parseLayerGraphSpec(graph(good, R"(, "transposed": true, "pass": "both")"), "test"), {});
    ASSERT_EQ(ok.layers.size(), 1u);
    const Layer& t = ok.layers[0];
    EXPECT_EQ(t.type, LayerType::Relayout);
    EXPECT_EQ(t.toOrder, (std::vector<int>{1, 2, 0}));
    EXPECT_TRUE(t.transposed && t.forward && t.backward);
    const LayerGraph plain = bindLayerGraph(parseLayerGraphSpec(graph(good, ""), "test"), {});
    EXPECT_TRUE(!plain.layers[0].transposed && plain.layers[0].forward &&
                !plain.layers[0].backward); // a forward regroup unless told
    const std::pair<std::string, std::string> bad[] = {
        {R"({"dims": [209664, 4], "minor_to_major": [1, 1, 0]})", "minor_to_major"},
        {R"({"dims": [209664, 4], "minor_to_major": [1, 2]})", "minor_to_major"},
        {R"({"dims": [209664, 4], "minor_to_major": [1, 2, 3]})", "minor_to_major"},
        {R"({"dims": [209664, 5], "minor_to_major": [1, 2, 0]})", "as many elements"},
        {R"({"dims": [209664, 0.5], "minor_to_major": [1, 2, 0]})", "whole numbers"},
        {R"({"dims": [], "minor_to_major": [0]})", "1 to 8"},
        {R"({"dims": [209664, 4]})", "minor_to_major"},
        {R"([209664, 4])", "'to'"},
    };
    for (const auto& [to, problem] : bad) {
        try {
            bindLayerGraph(parseLayerGraphSpec(graph(to, ""), "test"), {});
            ADD_FAILURE() << to << " accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
        }
    }
    try {
        bindLayerGraph(parseLayerGraphSpec(graph(good, R"(, "pass": "sideways")"), "test"), {});
        ADD_FAILURE() << "pass 'sideways' accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'pass'"), std::string::npos) << e.what();
    }
}

TEST(LayerGraph, ReductionsShrinkTheirOperandAndCountWholeKernels) {
    const auto parse = [](const std::string& to, const std::string& extra) {
        return bindLayerGraph(
            parseLayerGraphSpec(
                nlohmann::json::parse(
                    R"({"layers": [{"name": "r", "type": "reduce", "element_bytes": 4,
                        "from": {"dims": [512, 512], "minor_to_major": [2, 1, 0]}, "to": )" +
                    to + extra + "}]}"),
                "test"),
            {});
    };
    const std::string row = R"({"dims": [512], "minor_to_major": [1, 0]})";
    const LayerGraph ok = parse(row, R"(, "count": 36)");
    ASSERT_EQ(ok.layers.size(), 1u);
    EXPECT_EQ(ok.layers[0].type, LayerType::Reduce);
    EXPECT_EQ(ok.layers[0].count, 36);
    EXPECT_TRUE(ok.layers[0].forward && !ok.layers[0].backward);
    EXPECT_EQ(parse(row, "").layers[0].count, 1);
    const std::pair<std::string, std::string> bad[] = {
        {R"({"dims": [512, 512], "minor_to_major": [2, 1, 0]})", "fewer elements"},
        {R"({"dims": [1024, 512], "minor_to_major": [2, 1, 0]})", "fewer elements"},
        {row + R"(, "count": 0)", "'count'"},
        {row + R"(, "count": 2.5)", "'count'"},
        {row + R"(, "pass": "sideways")", "'pass'"},
    };
    for (const auto& [to, problem] : bad) {
        try {
            parse(to, "");
            ADD_FAILURE() << to << " accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
        }
    }
}

TEST(LayerGraph, ModelParallelKindsFollowTheLayers) {
    EXPECT_TRUE(loadWorkload("ssd").supports(ModelParallelKind::Spatial));
    EXPECT_TRUE(loadWorkload("resnet50").supports(ModelParallelKind::Spatial));
    EXPECT_FALSE(loadWorkload("resnet50").supports(ModelParallelKind::Tensor));
    EXPECT_TRUE(loadWorkload("transformer").supports(ModelParallelKind::Tensor));
    EXPECT_FALSE(loadWorkload("gnmt").supports(ModelParallelKind::Tensor));
    EXPECT_FALSE(loadWorkload("gnmt").supports(ModelParallelKind::Spatial));
}

} // namespace
} // namespace podscope
