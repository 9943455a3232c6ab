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
