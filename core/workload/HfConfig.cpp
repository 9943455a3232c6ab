#include "workload/HfConfig.hpp"

#include "common/InputError.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace podscope {
namespace {

using nlohmann::json;

// Sizes in a config beyond this are garbage (the largest published vocabularies are ~256 k).
constexpr double kAbsurdConfigSize = 1e9;

// Reads the keys of a config, naming the file and the key in errors.
struct ConfigReader {
    const json& config;
    const std::string& file;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(file, "'" + key + "' " + problem);
    }
    bool has(const std::string& key) const {
        return config.contains(key) && !config.at(key).is_null();
    }
    // The first of `keys` the config has, as a positive whole number.
    double size(std::initializer_list<const char*> keys) const {
        for (const char* key : keys) {
            if (has(key)) {
                const json& v = config.at(key);
                if (!v.is_number() || !(v.get<double>() >= 1) ||
                    std::floor(v.get<double>()) != v.get<double>() ||
                    v.get<double>() > kAbsurdConfigSize) {
                    fail(key, "must be a whole number from 1 to 1e9");
                }
                return v.get<double>();
            }
        }
        fail(*keys.begin(), "is missing");
    }
    double sizeOr(std::initializer_list<const char*> keys, double fallback) const {
        for (const char* key : keys) {
            if (has(key)) {
                return size({key});
            }
        }
        return fallback;
    }
    bool flag(const std::string& key, bool fallback) const {
        if (!has(key)) {
            return fallback;
        }
        if (!config.at(key).is_boolean()) {
            fail(key, "must be true or false");
        }
        return config.at(key).get<bool>();
    }
    std::string text(const std::string& key, const std::string& fallback) const {
        if (!has(key)) {
            return fallback;
        }
        if (!config.at(key).is_string()) {
            fail(key, "must be a string");
        }
        return config.at(key).get<std::string>();
    }
};

// SiLU (Llama, Mixtral) and GELU both take one transcendental per element: SiLU costs as GELU.
std::string activationOf(const std::string& hfName) {
    if (hfName == "relu") {
        return "relu";
    }
    if (hfName == "tanh") {
        return "tanh";
    }
    return "gelu"; // gelu, gelu_new, gelu_pytorch_tanh, silu, swish
}

std::string number(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// Builds the layers of the document in order.
struct GraphBuilder {
    json layers = json::array();
    std::string group;

    json& add(json layer) {
        layer["group"] = group;
        layers.push_back(std::move(layer));
        return layers.back();
    }
    json& dense(const std::string& name, const json& rows, double in, double out, bool bias,
                const std::string& act, const std::string& split, bool residual = false) {
        return add({{"name", name},
                    {"type", "dense"},
                    {"rows", rows},
                    {"in", in},
                    {"out", out},
                    {"bias", bias},
                    {"act", act},
                    {"split", split},
                    {"residual", residual}});
    }
    void attention(const std::string& name, double heads, double dim) {
        add({{"name", name},
             {"type", "attention"},
             {"heads", heads},
             {"q", "seq"},
             {"kv", "seq"},
             {"dim", dim}});
    }
    void norm(const std::string& name, double dim, bool rms) {
        add({{"name", name},
             {"type", "norm"},
             {"rows", "seq"},
             {"dim", dim},
             {"variant", rms ? "rms" : "layer"}});
    }
    json& embedding(const std::string& name, double vocab, double dim, const json& rows,
                    const std::string& split = "none") {
        return add({{"name", name},
                    {"type", "embedding"},
                    {"vocab", vocab},
                    {"dim", dim},
                    {"rows", rows},
                    {"split", split}});
    }
    // The product of a gated MLP's two halves (SwiGLU, GeGLU).
    void gate(const std::string& name, const std::string& elements) {
        add({{"name", name},
             {"type", "elementwise"},
             {"elements", elements},
             {"ops", 1},
             {"passes", 3}});
    }
    void lmHead(double hidden, double vocab, const std::string& tiedTo) {
        json& head = dense("lm_head", "seq", hidden, vocab, false, "none", "vocab");
        if (!tiedTo.empty()) {
            head["tied"] = tiedTo;
        }
        add({{"name", "loss"},
             {"type", "loss"},
             {"rows", "seq"},
             {"classes", vocab},
             {"split", "vocab"}});
    }
};

std::string layerName(const std::string& stack, int i) {
    char text[32];
    std::snprintf(text, sizeof text, "%s%02d", stack.c_str(), i);
    return text;
}

struct Family {
    std::string name;
    double sequence = 0;
    std::string sequenceKey;
    GraphBuilder graph;
};

void gpt2(const ConfigReader& c, Family& f) {
    const double hidden = c.size({"n_embd", "hidden_size"});
    const double layers = c.size({"n_layer", "num_hidden_layers"});
    const double heads = c.size({"n_head", "num_attention_heads"});
    const double vocab = c.size({"vocab_size"});
    const double inner = c.sizeOr({"n_inner"}, 4 * hidden);
    const std::string act = activationOf(c.text("activation_function", "gelu_new"));
    f.sequenceKey = c.has("n_positions") ? "n_positions" : "n_ctx";
    f.sequence = c.size({"n_positions", "n_ctx"});
    GraphBuilder& g = f.graph;
    g.group = "embeddings";
    g.embedding("wte", vocab, hidden, "seq", "vocab");
    g.embedding("wpe", f.sequence, hidden, "seq")["lookup"] = "streamed"; // positions in order
    for (int i = 0; i < static_cast<int>(layers); ++i) {
        g.group = layerName("h", i);
        const std::string p = g.group + ".";
        g.norm(p + "ln_1", hidden, false);
        g.dense(p + "attn.c_attn", "seq", hidden, 3 * hidden, true, "none", "column");
        g.attention(p + "attn", heads, hidden / heads);
        g.dense(p + "attn.c_proj", "seq", hidden, hidden, true, "none", "row", true);
        g.norm(p + "ln_2", hidden, false);
        g.dense(p + "mlp.c_fc", "seq", hidden, inner, true, act, "column");
        g.dense(p + "mlp.c_proj", "seq", inner, hidden, true, "none", "row", true);
    }
    g.group = "head";
    g.norm("ln_f", hidden, false);
    g.lmHead(hidden, vocab, c.flag("tie_word_embeddings", true) ? "wte" : "");
}

void bert(const ConfigReader& c, Family& f) {
    const double hidden = c.size({"hidden_size"});
    const double layers = c.size({"num_hidden_layers"});
    const double heads = c.size({"num_attention_heads"});
    const double inner = c.sizeOr({"intermediate_size"}, 4 * hidden);
    const double vocab = c.size({"vocab_size"});
    const double types = c.sizeOr({"type_vocab_size"}, 2);
    const std::string act = activationOf(c.text("hidden_act", "gelu"));
    f.sequenceKey = "max_position_embeddings";
    f.sequence = c.size({"max_position_embeddings"});
    GraphBuilder& g = f.graph;
    g.group = "embeddings";
    g.embedding("embeddings.word", vocab, hidden, "seq", "vocab");
    g.embedding("embeddings.position", f.sequence, hidden, "seq")["lookup"] = "streamed";
    g.embedding("embeddings.type", types, hidden, "seq")["lookup"] = "streamed";
    g.norm("embeddings.norm", hidden, false);
    for (int i = 0; i < static_cast<int>(layers); ++i) {
        g.group = layerName("layer", i);
        const std::string p = g.group + ".";
        g.dense(p + "qkv", "seq", hidden, 3 * hidden, true, "none", "column");
        g.attention(p + "attention", heads, hidden / heads);
        g.dense(p + "attention_out", "seq", hidden, hidden, true, "none", "row", true);
        g.norm(p + "norm1", hidden, false);
        g.dense(p + "ffn_in", "seq", hidden, inner, true, act, "column");
        g.dense(p + "ffn_out", "seq", inner, hidden, true, "none", "row", true);
        g.norm(p + "norm2", hidden, false);
    }
    // Pre-training heads (BertForPreTraining): masked LM over every position, as Hugging Face
    // computes it, and next-sentence prediction on the pooled first token.
    g.group = "heads";
    g.dense("mlm.transform", "seq", hidden, hidden, true, act, "none");
    g.norm("mlm.norm", hidden, false);
    g.dense("mlm.decoder", "seq", hidden, vocab, true, "none", "vocab")["tied"] = "embeddings.word";
    g.add({{"name", "mlm.loss"},
           {"type", "loss"},
           {"rows", "seq"},
           {"classes", vocab},
           {"split", "vocab"}});
    g.dense("nsp.pooler", 1, hidden, hidden, true, "tanh", "none");
    g.dense("nsp.classifier", 1, hidden, 2, true, "none", "none");
    g.add({{"name", "nsp.loss"}, {"type", "loss"}, {"rows", 1}, {"classes", 2}});
}

void t5(const ConfigReader& c, Family& f) {
    const double model = c.size({"d_model"});
    const double kvDim = c.size({"d_kv"});
    const double ff = c.size({"d_ff"});
    const double encoderLayers = c.size({"num_layers"});
    const double decoderLayers = c.sizeOr({"num_decoder_layers"}, encoderLayers);
    const double heads = c.size({"num_heads"});
    const double vocab = c.size({"vocab_size"});
    const double buckets = c.sizeOr({"relative_attention_num_buckets"}, 32);
    const std::string projection = c.text("feed_forward_proj", "relu");
    const bool gated = projection.rfind("gated-", 0) == 0;
    const std::string act = activationOf(gated ? projection.substr(6) : projection);
    // T5 has relative positions, no position table: n_positions is the length it was trained at.
    f.sequenceKey = "n_positions";
    f.sequence = c.sizeOr({"n_positions"}, 512);
    const double inner = heads * kvDim;
    GraphBuilder& g = f.graph;
    g.group = "embeddings";
    g.embedding("shared", vocab, model, "seq", "vocab");
    auto feedForward = [&](const std::string& p) {
        g.norm(p + "ff.layer_norm", model, true);
        g.dense(p + "ff.wi", "seq", model, gated ? 2 * ff : ff, false, act, "column");
        if (gated) {
            g.gate(p + "ff.gate", "seq*" + number(ff));
        }
        g.dense(p + "ff.wo", "seq", ff, model, false, "none", "row", true);
    };
    auto attentionBlock = [&](const std::string& p) {
        g.dense(p + "q", "seq", model, inner, false, "none", "column");
        g.dense(p + "kv", "seq", model, 2 * inner, false, "none", "column");
        g.attention(p + "attention", heads, kvDim);
        g.dense(p + "o", "seq", inner, model, false, "none", "row", true);
    };
    for (const auto& [stack, count] : {std::pair{std::string("encoder"), encoderLayers},
                                       std::pair{std::string("decoder"), decoderLayers}}) {
        g.group = stack;
        if (stack == "decoder") {
            g.embedding("decoder.embed_tokens", vocab, model, "seq", "vocab")["tied"] = "shared";
        }
        // One bias per head and bucket, shared by the stack's layers (in its first block).
        // A few buckets of a few heads, read whole for every position pair.
        g.embedding(stack + ".relative_attention_bias", buckets, heads, "seq*seq")["lookup"] =
            "streamed";
        for (int i = 0; i < static_cast<int>(count); ++i) {
            g.group = layerName(stack, i);
            const std::string p = g.group + ".";
            g.norm(p + "self.layer_norm", model, true);
            attentionBlock(p + "self.");
            if (stack == "decoder") {
                g.norm(p + "cross.layer_norm", model, true);
                attentionBlock(p + "cross.");
            }
            feedForward(p);
        }
        g.group = stack;
        g.norm(stack + ".final_layer_norm", model, true);
    }
    g.group = "head";
    g.lmHead(model, vocab, c.flag("tie_word_embeddings", true) ? "shared" : "");
}

void llama(const ConfigReader& c, const std::string& modelType, Family& f) {
    const double hidden = c.size({"hidden_size"});
    const double layers = c.size({"num_hidden_layers"});
    const double heads = c.size({"num_attention_heads"});
    const double kvHeads = c.sizeOr({"num_key_value_heads"}, heads);
    const double headDim = c.sizeOr({"head_dim"}, hidden / heads);
    const double inner = c.size({"intermediate_size"});
    const double vocab = c.size({"vocab_size"});
    const double experts = c.sizeOr({"num_local_experts"}, 1);
    const double active = c.sizeOr({"num_experts_per_tok"}, experts > 1 ? 2 : 1);
    if (active > experts) {
        c.fail("num_experts_per_tok", "exceeds num_local_experts");
    }
    if (std::fmod(heads, kvHeads) != 0) {
        c.fail("num_key_value_heads", "must divide num_attention_heads");
    }
    const bool qkvBias = c.flag("attention_bias", modelType == "qwen2");
    const bool mlpBias = c.flag("mlp_bias", false);
    const std::string act = activationOf(c.text("hidden_act", "silu"));
    f.sequenceKey = "max_position_embeddings";
    f.sequence = c.size({"max_position_embeddings"});
    GraphBuilder& g = f.graph;
    g.group = "embeddings";
    g.embedding("embed_tokens", vocab, hidden, "seq", "vocab");
    // Balanced routing: each expert takes active/experts of the tokens. Every expert's weights
    // count as parameters; the FLOPs are those of the active experts only.
    const std::string expertRows = experts > 1 ? number(active / experts) + "*seq" : "seq";
    auto mlp = [&](const std::string& p, const std::string& rows) {
        g.dense(p + "gate_up_proj", rows, hidden, 2 * inner, mlpBias, act, "column");
        g.gate(p + "gate", rows + "*" + number(inner));
        g.dense(p + "down_proj", rows, inner, hidden, mlpBias, "none", "row", experts == 1);
    };
    for (int i = 0; i < static_cast<int>(layers); ++i) {
        g.group = layerName("layers", i);
        const std::string p = g.group + ".";
        g.norm(p + "input_layernorm", hidden, true);
        g.dense(p + "self_attn.q_proj", "seq", hidden, heads * headDim, qkvBias, "none", "column");
        g.dense(p + "self_attn.kv_proj", "seq", hidden, 2 * kvHeads * headDim, qkvBias, "none",
                "column");
        g.attention(p + "self_attn", heads, headDim);
        g.dense(p + "self_attn.o_proj", "seq", heads * headDim, hidden, false, "none", "row", true);
        g.norm(p + "post_attention_layernorm", hidden, true);
        if (experts == 1) {
            mlp(p + "mlp.", "seq");
            continue;
        }
        g.dense(p + "moe.router", "seq", hidden, experts, false, "none", "none");
        for (int e = 0; e < static_cast<int>(experts); ++e) {
            mlp(p + "moe.expert" + std::to_string(e) + ".", expertRows);
        }
        // The weighted sum of each token's experts, added to the residual stream.
        g.add({{"name", p + "moe.combine"},
               {"type", "elementwise"},
               {"elements", "seq*" + number(hidden)},
               {"ops", active},
               {"passes", active + 1}});
    }
    g.group = "head";
    g.norm("norm", hidden, true);
    g.lmHead(hidden, vocab, c.flag("tie_word_embeddings", false) ? "embed_tokens" : "");
}

std::string lower(std::string text) {
    for (char& ch : text) {
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return text;
}

} // namespace

bool isHfConfig(const json& document) {
    if (!document.is_object() || document.contains("graph")) {
        return false;
    }
    for (const char* key : {"model_type", "architectures", "n_layer", "num_hidden_layers"}) {
        if (document.contains(key)) {
            return true;
        }
    }
    return false;
}

json hfConfigWorkload(const json& config, const std::string& file, const std::string& name) {
    const ConfigReader c{config, file};
    const std::string type = lower(c.text("model_type", ""));
    Family f;
    if (type == "gpt2" || (type.empty() && c.has("n_layer") && c.has("n_embd"))) {
        f.name = "GPT-2";
        gpt2(c, f);
    } else if (type == "bert" || type == "roberta" || (type.empty() && c.has("type_vocab_size"))) {
        f.name = "BERT";
        bert(c, f);
    } else if (type == "t5" || (type.empty() && c.has("d_model") && c.has("d_ff"))) {
        f.name = "T5 (encoder-decoder)";
        t5(c, f);
    } else if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2" ||
               (type.empty() && c.has("intermediate_size") && c.has("rms_norm_eps"))) {
        f.name = c.sizeOr({"num_local_experts"}, 1) > 1 ? "Llama-style mixture of experts"
                                                        : "Llama-style decoder";
        llama(c, type, f);
    } else {
        throw InputError(file, "model_type '" + type +
                                   "' is not a family PodScope maps (gpt2, bert, roberta, t5, "
                                   "llama, mistral, mixtral, qwen2); docs/workloads.md");
    }
    const std::string source = file + ": " + f.sequenceKey;
    json document = {
        {"format_version", 1},
        {"name", name},
        {"description", f.name + " from the Hugging Face config " + file +
                            "; no convergence data (give train_steps or train_examples for a "
                            "time to train)"},
        {"example_unit", "sequence"},
        {"optimizer", "Adam"},
        {"graph",
         {{"source", "Hugging Face config " + file + " (" + f.name + ")"},
          {"sequence_variable", "seq"},
          {"variables",
           {{"seq", {{"value", f.sequence}, {"min", 1}, {"max", f.sequence}, {"source", source}}}}},
          {"layers", std::move(f.graph.layers)}}}};
    return document;
}

} // namespace podscope
