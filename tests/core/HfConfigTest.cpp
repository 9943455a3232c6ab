// Hugging Face configs read as workloads: the parameter counts the model publishers state, and
// the forward FLOPs of a decoder against the closed form of Kaplan et al. 2020.
#include "common/InputError.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/Workload.hpp"

#include <gtest/gtest.h>
#include <string>

namespace podscope {
namespace {

std::string config(const std::string& folder) {
    return std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/hf/" + folder + "/config.json";
}

LayerGraph graphOf(const std::string& folder) {
    const Workload w = loadWorkload(config(folder));
    return bindLayerGraph(w.graph, {});
}

struct Published {
    const char* folder;
    double parameters;
    const char* source;
};

// Published totals; PodScope must come within 1% (the publishers round to three digits).
const Published kPublished[] = {
    {"gpt2", 124e6,
     "openai/gpt-2 download_model.py model name 124M; hub model card openai-community/gpt2"},
    {"gpt2-xl", 1558e6,
     "openai/gpt-2 download_model.py model name 1558M (the paper's 1.5B, Radford et al. 2019)"},
    {"llama-2-7b", 6.74e9, "hub page meta-llama/Llama-2-7b-hf: 6.74B params"},
    {"bert-large-uncased", 336e6, "hub page google-bert/bert-large-uncased: 336M params"},
    {"t5-base", 223e6, "hub page google-t5/t5-base: 223M params"},
    {"mixtral-8x7b", 46.7e9,
     "Mistral AI, 'Mixtral of experts' (2023-12-11): 46.7B total parameters"},
};

TEST(HfConfig, ParameterCountsMatchThePublishedOnes) {
    for (const Published& p : kPublished) {
        SCOPED_TRACE(std::string(p.folder) + " (" + p.source + ")");
        EXPECT_NEAR(graphOf(p.folder).parameters() / p.parameters, 1.0, 0.01);
    }
}

// Per token, a decoder's forward pass multiplies each weight once (Kaplan et al. 2020,
// arXiv 2001.08361, Table 1: C_forward = 2N + 2 n_layer n_ctx d_attn, N without embeddings).
// PodScope computes the whole score matrix as XLA does under a dense mask, twice Kaplan's
// causal context term: forward FLOPs = 2 N T + 4 n_layer T^2 d_attn for T tokens.
void expectKaplanForwardFlops(const std::string& folder, double tablesWithoutMacs, double layers,
                              double dAttn) {
    SCOPED_TRACE(folder);
    const LayerGraph g = graphOf(folder);
    const double tokens = g.variables.at("seq");
    const double n = g.parameters() - tablesWithoutMacs;
    const double expected = 2 * n * tokens + 4 * layers * tokens * tokens * dAttn;
    // Biases and norms are parameters without multiply-accumulates: well under 0.5%.
    EXPECT_NEAR(2 * g.forwardMacsPerExample() / expected, 1.0, 0.005);
}

TEST(HfConfig, DecoderForwardFlopsFollowTheClosedForm) {
    // Tied heads use the token table (counted once); the position table has no matmul.
    expectKaplanForwardFlops("gpt2", 1024.0 * 768, 12, 768);
    expectKaplanForwardFlops("gpt2-xl", 1024.0 * 1600, 48, 1600);
    // Llama's token table is looked up, its separate head multiplies.
    expectKaplanForwardFlops("llama-2-7b", 32000.0 * 4096, 32, 4096);
}

TEST(HfConfig, MixtureOfExpertsCountsEveryExpertButComputesTheActiveOnes) {
    const LayerGraph g = graphOf("mixtral-8x7b");
    const double tokens = g.variables.at("seq");
    const double attention = 4 * 32 * tokens * tokens * 4096 / 2; // MACs of 32 layers
    // Active parameters from the FLOPs: the weights a token meets, plus the token table.
    const double active = (g.forwardMacsPerExample() - attention) / tokens + 32000.0 * 4096;
    // Mistral AI, 'Mixtral of experts' (2023-12-11): 12.9B parameters used per token.
    EXPECT_NEAR(active / 12.9e9, 1.0, 0.01);
    EXPECT_NEAR(g.parameters() / active, 46.7 / 12.9, 0.05);
}

TEST(HfConfig, LlamaHasGroupedQueryAttentionAndAnUntiedHead) {
    const Workload w = loadWorkload(config("mixtral-8x7b"));
    const LayerGraph g = bindLayerGraph(w.graph, {{"seq", 128}});
    bool sawKv = false, sawHead = false;
    for (const Layer& l : g.layers) {
        if (l.name == "layers00.self_attn.kv_proj") {
            EXPECT_EQ(l.out, 2 * 8 * 128); // 8 key-value heads of 128
            sawKv = true;
        }
        if (l.name == "lm_head") {
            EXPECT_LT(l.tiedTo, 0);
            EXPECT_EQ(l.split, TensorSplit::Vocab);
            sawHead = true;
        }
        if (l.type == LayerType::Norm) {
            EXPECT_TRUE(l.rms);
        }
    }
    EXPECT_TRUE(sawKv && sawHead);
    EXPECT_TRUE(w.supports(ModelParallelKind::Tensor));
    EXPECT_FALSE(w.hasConvergence());
    EXPECT_EQ(w.name, "mixtral-8x7b");
}

TEST(HfConfig, SequenceLengthComesFromThePositionsAndIsCappedByThem) {
    const Workload w = loadWorkload(config("llama-2-7b"));
    EXPECT_EQ(w.graph.sequenceVariable, "seq");
    EXPECT_EQ(w.graph.variables.at("seq").value, 4096);
    EXPECT_EQ(w.graph.variables.at("seq").max, 4096);
    EXPECT_NO_THROW(bindLayerGraph(w.graph, {{"seq", 2048}}));
    EXPECT_THROW(bindLayerGraph(w.graph, {{"seq", 8192}}), InputError);
}

} // namespace
} // namespace podscope
