// The mapper's bookkeeping: the graph's index, layer names and groups, the node dispatch, the
// loss and the unmapped operators' shares.
#include "import/OnnxLayerNames.hpp"
#include "import/OnnxMapper.hpp"
#include "import/OnnxOperatorMap.hpp"

#include <algorithm>
#include <cctype>

namespace podscope::onnx_mapping {

using nlohmann::json;

MappedLayers OnnxMapper::run() {
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

void OnnxMapper::index() {
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
void OnnxMapper::estimate(int i) {
    const auto& nd = node(i);
    Tally t;
    for (const auto& name : nd.input()) {
        if (!isStatic(name) || !weightOf(name).empty()) {
            if (const Dims* d = dims(name)) {
                t.bytes += perExample(*d) * TensorShapes::elementBytes(shapes_.elementType(name));
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
        t.flops = 2 * perExample(*a) * TensorShapes::elements(*w) / static_cast<double>((*w)[0]);
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

std::string OnnxMapper::groupOf(const onnx::NodeProto& nd) const {
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

std::string OnnxMapper::nameOf(const onnx::NodeProto& nd, int i) {
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
void OnnxMapper::addLayer(json layer, int i, const std::string& out, const std::string& weight) {
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

void OnnxMapper::unmapped(int i, const std::string& why) {
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

void OnnxMapper::passGroup(int i) {
    const std::string group = groupOf(node(i));
    for (const auto& out : node(i).output()) {
        tensorGroup_[out] = group;
    }
}

// Weights that a layer does not own (a learned position table added, a class token
// concatenated): their parameters count as an embedding read whole for each example.
void OnnxMapper::addLooseWeights(int i) {
    for (const auto& in : node(i).input()) {
        const std::string w = weightOf(in);
        const Dims* d = dims(w);
        if (w.empty() || used_.count(w) || !d || d->empty() || !isFloat(shapes_.elementType(w))) {
            continue;
        }
        used_.insert(w);
        const double dim = static_cast<double>(d->back());
        const double rows = TensorShapes::elements(*d) / std::max(dim, 1.0);
        json layer = {{"type", "embedding"},
                      {"vocab", number(rows)},
                      {"dim", number(dim)},
                      {"rows", number(rows)},
                      {"lookup", "streamed"}};
        names_.insert(w);
        json ordered = {{"name", w}, {"group", groupOfWeight(w)}};
        ordered.update(layer);
        result_.layers.push_back(std::move(ordered));
        notes_.insert("weights used outside a layer (" + w + "...) count as a table read whole");
    }
}

void OnnxMapper::mapNode(int i) {
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

// Training adds a softmax cross-entropy on the model's output: rows x classes per example.
void OnnxMapper::addLoss() {
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

void OnnxMapper::finishUnmapped() {
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

} // namespace podscope::onnx_mapping

namespace podscope {

MappedLayers mapOnnxLayers(const OnnxModel& model, const std::string& file) {
    return onnx_mapping::OnnxMapper(model, file).run();
}

} // namespace podscope
