#include "import/OnnxLayerMapper.hpp"

#include "import/OnnxLayerNames.hpp"
#include "import/OnnxOperatorMap.hpp"
#include "import/OnnxShapes.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace podscope {
namespace {

using nlohmann::json;

bool isFloat(int type) {
    return type == onnx::TensorProto::FLOAT || type == onnx::TensorProto::FLOAT16 ||
           type == onnx::TensorProto::BFLOAT16 || type == onnx::TensorProto::DOUBLE;
}

std::int64_t intAttribute(const onnx::NodeProto& node, const char* name, std::int64_t fallback) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) {
            return a.i();
        }
    }
    return fallback;
}

Dims intsAttribute(const onnx::NodeProto& node, const char* name) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) {
            return Dims(a.ints().begin(), a.ints().end());
        }
    }
    return {};
}

// A number as JSON: whole numbers as integers, so the document reads like the bundled ones.
json number(double v) {
    if (std::floor(v) == v && std::abs(v) < 9e15) {
        return static_cast<std::int64_t>(v);
    }
    return v;
}

class Mapper {
public:
    Mapper(const OnnxModel& model, const std::string& file)
        : model_(model)
        , g_(model.proto.graph())
        , shapes_(g_, file) {}

    MappedLayers run() {
        index();
        for (int i = 0; i < g_.node_size(); ++i) {
            if (static_[static_cast<std::size_t>(i)] || done_[static_cast<std::size_t>(i)]) {
                continue;
            }
            done_[static_cast<std::size_t>(i)] = true;
            mapNode(i);
        }
        addLoss();
        finishUnmapped();
        for (const auto& n : notes_) {
            result_.notes.push_back(n);
        }
        return std::move(result_);
    }

private:
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

    void index() {
        const int n = g_.node_size();
        static_.assign(static_cast<std::size_t>(n), false);
        done_.assign(static_cast<std::size_t>(n), false);
        for (const auto& t : g_.initializer()) {
            staticTensors_.insert(t.name());
            if (model_.weights.count(t.name()) && isFloat(t.data_type())) {
                origin_[t.name()] = t.name();
            }
        }
        for (const auto& v : g_.input()) {
            if (!model_.dataInputs.count(v.name()) && !staticTensors_.count(v.name())) {
                staticTensors_.insert(v.name());
                origin_[v.name()] = v.name();
            }
        }
        for (const auto& o : g_.output()) {
            outputs_.insert(o.name());
        }
        for (int i = 0; i < n; ++i) {
            const auto& nd = node(i);
            bool allStatic = true;
            std::string from;
            for (const auto& in : nd.input()) {
                if (!in.empty()) {
                    consumers_[in].push_back(i);
                }
                allStatic = allStatic && isStatic(in);
                if (from.empty() && !weightOf(in).empty()) {
                    from = weightOf(in);
                }
            }
            const bool readsShape = nd.op_type() == "Shape" || nd.op_type() == "Size";
            for (const auto& out : nd.output()) {
                producer_[out] = i;
            }
            if (allStatic || readsShape) {
                static_[static_cast<std::size_t>(i)] = true;
                for (const auto& out : nd.output()) {
                    staticTensors_.insert(out);
                    if (!from.empty() && !readsShape && nd.op_type() != "Constant") {
                        // Identity keeps the name of a deduplicated weight; others keep its origin.
                        origin_[out] = nd.op_type() == "Identity" ? out : from;
                    }
                }
            } else {
                ++result_.operators;
                estimate(i);
            }
        }
    }

    // FLOPs and bytes of a node as far as its shapes tell, for the shares of the unmapped ones.
    void estimate(int i) {
        const auto& nd = node(i);
        Tally t;
        for (const auto& name : nd.input()) {
            if (!isStatic(name) || !weightOf(name).empty()) {
                if (const Dims* d = dims(name)) {
                    t.bytes +=
                        perExample(*d) * TensorShapes::elementBytes(shapes_.elementType(name));
                }
            }
        }
        double outElements = 0;
        for (const auto& name : nd.output()) {
            if (const Dims* d = dims(name)) {
                outElements += perExample(*d);
                t.bytes += perExample(*d) * TensorShapes::elementBytes(shapes_.elementType(name));
            }
        }
        const std::string& op = nd.op_type();
        const Dims* w = nd.input_size() > 1 ? dims(nd.input(1)) : nullptr;
        const Dims* a = nd.input_size() > 0 ? dims(nd.input(0)) : nullptr;
        if ((op == "Conv") && w && !w->empty()) {
            t.flops = 2 * outElements * TensorShapes::elements(*w) / static_cast<double>((*w)[0]);
        } else if (op == "ConvTranspose" && w && !w->empty() && a) {
            t.flops =
                2 * perExample(*a) * TensorShapes::elements(*w) / static_cast<double>((*w)[0]);
        } else if ((op == "MatMul" || op == "Gemm") && a && !a->empty()) {
            const bool transA = op == "Gemm" && intAttribute(nd, "transA", 0);
            const double k = static_cast<double>(transA ? a->front() : a->back());
            t.flops = 2 * outElements * k;
        } else if (const ElementwiseCost* c = elementwiseCost(op)) {
            t.flops = outElements * (c->ops + c->eup);
        } else if (!movesData(op) && !isView(op)) {
            t.flops = outElements;
        }
        estimates_[i] = t;
        totalFlops_ += t.flops;
        totalBytes_ += t.bytes;
    }

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

    std::string groupOf(const onnx::NodeProto& nd) const {
        for (const auto& in : nd.input()) {
            const std::string w = weightOf(in);
            if (!w.empty()) {
                return groupOfWeight(w);
            }
        }
        // torch.onnx names nodes by module path ("/encoder/layers/encoder_layer_0/ln_1/Sub").
        std::string path = nd.name();
        if (path.size() > 1 && path.front() == '/' && path.find('/', 1) != std::string::npos) {
            path = path.substr(1, path.rfind('/') - 1);
            std::replace(path.begin(), path.end(), '/', '.');
            const std::string g = groupOfWeight(path + ".node");
            if (std::any_of(g.begin(), g.end(), [](unsigned char c) { return std::isdigit(c); })) {
                return g;
            }
        }
        for (const auto& in : nd.input()) {
            const auto it = tensorGroup_.find(in);
            if (it != tensorGroup_.end()) {
                return it->second;
            }
        }
        return "model";
    }

    std::string nameOf(const onnx::NodeProto& nd, int i) {
        std::string name;
        for (int k = 1; k < nd.input_size() && name.empty(); ++k) {
            name = layerNameOfWeight(weightOf(nd.input(k)));
        }
        if (name.empty()) {
            name = nd.name();
            while (!name.empty() && name.front() == '/') {
                name.erase(0, 1);
            }
            std::replace(name.begin(), name.end(), '/', '.');
        }
        if (name.empty()) {
            name = nd.op_type() + "_" + std::to_string(i);
        }
        std::string unique = name;
        for (int k = 2; names_.count(unique); ++k) {
            unique = name + "#" + std::to_string(k);
        }
        names_.insert(unique);
        return unique;
    }

    // Appends a layer made from node i whose result is tensor `out`.
    void addLayer(json layer, int i, const std::string& out, const std::string& weight = "") {
        const auto& nd = node(i);
        for (const auto& [key, value] : layer.items()) {
            // Zero-sized tensors divide by zero; a layer must have finite, countable fields.
            if (value.is_number_float() && !std::isfinite(value.get<double>())) {
                unmapped(i, "a tensor with no elements");
                return;
            }
        }
        const std::string group = weight.empty() ? groupOf(nd) : groupOfWeight(weight);
        std::string name = weight.empty() ? nameOf(nd, i) : layerNameOfWeight(weight);
        if (!weight.empty()) {
            for (int k = 2; names_.count(name); ++k) {
                name = layerNameOfWeight(weight) + "#" + std::to_string(k);
            }
            names_.insert(name);
        }
        json ordered = {{"name", name}, {"group", group}};
        ordered.update(layer);
        result_.layers.push_back(std::move(ordered));
        tensorGroup_[out] = group;
    }

    void unmapped(int i, const std::string& why = "") {
        const auto& nd = node(i);
        Tally& t = unmapped_[nd.op_type()];
        ++t.count;
        const auto e = estimates_.find(i);
        if (e != estimates_.end()) {
            t.flops += e->second.flops;
            t.bytes += e->second.bytes;
        }
        if (!why.empty()) {
            notes_.insert(nd.op_type() + ": " + why);
        }
        passGroup(i);
    }

    void passGroup(int i) {
        const std::string group = groupOf(node(i));
        for (const auto& out : node(i).output()) {
            tensorGroup_[out] = group;
        }
    }

    // Weights that a layer does not own (a learned position table added, a class token
    // concatenated): their parameters count as an embedding read whole for each example.
    void addLooseWeights(int i) {
        for (const auto& in : node(i).input()) {
            const std::string w = weightOf(in);
            const Dims* d = dims(w);
            if (w.empty() || used_.count(w) || !d || d->empty() ||
                !isFloat(shapes_.elementType(w))) {
                continue;
            }
            used_.insert(w);
            const double dim = static_cast<double>(d->back());
            const double rows = TensorShapes::elements(*d) / std::max(dim, 1.0);
            json layer = {{"type", "embedding"},
                          {"vocab", number(rows)},
                          {"dim", number(dim)},
                          {"rows", number(rows)}};
            names_.insert(w);
            json ordered = {{"name", w}, {"group", groupOfWeight(w)}};
            ordered.update(layer);
            result_.layers.push_back(std::move(ordered));
            notes_.insert("weights used outside a layer (" + w +
                          "...) count as a table read whole");
        }
    }

    // Bias, batch norm, residual add and activation after a conv or dense layer fuse into it.
    std::string fuseEpilogue(json& layer, std::string t, double channels) {
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
            if (op == "BatchNormalization" && conv && layer.value("bn", "none") == "none" &&
                noAct && !layer.value("residual", false) && nd.input(0) == t) {
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
    std::string matchGelu(const std::string& x) {
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
            if (m1 < 0 || node(m1).op_type() != "Mul" ||
                otherInput(node(m1), node(a).output(0)) != x) {
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

    void mapNode(int i) {
        const auto& nd = node(i);
        const std::string& op = nd.op_type();
        if (op == "Conv" || op == "ConvTranspose") {
            mapConv(i);
        } else if (op == "MatMul" || op == "Gemm") {
            mapMatMul(i);
        } else if (op == "BatchNormalization" || op == "LayerNormalization") {
            mapNorm(i);
        } else if (op == "ReduceMean" && mapDecomposedLayerNorm(i)) {
        } else if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
            mapPool(i);
        } else if (op == "LSTM" || op == "GRU" || op == "RNN") {
            mapRecurrent(i);
        } else if (op == "Gather" && !weightOf(nd.input(0)).empty() && mapEmbedding(i)) {
        } else if (isView(op)) {
            passGroup(i);
        } else if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
            mapElementwise(i, nd.input(0), 1, 0, 1);
        } else if (movesData(op)) {
            mapElementwise(i, nd.output(0), 0, 0, 2);
        } else if (const ElementwiseCost* c = elementwiseCost(op)) {
            if ((op == "Div" || op == "Mul") && isGeluStart(i)) {
                return;
            }
            double dynamicInputs = 0;
            for (const auto& in : nd.input()) {
                dynamicInputs += isStatic(in) ? 0 : 1;
            }
            const bool reduces = isReduction(op);
            mapElementwise(i, reduces ? nd.input(0) : nd.output(0), c->ops, c->eup,
                           reduces ? 1 : dynamicInputs + 1);
        } else {
            unmapped(i);
        }
    }

    // A GELU not after a layer: one elementwise layer for its five nodes.
    bool isGeluStart(int i) {
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

    void mapElementwise(int i, const std::string& sized, double ops, double eup, double passes) {
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

    void mapConv(int i) {
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

    void mapMatMul(int i) {
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

    // scores = q k^T [scaled, masked] -> Softmax -> scores v: one attention layer.
    bool mapAttention(int i) {
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
        const double dim =
            (static_cast<double>(q->back()) + static_cast<double>(result->back())) / 2;
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

    void mapNorm(int i) {
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
        addLayer({{"type", "norm"}, {"rows", number(perExample(*x) / dim)}, {"dim", number(dim)}},
                 i, nd.output(0));
    }

    // mean -> x - mean -> square -> mean -> + eps -> sqrt -> divide [-> * scale -> + shift], as
    // torch.onnx writes LayerNorm before opset 17.
    bool mapDecomposedLayerNorm(int r) {
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
        addLayer({{"type", "norm"}, {"rows", number(perExample(*xd) / dim)}, {"dim", number(dim)}},
                 r, t, scale);
        return true;
    }

    void mapPool(int i) {
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
        addLayer({{"type", "pool"}, {"h", (*y)[2]}, {"w", number(wide)}, {"c", (*y)[1]}, {"k", k}},
                 i, nd.output(0));
    }

    void mapRecurrent(int i) {
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

    bool mapEmbedding(int i) {
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

    // Training adds a softmax cross-entropy on the model's output: rows x classes per example.
    void addLoss() {
        if (g_.output_size() == 0) {
            return;
        }
        // Over classes ([batch, classes]) or tokens ([batch, tokens, classes]); a map output
        // (segmentation, generation) has no loss PodScope knows.
        const Dims* y = dims(g_.output(0).name());
        if (!y || y->size() < 2 || y->size() > 3) {
            notes_.insert("no loss added: the first output is not [batch, (tokens,) classes]");
            return;
        }
        const double classes = static_cast<double>(y->back());
        if (classes < 1) {
            return;
        }
        result_.layers.push_back({{"name", "loss"},
                                  {"group", "loss"},
                                  {"type", "loss"},
                                  {"rows", number(perExample(*y) / classes)},
                                  {"classes", number(classes)}});
    }

    void finishUnmapped() {
        for (const auto& [op, t] : unmapped_) {
            UnmappedOperator u;
            u.opType = op;
            u.count = t.count;
            u.flopsShare = totalFlops_ > 0 ? t.flops / totalFlops_ : 0;
            u.bytesShare = totalBytes_ > 0 ? t.bytes / totalBytes_ : 0;
            result_.unmapped.push_back(u);
        }
        std::stable_sort(result_.unmapped.begin(), result_.unmapped.end(),
                         [](const UnmappedOperator& a, const UnmappedOperator& b) {
                             return a.flopsShare > b.flopsShare;
                         });
    }

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

} // namespace

MappedLayers mapOnnxLayers(const OnnxModel& model, const std::string& file) {
    return Mapper(model, file).run();
}

} // namespace podscope
