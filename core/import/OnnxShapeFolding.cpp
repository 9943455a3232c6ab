#include "import/OnnxShapeFolding.hpp"

#include "import/OnnxShapes.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace podscope {
namespace {

// Shape computations are short vectors; anything larger is data, not a shape.
constexpr std::size_t kMaxFoldedElements = 1024;

struct Value {
    Dims dims;
    std::vector<double> data;
    int type = onnx::TensorProto::INT64;
};

using Values = std::unordered_map<std::string, Value>;

bool isInteger(int type) {
    return type == onnx::TensorProto::INT64 || type == onnx::TensorProto::INT32 ||
           type == onnx::TensorProto::BOOL;
}

template <typename T> void appendRaw(const std::string& raw, std::vector<double>& out) {
    const std::size_t n = raw.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
        out.push_back(static_cast<double>(v));
    }
}

std::optional<Value> readTensor(const onnx::TensorProto& t, bool integersOnly) {
    if (t.data_location() == onnx::TensorProto::EXTERNAL) {
        return std::nullopt;
    }
    Value v;
    v.dims.assign(t.dims().begin(), t.dims().end());
    v.type = t.data_type();
    if (integersOnly && !isInteger(v.type)) {
        return std::nullopt;
    }
    const double count = TensorShapes::elements(v.dims);
    if (count > kMaxFoldedElements) {
        return std::nullopt;
    }
    switch (v.type) {
    case onnx::TensorProto::INT64:
        v.data.assign(t.int64_data().begin(), t.int64_data().end());
        appendRaw<std::int64_t>(t.raw_data(), v.data);
        break;
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::BOOL:
        v.data.assign(t.int32_data().begin(), t.int32_data().end());
        if (v.type == onnx::TensorProto::INT32) {
            appendRaw<std::int32_t>(t.raw_data(), v.data);
        } else {
            appendRaw<std::uint8_t>(t.raw_data(), v.data);
        }
        break;
    case onnx::TensorProto::FLOAT:
        v.data.assign(t.float_data().begin(), t.float_data().end());
        appendRaw<float>(t.raw_data(), v.data);
        break;
    default:
        return std::nullopt;
    }
    if (static_cast<double>(v.data.size()) != count) {
        return std::nullopt;
    }
    return v;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const char* name) {
    for (const auto& a : node.attribute()) {
        if (a.name() == name) {
            return &a;
        }
    }
    return nullptr;
}

std::int64_t intAttribute(const onnx::NodeProto& node, const char* name, std::int64_t fallback) {
    const auto* a = attribute(node, name);
    return a ? a->i() : fallback;
}

// Elementwise on scalars and vectors (the shapes of shape arithmetic).
template <typename F>
std::optional<Value> broadcast(const Value& a, const Value& b, int type, F f) {
    if (a.dims.size() > 1 || b.dims.size() > 1) {
        return std::nullopt;
    }
    const std::size_t n = std::max(a.data.size(), b.data.size());
    if ((a.data.size() != n && a.data.size() != 1) || (b.data.size() != n && b.data.size() != 1)) {
        return std::nullopt;
    }
    Value out;
    out.type = type;
    out.dims = a.dims.size() >= b.dims.size() ? a.dims : b.dims;
    if (!out.dims.empty()) {
        out.dims[0] = static_cast<std::int64_t>(n);
    }
    for (std::size_t i = 0; i < n; ++i) {
        out.data.push_back(
            f(a.data[a.data.size() == 1 ? 0 : i], b.data[b.data.size() == 1 ? 0 : i]));
    }
    return out;
}

double normalisedIndex(double index, double size) {
    return index < 0 ? index + size : index;
}

std::optional<Value> evaluate(const onnx::NodeProto& node, const std::vector<const Value*>& in,
                              const Dims* inputShape) {
    const std::string& op = node.op_type();
    const auto input = [&](std::size_t i) -> const Value* {
        return i < in.size() ? in[i] : nullptr;
    };
    if (op == "Shape" || op == "Size") {
        if (!inputShape) {
            return std::nullopt;
        }
        Value out;
        if (op == "Size") {
            out.data.push_back(TensorShapes::elements(*inputShape));
            return out;
        }
        const auto rank = static_cast<std::int64_t>(inputShape->size());
        std::int64_t start = intAttribute(node, "start", 0), end = intAttribute(node, "end", rank);
        start = std::clamp(start < 0 ? start + rank : start, std::int64_t{0}, rank);
        end = std::clamp(end < 0 ? end + rank : end, std::int64_t{0}, rank);
        for (std::int64_t i = start; i < end; ++i) {
            out.data.push_back(static_cast<double>((*inputShape)[static_cast<std::size_t>(i)]));
        }
        out.dims = {static_cast<std::int64_t>(out.data.size())};
        return out;
    }
    if (op == "Constant") {
        const auto* a = attribute(node, "value");
        return a && a->has_t() ? readTensor(a->t(), true) : std::nullopt;
    }
    if (op == "Identity") {
        return *input(0);
    }
    if (op == "Cast") {
        Value out = *input(0);
        out.type = static_cast<int>(intAttribute(node, "to", onnx::TensorProto::FLOAT));
        if (isInteger(out.type)) {
            for (double& v : out.data) {
                v = std::trunc(v);
            }
        }
        return out;
    }
    if (op == "Gather") {
        const Value& data = *input(0);
        const Value& indices = *input(1);
        if (data.dims.size() != 1 || intAttribute(node, "axis", 0) != 0) {
            return std::nullopt;
        }
        Value out;
        out.type = data.type;
        out.dims = indices.dims;
        for (const double i : indices.data) {
            const double k = normalisedIndex(i, static_cast<double>(data.data.size()));
            if (k < 0 || k >= static_cast<double>(data.data.size())) {
                return std::nullopt;
            }
            out.data.push_back(data.data[static_cast<std::size_t>(k)]);
        }
        return out;
    }
    if (op == "Unsqueeze" || op == "Squeeze") {
        Value out = *input(0);
        std::vector<double> axes;
        if (input(1)) {
            axes = input(1)->data;
        } else if (const auto* a = attribute(node, "axes")) {
            axes.assign(a->ints().begin(), a->ints().end());
        }
        if (op == "Squeeze") {
            Dims kept;
            for (const std::int64_t d : out.dims) {
                if (d != 1 || !axes.empty()) {
                    kept.push_back(d);
                }
            }
            if (!axes.empty()) {
                kept.clear();
                for (std::size_t i = 0; i < out.dims.size(); ++i) {
                    bool drop = false;
                    for (const double a : axes) {
                        drop = drop || normalisedIndex(a, static_cast<double>(out.dims.size())) ==
                                           static_cast<double>(i);
                    }
                    if (!drop) {
                        kept.push_back(out.dims[i]);
                    }
                }
            }
            out.dims = kept;
            return out;
        }
        const double rank = static_cast<double>(out.dims.size() + axes.size());
        Dims dims;
        std::size_t next = 0;
        for (double i = 0; i < rank; ++i) {
            bool inserted = false;
            for (const double a : axes) {
                inserted = inserted || normalisedIndex(a, rank) == i;
            }
            if (inserted) {
                dims.push_back(1);
            } else if (next < out.dims.size()) {
                dims.push_back(out.dims[next++]);
            } else {
                return std::nullopt;
            }
        }
        out.dims = dims;
        return out;
    }
    if (op == "Concat") {
        Value out;
        out.type = input(0)->type;
        for (const Value* v : in) {
            if (!v || v->dims.size() != 1) {
                return std::nullopt;
            }
            out.data.insert(out.data.end(), v->data.begin(), v->data.end());
        }
        out.dims = {static_cast<std::int64_t>(out.data.size())};
        return out;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Max" || op == "Min" ||
        op == "Equal") {
        if (in.size() != 2) {
            return std::nullopt;
        }
        const int type = op == "Equal" ? onnx::TensorProto::BOOL : input(0)->type;
        const bool integer = isInteger(type);
        return broadcast(*input(0), *input(1), type, [&](double a, double b) {
            if (op == "Add") {
                return a + b;
            }
            if (op == "Sub") {
                return a - b;
            }
            if (op == "Mul") {
                return a * b;
            }
            if (op == "Div") {
                return b == 0 ? 0.0 : (integer ? std::trunc(a / b) : a / b);
            }
            if (op == "Max") {
                return std::max(a, b);
            }
            if (op == "Min") {
                return std::min(a, b);
            }
            return a == b ? 1.0 : 0.0;
        });
    }
    if (op == "Where") {
        if (in.size() != 3) {
            return std::nullopt;
        }
        const Value& c = *input(0);
        auto picked =
            broadcast(*input(1), *input(2), input(1)->type, [](double x, double) { return x; });
        auto other =
            broadcast(*input(1), *input(2), input(1)->type, [](double, double y) { return y; });
        if (!picked || !other || (c.data.size() != 1 && c.data.size() != picked->data.size())) {
            return std::nullopt;
        }
        for (std::size_t i = 0; i < picked->data.size(); ++i) {
            if (c.data[c.data.size() == 1 ? 0 : i] == 0) {
                picked->data[i] = other->data[i];
            }
        }
        return picked;
    }
    if (op == "ConstantOfShape") {
        Value out;
        out.type = onnx::TensorProto::FLOAT;
        double fill = 0;
        if (const auto* a = attribute(node, "value"); a && a->has_t()) {
            const auto v = readTensor(a->t(), false);
            if (!v || v->data.size() != 1) {
                return std::nullopt;
            }
            out.type = v->type;
            fill = v->data[0];
        }
        double count = 1;
        for (const double d : input(0)->data) {
            if (d < 0) {
                return std::nullopt;
            }
            count *= d;
            out.dims.push_back(static_cast<std::int64_t>(d));
        }
        if (count > kMaxFoldedElements) {
            return std::nullopt;
        }
        out.data.assign(static_cast<std::size_t>(count), fill);
        return out;
    }
    if (op == "Slice") {
        const Value& data = *input(0);
        if (data.dims.size() != 1 || !input(1) || !input(2) || input(1)->data.size() != 1 ||
            input(2)->data.size() != 1) {
            return std::nullopt;
        }
        const double n = static_cast<double>(data.data.size());
        const double step = input(4) && !input(4)->data.empty() ? input(4)->data[0] : 1;
        if (step != 1) {
            return std::nullopt;
        }
        const double start = std::clamp(normalisedIndex(input(1)->data[0], n), 0.0, n);
        const double end = std::clamp(normalisedIndex(input(2)->data[0], n), 0.0, n);
        Value out;
        out.type = data.type;
        for (double i = start; i < end; ++i) {
            out.data.push_back(data.data[static_cast<std::size_t>(i)]);
        }
        out.dims = {static_cast<std::int64_t>(out.data.size())};
        return out;
    }
    if (op == "Reshape") {
        Value out = *input(0);
        double known = 1;
        int unknown = -1;
        Dims dims;
        for (std::size_t i = 0; i < input(1)->data.size(); ++i) {
            double d = input(1)->data[i];
            if (d == 0 && i < out.dims.size()) {
                d = static_cast<double>(out.dims[i]);
            }
            if (d == -1) {
                unknown = static_cast<int>(i);
                dims.push_back(1);
                continue;
            }
            if (d < 0) {
                return std::nullopt;
            }
            known *= d;
            dims.push_back(static_cast<std::int64_t>(d));
        }
        const double total = static_cast<double>(out.data.size());
        if (unknown >= 0 && known > 0) {
            dims[static_cast<std::size_t>(unknown)] = static_cast<std::int64_t>(total / known);
        }
        if (TensorShapes::elements(dims) != total) {
            return std::nullopt;
        }
        out.dims = dims;
        return out;
    }
    if (op == "Range") {
        const double start = input(0)->data.at(0), limit = input(1)->data.at(0);
        const double delta = input(2)->data.at(0);
        if (delta == 0 || std::abs((limit - start) / delta) > kMaxFoldedElements) {
            return std::nullopt;
        }
        Value out;
        out.type = input(0)->type;
        for (double v = start; delta > 0 ? v < limit : v > limit; v += delta) {
            out.data.push_back(v);
        }
        out.dims = {static_cast<std::int64_t>(out.data.size())};
        return out;
    }
    return std::nullopt;
}

bool foldable(const std::string& op) {
    static const std::unordered_set<std::string> ops = {
        "Shape",     "Size",    "Constant", "Identity", "Cast",  "Gather",
        "Unsqueeze", "Squeeze", "Concat",   "Add",      "Sub",   "Mul",
        "Div",       "Max",     "Min",      "Equal",    "Where", "ConstantOfShape",
        "Slice",     "Reshape", "Range"};
    return ops.count(op) > 0;
}

onnx::TensorProto toTensor(const std::string& name, const Value& v) {
    onnx::TensorProto t;
    t.set_name(name);
    for (const std::int64_t d : v.dims) {
        t.add_dims(d);
    }
    t.set_data_type(v.type);
    for (const double x : v.data) {
        if (v.type == onnx::TensorProto::FLOAT) {
            t.add_float_data(static_cast<float>(x));
        } else if (v.type == onnx::TensorProto::INT64) {
            // INT64_MAX ("to the end" in Slice) is not a double: clamp, do not overflow.
            constexpr double kLimit = 9.2e18;
            t.add_int64_data(x >= kLimit    ? std::numeric_limits<std::int64_t>::max()
                             : x <= -kLimit ? std::numeric_limits<std::int64_t>::min()
                                            : static_cast<std::int64_t>(x));
        } else {
            t.add_int32_data(static_cast<std::int32_t>(x));
        }
    }
    return t;
}

} // namespace

bool foldShapeComputations(onnx::GraphProto& graph, const std::string& file) {
    const TensorShapes shapes(graph, file);
    Values values;
    for (const auto& t : graph.initializer()) {
        if (auto v = readTensor(t, false)) {
            values.emplace(t.name(), std::move(*v));
        }
    }
    std::vector<bool> folded(static_cast<std::size_t>(graph.node_size()), false);
    bool any = false;
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& node = graph.node(i);
        if (!foldable(node.op_type())) {
            continue;
        }
        std::vector<const Value*> in;
        bool ready = true;
        for (int k = 0; k < node.input_size() && ready; ++k) {
            const std::string& name = node.input(k);
            if (node.op_type() == "Shape" || node.op_type() == "Size") {
                break; // reads only the shape
            }
            const auto it = values.find(name);
            in.push_back(it == values.end() ? nullptr : &it->second);
            ready = !name.empty() ? it != values.end() : k > 0;
        }
        const bool readsShape = node.op_type() == "Shape" || node.op_type() == "Size";
        if (!ready || (!readsShape && node.op_type() != "Constant" && in.empty()) ||
            node.output_size() != 1) {
            continue;
        }
        const Dims* inputShape =
            readsShape && node.input_size() > 0 ? shapes.find(node.input(0)) : nullptr;
        std::optional<Value> out;
        try {
            out = evaluate(node, in, inputShape);
        } catch (const std::exception&) {
            out.reset(); // a malformed shape computation stays for shape inference to judge
        }
        if (!out || out->data.size() > kMaxFoldedElements ||
            static_cast<double>(out->data.size()) != TensorShapes::elements(out->dims)) {
            continue;
        }
        values[node.output(0)] = std::move(*out);
        folded[static_cast<std::size_t>(i)] = true;
        any = true;
    }
    if (!any) {
        return false;
    }
    std::unordered_set<std::string> needed;
    for (int i = 0; i < graph.node_size(); ++i) {
        if (!folded[static_cast<std::size_t>(i)]) {
            for (const auto& name : graph.node(i).input()) {
                needed.insert(name);
            }
        }
    }
    for (const auto& o : graph.output()) {
        needed.insert(o.name());
    }
    auto* nodes = graph.mutable_node();
    google::protobuf::RepeatedPtrField<onnx::NodeProto> remaining;
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& node = graph.node(i);
        if (!folded[static_cast<std::size_t>(i)]) {
            *remaining.Add() = node;
        } else if (needed.count(node.output(0))) {
            *graph.add_initializer() = toTensor(node.output(0), values.at(node.output(0)));
        }
    }
    nodes->Swap(&remaining);
    return true;
}

} // namespace podscope
