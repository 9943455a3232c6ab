#pragma once

// The ONNX-to-layers mapper behind mapOnnxLayers (OnnxLayerMapper.hpp): one pass over a prepared
// graph in dependency order. Its parts: graph bookkeeping and the node dispatch
// (OnnxLayerMapper.cpp), chains of nodes that fuse into one layer (OnnxFusedPatterns.cpp) and the
// layer of each operator (OnnxOperatorLayers.cpp). Internal to core/import.
#include "import/OnnxLayerMapper.hpp"
#include "import/OnnxShapes.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace podscope::onnx_mapping {

inline bool isFloat(int type) {
    return type == onnx::TensorProto::FLOAT || type == onnx::TensorProto::FLOAT16 ||
           type == onnx::TensorProto::BFLOAT16 || type == onnx::TensorProto::DOUBLE;
}

inline std::int64_t intAttribute(const onnx::NodeProto& node, const char* name,
                                 std::int64_t fallback) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) {
            return a.i();
        }
    }
    return fallback;
}

inline Dims intsAttribute(const onnx::NodeProto& node, const char* name) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) {
            return Dims(a.ints().begin(), a.ints().end());
        }
    }
    return {};
}

// A number as JSON: whole numbers as integers, so the document reads like the bundled ones.
inline nlohmann::json number(double v) {
    if (std::floor(v) == v && std::abs(v) < 9e15) {
        return static_cast<std::int64_t>(v);
    }
    return v;
}

class OnnxMapper {
public:
    OnnxMapper(const OnnxModel& model, const std::string& file)
        : model_(model)
        , g_(model.proto.graph())
        , shapes_(g_, file) {}
    MappedLayers run();

private:
    using json = nlohmann::json;

    struct Tally {
        int count = 0;
        double flops = 0, bytes = 0;
    };

    const onnx::NodeProto& node(int i) const { return g_.node(i); }
    const Dims* dims(const std::string& t) const { return shapes_.find(t); }
    bool isStatic(const std::string& t) const { return t.empty() || staticTensors_.count(t) > 0; }
    double perExample(const Dims& d) const {
        const double e = TensorShapes::elements(d);
        return e >= model_.batch ? e / model_.batch : e;
    }
    // A weight the model trains: an initializer of the file or a weight exported as an input,
    // reached through Identity, Transpose, Cast and the like.
    std::string weightOf(const std::string& t) const {
        const auto it = origin_.find(t);
        return it == origin_.end() ? "" : it->second;
    }
    void index();
    // FLOPs and bytes of a node as far as its shapes tell, for the shares of the unmapped ones.
    void estimate(int i);

    int soleConsumer(const std::string& t) const {
        const auto it = consumers_.find(t);
        if (it == consumers_.end() || it->second.size() != 1 || outputs_.count(t)) {
            return -1;
        }
        const int c = it->second.front();
        return done_[static_cast<std::size_t>(c)] ? -1 : c;
    }
    std::string otherInput(const onnx::NodeProto& nd, const std::string& t) const {
        if (nd.input_size() != 2) {
            return "";
        }
        return nd.input(0) == t ? nd.input(1) : nd.input(0);
    }
    bool isScalarConstant(const std::string& t) const {
        const Dims* d = dims(t);
        return isStatic(t) && (!d || TensorShapes::elements(*d) == 1);
    }
    void take(int c) { done_[static_cast<std::size_t>(c)] = true; }
    void use(const std::string& t) {
        if (!weightOf(t).empty()) {
            used_.insert(weightOf(t));
        }
    }

    // Layers and their groups and names (OnnxLayerMapper.cpp).
    std::string groupOf(const onnx::NodeProto& nd) const;
    std::string nameOf(const onnx::NodeProto& nd, int i);

    // Appends a layer made from node i whose result is tensor `out`.
    void addLayer(json layer, int i, const std::string& out, const std::string& weight = "");
    void unmapped(int i, const std::string& why = "");

    void passGroup(int i);
    // Weights that a layer does not own (a learned position table added, a class token
    // concatenated): their parameters count as an embedding read whole for each example.
    void addLooseWeights(int i);

    // Chains of nodes that make one layer (OnnxFusedPatterns.cpp).
    // Bias, batch norm, residual add and activation after a conv or dense layer fuse into it.
    std::string fuseEpilogue(json& layer, std::string t, double channels);
    // x / sqrt(2) -> Erf -> + 1 -> * x -> * 0.5, as torch.onnx writes GELU before opset 20.
    // Returns the GELU's result (and takes its nodes), or "".
    std::string matchGelu(const std::string& x);

    void mapNode(int i);
    // A GELU not after a layer: one elementwise layer for its five nodes.
    bool isGeluStart(int i);

    // One layer per operator (OnnxOperatorLayers.cpp).
    void mapElementwise(int i, const std::string& sized, double ops, double eup, double passes);
    void mapConv(int i);

    void mapMatMul(int i);
    // scores = q k^T [scaled, masked] -> Softmax -> scores v: one attention layer.
    bool mapAttention(int i);

    void mapNorm(int i);
    // mean -> x - mean -> square -> mean -> + eps -> sqrt -> divide [-> * scale -> + shift], as
    // torch.onnx writes LayerNorm before opset 17.
    bool mapDecomposedLayerNorm(int r);

    void mapPool(int i);
    void mapRecurrent(int i);

    bool mapEmbedding(int i);

    // Training adds a softmax cross-entropy on the model's output: rows x classes per example.
    void addLoss();

    void finishUnmapped();

    const OnnxModel& model_;
    const onnx::GraphProto& g_;
    TensorShapes shapes_;
    std::vector<bool> static_, done_;
    std::unordered_set<std::string> staticTensors_, outputs_, used_, names_;
    std::unordered_map<std::string, std::string> origin_, tensorGroup_;
    std::unordered_map<std::string, int> producer_;
    std::unordered_map<std::string, std::vector<int>> consumers_;
    std::unordered_map<int, Tally> estimates_;
    std::map<std::string, Tally> unmapped_;
    std::set<std::string> notes_;
    double totalFlops_ = 0, totalBytes_ = 0;
    MappedLayers result_;
};

} // namespace podscope::onnx_mapping
