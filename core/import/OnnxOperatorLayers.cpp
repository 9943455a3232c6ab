// The layer each mapped ONNX operator makes: convolution, matmul, normalisation, pooling,
// recurrent, embedding and elementwise.
#include "import/OnnxLayerNames.hpp"
#include "import/OnnxMapper.hpp"
#include "import/OnnxOperatorMap.hpp"

#include <algorithm>

namespace podscope::onnx_mapping {

using nlohmann::json;

void OnnxMapper::mapElementwise(int i, const std::string& sized, double ops, double eup,
                                double passes) {
    const Dims* d = dims(sized);
    if (!d) {
        unmapped(i, "shape unknown after shape inference");
        return;
    }
    addLooseWeights(i);
    addLayer({{"type", "elementwise"},
              {"elements", number(perExample(*d))},
              {"ops", number(ops)},
              {"eup", number(eup)},
              {"passes", number(passes)}},
             i, node(i).output(0));
    for (const auto& out : node(i).output()) {
        tensorGroup_[out] = tensorGroup_[node(i).output(0)];
    }
}

void OnnxMapper::mapConv(int i) {
    const auto& nd = node(i);
    const bool transposed = nd.op_type() == "ConvTranspose";
    const Dims* x = dims(nd.input(0));
    const Dims* w = nd.input_size() > 1 ? dims(nd.input(1)) : nullptr;
    const Dims* y = dims(nd.output(0));
    if (!x || !w || !y || w->size() < 3 || y->size() != w->size() || x->size() != w->size()) {
        unmapped(i, "shape unknown after shape inference");
        return;
    }
    // The map the kernel slides over: the output's, or the input's for a transposed conv.
    const Dims& map = transposed ? *x : *y;
    const double h = static_cast<double>(map[2]);
    double wide = 1;
    for (std::size_t k = 3; k < map.size(); ++k) {
        wide *= static_cast<double>(map[k]);
    }
    double taps = 1;
    for (std::size_t k = 2; k < w->size(); ++k) {
        taps *= static_cast<double>((*w)[k]);
    }
    // Weights are [cout, cin / groups, k...] (conv) or [cin, cout / groups, k...]: a grouped
    // or depthwise conv contracts over cin / groups, which keeps its MACs and parameters.
    double cin = static_cast<double>(transposed ? (*w)[0] : (*w)[1]);
    const double cout = static_cast<double>(transposed ? (*w)[1] : (*w)[0]);
    int k = static_cast<int>((*w)[2]);
    const bool square = w->size() == 4 && (*w)[2] == (*w)[3];
    if (!square) {
        // A 1-D, 3-D or non-square kernel: its window folds into the contraction.
        cin *= taps;
        k = 1;
        notes_.insert("convolutions with non-square kernels count their window in cin");
    }
    // A convolution on an image's few channels would pad each tap's contraction to the MXU's
    // width: its window folds into the contraction instead, as the space-to-depth stems of
    // the built-in graphs do (docs/training-model.md, section 3, rule 2).
    constexpr double kFoldBelowChannels = 8;
    const bool fold = square && k > 1 && cin < kFoldBelowChannels;
    if (intAttribute(nd, "group", 1) > 1) {
        notes_.insert("grouped and depthwise convolutions contract over cin / groups");
    }
    const Dims strides = intsAttribute(nd, "strides");
    // The layer's stride is an int; beyond the map's size a stride means the same.
    const std::int64_t stride =
        transposed || strides.empty() ? 1 : std::clamp<std::int64_t>(strides[0], 1, 1 << 20);
    json layer = {{"type", "conv"},     {"h", number(h)},       {"w", number(wide)},
                  {"cin", number(cin)}, {"cout", number(cout)}, {"k", k},
                  {"stride", stride}};
    if (fold) {
        layer["fold"] = true;
    }
    const double count = static_cast<double>(map[0]) / model_.batch;
    if (count != 1) {
        layer["count"] = number(count);
    }
    use(nd.input(1));
    if (nd.input_size() > 2 && !nd.input(2).empty()) {
        use(nd.input(2));
        layer["bias"] = true;
    }
    const std::string out = fuseEpilogue(layer, nd.output(0), cout);
    addLayer(layer, i, out);
}

void OnnxMapper::mapMatMul(int i) {
    const auto& nd = node(i);
    const Dims* a = dims(nd.input(0));
    const Dims* b = nd.input_size() > 1 ? dims(nd.input(1)) : nullptr;
    const Dims* y = dims(nd.output(0));
    if (!a || !b || !y || a->empty() || b->empty()) {
        unmapped(i, "shape unknown after shape inference");
        return;
    }
    const bool gemm = nd.op_type() == "Gemm";
    const bool transA = gemm && intAttribute(nd, "transA", 0);
    const bool transB = gemm && intAttribute(nd, "transB", 0);
    const bool aWeight = !weightOf(nd.input(0)).empty() && a->size() == 2;
    const bool bWeight = !weightOf(nd.input(1)).empty() && b->size() == 2;
    double in = 0, out = 0, rows = 0;
    std::string weight;
    if (bWeight && !isStatic(nd.input(0))) {
        in = static_cast<double>(transB ? (*b)[1] : (*b)[0]);
        out = static_cast<double>(transB ? (*b)[0] : (*b)[1]);
        rows = perExample(*a) / in;
        weight = nd.input(1);
    } else if (aWeight && !isStatic(nd.input(1)) && !gemm) {
        in = static_cast<double>((*a)[1]);
        out = static_cast<double>((*a)[0]);
        rows = perExample(*b) / in;
        weight = nd.input(0);
    } else if (!isStatic(nd.input(0)) && !isStatic(nd.input(1)) && !gemm) {
        if (!mapAttention(i)) {
            unmapped(i, "a product of two activations outside attention is not a layer");
        }
        return;
    } else {
        unmapped(i, "weights on an unexpected operand");
        return;
    }
    (void)transA;
    use(weight);
    json layer = {
        {"type", "dense"}, {"rows", number(rows)}, {"in", number(in)}, {"out", number(out)}};
    if (gemm && nd.input_size() > 2 && !nd.input(2).empty()) {
        use(nd.input(2));
        layer["bias"] = true;
    }
    const std::string result = fuseEpilogue(layer, nd.output(0), out);
    addLayer(layer, i, result);
}

void OnnxMapper::mapNorm(int i) {
    const auto& nd = node(i);
    const Dims* x = dims(nd.input(0));
    if (!x || x->size() < 2) {
        unmapped(i, "shape unknown after shape inference");
        return;
    }
    double dim = 0;
    if (nd.op_type() == "BatchNormalization") {
        dim = static_cast<double>((*x)[1]);
    } else {
        auto axis = intAttribute(nd, "axis", -1);
        const auto rank = static_cast<std::int64_t>(x->size());
        axis = axis < 0 ? axis + rank : axis;
        dim = 1;
        for (std::int64_t k = std::clamp<std::int64_t>(axis, 0, rank); k < rank; ++k) {
            dim *= static_cast<double>((*x)[static_cast<std::size_t>(k)]);
        }
    }
    for (int k = 1; k < nd.input_size(); ++k) {
        use(nd.input(k));
    }
    addLayer({{"type", "norm"}, {"rows", number(perExample(*x) / dim)}, {"dim", number(dim)}}, i,
             nd.output(0));
}

void OnnxMapper::mapPool(int i) {
    const auto& nd = node(i);
    const Dims* y = dims(nd.output(0));
    const Dims kernel = intsAttribute(nd, "kernel_shape");
    if (!y || y->size() < 3 || kernel.empty()) {
        unmapped(i, "shape unknown after shape inference");
        return;
    }
    double wide = 1, taps = 1;
    for (std::size_t k = 3; k < y->size(); ++k) {
        wide *= static_cast<double>((*y)[k]);
    }
    for (const auto k : kernel) {
        if (k < 1 || k > (1 << 20)) {
            unmapped(i, "a pooling window out of range");
            return;
        }
        taps *= static_cast<double>(k);
    }
    // The layer's window is k x k: a non-square one keeps its size.
    const auto k = static_cast<std::int64_t>(std::lround(std::sqrt(taps)));
    const Dims strides = intsAttribute(nd, "strides");
    const std::int64_t stride =
        strides.empty() ? 1 : std::clamp<std::int64_t>(strides[0], 1, 1 << 20);
    addLayer({{"type", "pool"},
              {"h", (*y)[2]},
              {"w", number(wide)},
              {"c", (*y)[1]},
              {"k", k},
              {"stride", stride}},
             i, nd.output(0));
}

void OnnxMapper::mapRecurrent(int i) {
    const auto& nd = node(i);
    const Dims* x = dims(nd.input(0));
    const Dims* w = nd.input_size() > 1 ? dims(nd.input(1)) : nullptr;
    const double hidden = static_cast<double>(intAttribute(nd, "hidden_size", 0));
    if (!x || !w || x->size() != 3 || w->size() != 3 || hidden <= 0) {
        unmapped(i, "shape unknown after shape inference");
        return;
    }
    const bool batchFirst = intAttribute(nd, "layout", 0) == 1;
    const double steps = static_cast<double>(batchFirst ? (*x)[1] : (*x)[0]);
    const double gates = static_cast<double>((*w)[1]) / hidden;
    for (int k = 1; k < nd.input_size() && k < 4; ++k) {
        use(nd.input(k));
    }
    // B is [directions, biases x gates x hidden]: the input's and the state's (Wb and Rb),
    // 8 x hidden for an LSTM; none without it.
    const Dims* b = nd.input_size() > 3 && !nd.input(3).empty() ? dims(nd.input(3)) : nullptr;
    const double biases =
        b && b->size() == 2 ? static_cast<double>((*b)[1]) / (gates * hidden) : 0.0;
    for (std::int64_t d = 0; d < (*w)[0]; ++d) {
        addLayer({{"type", "recurrent"},
                  {"steps", number(steps)},
                  {"in", (*w)[2]},
                  {"hidden", number(hidden)},
                  {"gates", number(gates)},
                  {"biases", number(biases)}},
                 i, nd.output(0));
    }
}

bool OnnxMapper::mapEmbedding(int i) {
    const auto& nd = node(i);
    const Dims* table = dims(nd.input(0));
    const Dims* indices = dims(nd.input(1));
    if (!table || !indices || table->size() != 2 || isStatic(nd.input(1)) ||
        intAttribute(nd, "axis", 0) != 0) {
        return false;
    }
    use(nd.input(0));
    addLayer({{"type", "embedding"},
              {"vocab", (*table)[0]},
              {"dim", (*table)[1]},
              {"rows", number(perExample(*indices))}},
             i, nd.output(0));
    return true;
}

} // namespace podscope::onnx_mapping
