// Chains of ONNX nodes that make one layer: a conv or dense layer's epilogue (bias, batch norm,
// residual, activation), GELU written out in elementary operators, attention, LayerNorm before
// opset 17.
#include "import/OnnxMapper.hpp"

#include <algorithm>

namespace podscope::onnx_mapping {

using nlohmann::json;

// Bias, batch norm, residual add and activation after a conv or dense layer fuse into it.
std::string OnnxMapper::fuseEpilogue(json& layer, std::string t, double channels) {
    const bool conv = layer["type"] == "conv";
    while (true) {
        if (layer.value("act", "none") == "none") {
            if (std::string g = matchGelu(t); !g.empty()) {
                layer["act"] = "gelu";
                t = g;
                continue;
            }
        }
        const int c = soleConsumer(t);
        if (c < 0) {
            return t;
        }
        const auto& nd = node(c);
        const std::string& op = nd.op_type();
        const bool noAct = layer.value("act", "none") == "none";
        if (op == "BatchNormalization" && conv && layer.value("bn", "none") == "none" && noAct &&
            !layer.value("residual", false) && nd.input(0) == t) {
            for (int k = 1; k < nd.input_size(); ++k) {
                use(nd.input(k));
            }
            layer["bn"] = "batch";
        } else if (op == "Add" && noAct && !layer.value("residual", false)) {
            const std::string other = otherInput(nd, t);
            const Dims* od = dims(other);
            const Dims* td = dims(t);
            if (!weightOf(other).empty() && od && TensorShapes::elements(*od) == channels &&
                !layer.value("bias", false) && layer.value("bn", "none") == "none") {
                use(other);
                layer["bias"] = true;
            } else if (!isStatic(other) && od && td && *od == *td) {
                layer["residual"] = true;
            } else {
                return t;
            }
        } else if ((op == "Relu" || op == "Tanh") && noAct) {
            layer["act"] = op == "Relu" ? "relu" : "tanh";
        } else {
            return t;
        }
        take(c);
        t = nd.output(0);
    }
}

// x / sqrt(2) -> Erf -> + 1 -> * x -> * 0.5, as torch.onnx writes GELU before opset 20.
// Returns the GELU's result (and takes its nodes), or "".
std::string OnnxMapper::matchGelu(const std::string& x) {
    const auto it = consumers_.find(x);
    if (it == consumers_.end() || it->second.size() != 2 || outputs_.count(x)) {
        return "";
    }
    for (const int d : it->second) {
        const auto& div = node(d);
        if ((div.op_type() != "Div" && div.op_type() != "Mul") || div.input(0) != x ||
            !isScalarConstant(div.input(1)) || done_[static_cast<std::size_t>(d)]) {
            continue;
        }
        const int e = soleConsumer(div.output(0));
        if (e < 0 || node(e).op_type() != "Erf") {
            continue;
        }
        const int a = soleConsumer(node(e).output(0));
        if (a < 0 || node(a).op_type() != "Add" ||
            !isScalarConstant(otherInput(node(a), node(e).output(0)))) {
            continue;
        }
        const int m1 = soleConsumer(node(a).output(0));
        if (m1 < 0 || node(m1).op_type() != "Mul" || otherInput(node(m1), node(a).output(0)) != x) {
            continue;
        }
        const int m2 = soleConsumer(node(m1).output(0));
        const bool half = m2 >= 0 && node(m2).op_type() == "Mul" &&
                          isScalarConstant(otherInput(node(m2), node(m1).output(0)));
        for (const int k : {d, e, a, m1}) {
            take(k);
        }
        if (half) {
            take(m2);
            return node(m2).output(0);
        }
        return node(m1).output(0);
    }
    return "";
}

// A GELU not after a layer: one elementwise layer for its five nodes.
bool OnnxMapper::isGeluStart(int i) {
    done_[static_cast<std::size_t>(i)] = false;
    const std::string out = matchGelu(node(i).input(0));
    done_[static_cast<std::size_t>(i)] = true;
    const Dims* d = out.empty() ? nullptr : dims(out);
    if (!d) {
        return !out.empty() && (unmapped(i, "shape unknown after shape inference"), true);
    }
    addLayer({{"type", "elementwise"},
              {"elements", number(perExample(*d))},
              {"ops", 4},
              {"eup", 1},
              {"passes", 2}},
             i, out);
    return true;
}

// scores = q k^T [scaled, masked] -> Softmax -> scores v: one attention layer.
bool OnnxMapper::mapAttention(int i) {
    const auto& nd = node(i);
    std::vector<int> chain;
    std::string t = nd.output(0);
    int softmax = -1;
    for (int step = 0; step < 4 && softmax < 0; ++step) {
        const int c = soleConsumer(t);
        if (c < 0) {
            return false;
        }
        const std::string& op = node(c).op_type();
        if (op == "Softmax") {
            softmax = c;
        } else if (op != "Div" && op != "Mul" && op != "Add" && op != "Where" && op != "Cast") {
            return false;
        }
        chain.push_back(c);
        t = node(c).output(0);
    }
    int context = soleConsumer(t);
    if (context >= 0 &&
        (node(context).op_type() == "Dropout" || node(context).op_type() == "Cast")) {
        chain.push_back(context);
        t = node(context).output(0);
        context = soleConsumer(t);
    }
    if (softmax < 0 || context < 0 || node(context).op_type() != "MatMul" ||
        node(context).input(0) != t || isStatic(node(context).input(1))) {
        return false;
    }
    const Dims* scores = dims(nd.output(0));
    const Dims* q = dims(nd.input(0));
    const Dims* result = dims(node(context).output(0));
    if (!scores || !q || !result || scores->size() < 2 || q->empty() || result->empty()) {
        return false;
    }
    const double queries = static_cast<double>((*scores)[scores->size() - 2]);
    const double keys = static_cast<double>(scores->back());
    const double heads = perExample(*scores) / (queries * keys);
    // Two matmuls of 2 heads q kv dim MACs: dim is the mean of the key and value widths.
    const double dim = (static_cast<double>(q->back()) + static_cast<double>(result->back())) / 2;
    for (const int c : chain) {
        take(c);
    }
    take(context);
    addLayer({{"type", "attention"},
              {"heads", number(heads)},
              {"q", number(queries)},
              {"kv", number(keys)},
              {"dim", number(dim)}},
             i, node(context).output(0));
    return true;
}

// mean -> x - mean -> square -> mean -> + eps -> sqrt -> divide [-> * scale -> + shift], as
// torch.onnx writes LayerNorm before opset 17.
bool OnnxMapper::mapDecomposedLayerNorm(int r) {
    const auto& reduce = node(r);
    const std::string& x = reduce.input(0);
    const int s = soleConsumer(reduce.output(0));
    if (s < 0 || node(s).op_type() != "Sub" || node(s).input(0) != x) {
        return false;
    }
    const std::string centred = node(s).output(0);
    const auto it = consumers_.find(centred);
    if (it == consumers_.end() || it->second.size() != 2) {
        return false;
    }
    int pow = -1, div = -1;
    for (const int c : it->second) {
        (node(c).op_type() == "Pow" || node(c).op_type() == "Mul" ? pow : div) = c;
    }
    if (pow < 0 || div < 0 || node(div).op_type() != "Div") {
        return false;
    }
    std::vector<int> chain = {s, pow};
    std::string scale;
    std::string t = node(pow).output(0);
    for (const char* op : {"ReduceMean", "Add", "Sqrt"}) {
        const int c = soleConsumer(t);
        if (c < 0 || node(c).op_type() != op) {
            return false;
        }
        chain.push_back(c);
        t = node(c).output(0);
    }
    if (node(div).input(1) != t) {
        return false;
    }
    chain.push_back(div);
    t = node(div).output(0);
    for (const char* op : {"Mul", "Add"}) {
        const int c = soleConsumer(t);
        if (c < 0 || node(c).op_type() != op || weightOf(otherInput(node(c), t)).empty()) {
            break;
        }
        use(otherInput(node(c), t));
        if (scale.empty()) {
            scale = weightOf(otherInput(node(c), t));
        }
        chain.push_back(c);
        t = node(c).output(0);
    }
    const Dims* xd = dims(x);
    const Dims* md = dims(reduce.output(0));
    if (!xd || !md) {
        return false;
    }
    for (const int c : chain) {
        take(c);
    }
    const double dim = TensorShapes::elements(*xd) / TensorShapes::elements(*md);
    addLayer({{"type", "norm"}, {"rows", number(perExample(*xd) / dim)}, {"dim", number(dim)}}, r,
             t, scale);
    return true;
}

} // namespace podscope::onnx_mapping
