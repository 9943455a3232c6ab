#include "workload/LayerGraph.hpp"

#include "common/InputError.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace podscope {
namespace {

using nlohmann::json;

// Sizes past this are typos or garbage, not models (the largest bundled size is near 1e7).
constexpr double kAbsurdSize = 1e12;
// Layers in one graph: a 300-layer model is large; a million would take seconds to plan.
constexpr std::size_t kMaxLayers = 100000;

// Fields that may be zero (an LSTM fed by its own state alone, an elementwise layer that only
// reads); every other size must be positive.
bool mayBeZero(LayerType type, const std::string& key) {
    return key == "ops" || key == "eup" || key == "passes" ||
           (type == LayerType::Recurrent && (key == "in" || key == "biases"));
}

// A layer of a workload document: a defect names the file, the layer (name and index) and the
// field, as an InputError (a user's file is input; a bundled file's defect fails its tests).
struct LayerReader {
    const json& object;
    const std::map<std::string, double>& variables;
    const std::string& file;
    const std::string& where; // "layer 'block3.fc' (index 12)"
    LayerType type = LayerType::Elementwise;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(file, where + ": field '" + key + "' " + problem);
    }

    // A number, or factors (numbers and variable names) joined by '*'; a size, so positive
    // (or zero where mayBeZero) and below kAbsurdSize.
    double number(const std::string& key) const {
        const double value = expression(key);
        if (!std::isfinite(value) || value < 0 || (value == 0 && !mayBeZero(type, key))) {
            fail(key, mayBeZero(type, key) ? "must not be negative" : "must be a positive number");
        }
        if (value > kAbsurdSize) {
            fail(key, "is absurdly large (above 1e12)");
        }
        return value;
    }
    double expression(const std::string& key) const {
        if (!object.contains(key)) {
            fail(key, "is missing");
        }
        const json& v = object.at(key);
        if (v.is_number()) {
            return v.get<double>();
        }
        if (!v.is_string()) {
            fail(key, "must be a number or an expression");
        }
        double value = 1;
        std::stringstream text(v.get<std::string>());
        std::string factor;
        while (std::getline(text, factor, '*')) {
            const auto first = factor.find_first_not_of(' ');
            const auto last = factor.find_last_not_of(' ');
            if (first == std::string::npos) {
                fail(key, "has an empty factor");
            }
            factor = factor.substr(first, last - first + 1);
            const auto it = variables.find(factor);
            if (it != variables.end()) {
                value *= it->second;
                continue;
            }
            std::size_t used = 0;
            try {
                value *= std::stod(factor, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != factor.size()) {
                fail(key, "names an unknown variable '" + factor + "'");
            }
        }
        return value;
    }
    double numberOr(const std::string& key, double fallback) const {
        return object.contains(key) ? number(key) : fallback;
    }
    std::string text(const std::string& key, const std::string& fallback) const {
        if (!object.contains(key)) {
            return fallback;
        }
        if (!object.at(key).is_string()) {
            fail(key, "must be a string");
        }
        return object.at(key).get<std::string>();
    }
    bool flag(const std::string& key, bool fallback = false) const {
        if (!object.contains(key)) {
            return fallback;
        }
        if (!object.at(key).is_boolean()) {
            fail(key, "must be true or false");
        }
        return object.at(key).get<bool>();
    }
    int whole(const std::string& key, double fallback) const {
        const double v = object.contains(key) ? number(key) : fallback;
        if (std::floor(v) != v || v > 1e6) {
            fail(key, "must be a whole number up to 1e6");
        }
        return static_cast<int>(v);
    }
};

template <typename Enum>
Enum parseChoice(const LayerReader& r, const std::string& key, const std::string& fallback,
                 std::initializer_list<std::pair<const char*, Enum>> choices) {
    const std::string value = r.text(key, fallback);
    for (const auto& [name, e] : choices) {
        if (value == name) {
            return e;
        }
    }
    std::string known;
    for (const auto& [name, e] : choices) {
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    r.fail(key, "has an unknown value '" + value + "' (" + known + ")");
}

// Which passes run a relayout or reduction: {forward, backward}.
std::pair<bool, bool> readPasses(const LayerReader& r) {
    return parseChoice<std::pair<bool, bool>>(
        r, "pass", "forward",
        {{"forward", {true, false}}, {"backward", {false, true}}, {"both", {true, true}}});
}

double elementCount(const std::vector<double>& dims) {
    double n = 1;
    for (const double d : dims) {
        n *= d;
    }
    return n;
}

// {"dims": [per-example sizes], "minor_to_major": [axes of batch + dims]}: the order is a
// permutation of 0..dims (axis 0 the batch), as XLA writes a layout.
void readArrayLayout(const LayerReader& r, const std::string& key, std::vector<double>& dims,
                     std::vector<int>& order) {
    const nlohmann::json* array = r.object.contains(key) ? &r.object.at(key) : nullptr;
    if (!array || !array->is_object() || !array->contains("dims") ||
        !array->at("dims").is_array() || !array->contains("minor_to_major") ||
        !array->at("minor_to_major").is_array()) {
        r.fail(key, "must be {\"dims\": [sizes per example], \"minor_to_major\": [axes]}");
    }
    for (const nlohmann::json& d : array->at("dims")) {
        if (!d.is_number() || !(d.get<double>() >= 1) || d.get<double>() > kAbsurdSize ||
            std::floor(d.get<double>()) != d.get<double>()) {
            r.fail(key, "dims must be whole numbers from 1 to 1e12");
        }
        dims.push_back(d.get<double>());
    }
    if (dims.empty() || dims.size() > 8 || elementCount(dims) > kAbsurdSize) {
        r.fail(key, "dims must be 1 to 8 sizes holding at most 1e12 elements per example");
    }
    const std::size_t axes = dims.size() + 1;
    std::vector<bool> seen(axes, false);
    for (const nlohmann::json& a : array->at("minor_to_major")) {
        const double axis = a.is_number() ? a.get<double>() : -1;
        if (std::floor(axis) != axis || axis < 0 || axis >= static_cast<double>(axes) ||
            seen[static_cast<std::size_t>(axis)]) {
            r.fail(key, "minor_to_major must order each axis 0.." + std::to_string(axes - 1) +
                            " once (axis 0 the batch)");
        }
        seen[static_cast<std::size_t>(axis)] = true;
        order.push_back(static_cast<int>(axis));
    }
    if (order.size() != axes) {
        r.fail(key, "minor_to_major must order each axis 0.." + std::to_string(axes - 1) +
                        " once (axis 0 the batch)");
    }
}

Layer readLayer(LayerReader& r) {
    Layer l;
    l.name = r.text("name", "");
    l.group = r.text("group", "");
    l.type = parseChoice<LayerType>(r, "type", "",
                                    {{"conv", LayerType::Conv},
                                     {"dense", LayerType::Dense},
                                     {"attention", LayerType::Attention},
                                     {"recurrent", LayerType::Recurrent},
                                     {"embedding", LayerType::Embedding},
                                     {"norm", LayerType::Norm},
                                     {"pool", LayerType::Pool},
                                     {"elementwise", LayerType::Elementwise},
                                     {"loss", LayerType::Loss},
                                     {"crop_resize", LayerType::CropResize},
                                     {"sort", LayerType::Sort},
                                     {"relayout", LayerType::Relayout},
                                     {"reduce", LayerType::Reduce}});
    r.type = l.type;
    l.activation = parseChoice<Activation>(r, "act", "none",
                                           {{"none", Activation::None},
                                            {"relu", Activation::Relu},
                                            {"gelu", Activation::Gelu},
                                            {"tanh", Activation::Tanh}});
    l.split = parseChoice<TensorSplit>(r, "split", "none",
                                       {{"none", TensorSplit::None},
                                        {"column", TensorSplit::Column},
                                        {"row", TensorSplit::Row},
                                        {"vocab", TensorSplit::Vocab}});
    const bool map = l.type == LayerType::Conv || l.type == LayerType::Pool;
    const std::string defaultRole = map ? "split" : "replicated";
    l.spatial = parseChoice<SpatialRole>(r, "spatial", defaultRole,
                                         {{"split", SpatialRole::Split},
                                          {"replicated", SpatialRole::Replicated},
                                          {"rois", SpatialRole::Rois}});
    l.residual = r.flag("residual");
    l.bias = r.flag("bias");
    switch (l.type) {
    case LayerType::Conv:
        l.h = r.number("h");
        l.w = r.number("w");
        l.cin = r.number("cin");
        l.cout = r.number("cout");
        l.k = r.whole("k", 1);
        l.stride = r.whole("stride", 1);
        l.count = r.numberOr("count", 1);
        l.fold = r.flag("fold");
        l.batchNorm = parseChoice<BatchNormKind>(r, "bn", "none",
                                                 {{"none", BatchNormKind::None},
                                                  {"batch", BatchNormKind::Batch},
                                                  {"frozen", BatchNormKind::Frozen}});
        break;
    case LayerType::Dense:
        l.rows = r.number("rows");
        l.in = r.number("in");
        l.out = r.number("out");
        break;
    case LayerType::Attention:
        l.heads = r.number("heads");
        l.q = r.number("q");
        l.kv = r.number("kv");
        l.dim = r.number("dim");
        break;
    case LayerType::Recurrent:
        l.steps = r.number("steps");
        l.in = r.number("in");
        l.hidden = r.number("hidden");
        l.gates = r.number("gates");
        l.biases = r.numberOr("biases", 1);
        break;
    case LayerType::Embedding:
        l.vocab = r.number("vocab");
        l.dim = r.number("dim");
        l.rows = r.number("rows");
        l.streamed =
            parseChoice<bool>(r, "lookup", "gather", {{"gather", false}, {"streamed", true}});
        break;
    case LayerType::Norm:
        l.rows = r.number("rows");
        l.dim = r.number("dim");
        l.rms = parseChoice<bool>(r, "variant", "layer", {{"layer", false}, {"rms", true}});
        break;
    case LayerType::Pool:
        l.h = r.number("h");
        l.w = r.number("w");
        l.cout = r.number("c");
        l.cin = l.cout;
        l.k = r.whole("k", 1);
        l.stride = r.whole("stride", 1);
        break;
    case LayerType::Elementwise:
        l.elements = r.number("elements");
        l.ops = r.number("ops");
        l.eup = r.numberOr("eup", 0);
        l.passes = r.number("passes");
        l.backward = r.flag("backward", true);
        l.elementBytes = r.numberOr("element_bytes", 0); // 0: the activations' bytes
        l.count = r.whole("count", 1);
        break;
    case LayerType::Loss:
        l.rows = r.number("rows");
        l.classes = r.number("classes");
        break;
    case LayerType::CropResize:
        l.h = r.number("h");
        l.w = r.number("w");
        l.cin = r.number("c");
        l.cout = l.cin;
        l.rows = r.number("rois");
        l.k = r.whole("size", 1);
        l.samples = r.numberOr("samples", 1);
        break;
    case LayerType::Sort:
        l.rows = r.number("rows");
        l.length = r.number("length");
        l.arrays = r.numberOr("arrays", 2);
        l.elementBytes = r.numberOr("element_bytes", 8);
        break;
    case LayerType::Relayout:
        readArrayLayout(r, "from", l.fromDims, l.fromOrder);
        readArrayLayout(r, "to", l.toDims, l.toOrder);
        if (std::abs(elementCount(l.fromDims) - elementCount(l.toDims)) >
            1e-9 * elementCount(l.fromDims)) {
            r.fail("to", "must hold as many elements per example as 'from' (a relayout moves "
                         "every element once)");
        }
        l.elementBytes = r.number("element_bytes");
        l.transposed = r.flag("transposed");
        std::tie(l.forward, l.backward) = readPasses(r);
        break;
    case LayerType::Reduce:
        readArrayLayout(r, "from", l.fromDims, l.fromOrder);
        readArrayLayout(r, "to", l.toDims, l.toOrder);
        if (!(elementCount(l.toDims) < elementCount(l.fromDims))) {
            r.fail("to", "must hold fewer elements per example than 'from' (a reduction "
                         "shrinks its operand)");
        }
        l.elementBytes = r.number("element_bytes");
        l.count = r.whole("count", 1);
        std::tie(l.forward, l.backward) = readPasses(r);
        break;
    }
    return l;
}

} // namespace

double Layer::parameters() const {
    switch (type) {
    case LayerType::Conv: {
        if (tiedTo >= 0) {
            return 0;
        }
        double p = static_cast<double>(k) * k * cin * cout;
        if (batchNorm != BatchNormKind::None) {
            p += 2 * cout;
        }
        return p + (bias ? cout : 0);
    }
    case LayerType::Dense:
        return (tiedTo >= 0 ? 0 : in * out) + (bias ? out : 0);
    case LayerType::Recurrent:
        return tiedTo >= 0 ? 0 : (in + hidden) * gates * hidden + biases * gates * hidden;
    case LayerType::Embedding:
        return tiedTo >= 0 ? 0 : vocab * dim;
    case LayerType::Norm:
        return (rms ? 1 : 2) * dim; // RMSNorm scales only; LayerNorm scales and shifts
    default:
        return 0;
    }
}

double Layer::forwardMacs() const {
    switch (type) {
    case LayerType::Conv:
        return count * h * w * k * k * cin * cout;
    case LayerType::Dense:
        return rows * in * out;
    case LayerType::Attention:
        return 2 * heads * q * kv * dim;
    case LayerType::Recurrent:
        return steps * (in + hidden) * gates * hidden;
    default:
        return 0;
    }
}

double LayerGraph::parameters() const {
    double total = 0;
    for (const Layer& l : layers) {
        total += l.parameters();
    }
    return total;
}

double LayerGraph::forwardMacsPerExample() const {
    double total = 0;
    for (const Layer& l : layers) {
        total += l.forwardMacs();
    }
    return total;
}

LayerGraphSpec parseLayerGraphSpec(const json& graph, const std::string& file) {
    auto fail = [&](const std::string& problem) -> void {
        throw InputError(file, "graph: " + problem);
    };
    LayerGraphSpec spec;
    spec.file = file;
    if (!graph.is_object()) {
        fail("must be an object");
    }
    if (graph.contains("source")) {
        if (!graph.at("source").is_string()) {
            fail("field 'source' must be a string");
        }
        spec.source = graph.at("source").get<std::string>();
    }
    if (graph.contains("sequence_variable")) {
        if (!graph.at("sequence_variable").is_string()) {
            fail("field 'sequence_variable' must be a string");
        }
        spec.sequenceVariable = graph.at("sequence_variable").get<std::string>();
    }
    if (graph.contains("variables")) {
        if (!graph.at("variables").is_object()) {
            fail("field 'variables' must be an object");
        }
        for (const auto& [name, v] : graph.at("variables").items()) {
            const std::string where = "variable '" + name + "': ";
            if (!v.is_object() || !v.contains("value") || !v.at("value").is_number()) {
                fail(where + "must be {\"value\": number, \"source\": text, \"min\", \"max\"}");
            }
            ShapeVariable var;
            var.value = v.at("value").get<double>();
            for (const auto& [key, field] :
                 {std::pair{"min", &ShapeVariable::min}, std::pair{"max", &ShapeVariable::max}}) {
                if (!v.contains(key)) {
                    var.*field = var.value;
                } else if (!v.at(key).is_number()) {
                    fail(where + "field '" + key + "' must be a number");
                } else {
                    var.*field = v.at(key).get<double>();
                }
            }
            if (!(var.value > 0) || !(var.value <= kAbsurdSize) || !(var.min <= var.value) ||
                !(var.value <= var.max)) {
                fail(where + "needs 0 < min <= value <= max <= 1e12");
            }
            if (!v.contains("source") || !v.at("source").is_string()) {
                fail(where + "field 'source' (text: where the value comes from) is missing");
            }
            var.source = v.at("source").get<std::string>();
            if (v.contains("buckets")) {
                // The value a step's shapes take is the mean over the buckets; a value that
                // disagrees with its own buckets is a file out of step with its data.
                const json& b = v.at("buckets");
                const auto numbers = [&](const char* key) {
                    std::vector<double> out;
                    if (!b.is_object() || !b.contains(key) || !b.at(key).is_array()) {
                        fail(where + "buckets need arrays 'lengths' and 'shares' and a 'source'");
                    }
                    for (const json& x : b.at(key)) {
                        if (!x.is_number() || !(x.get<double>() > 0)) {
                            fail(where + "buckets: '" + key + "' must hold positive numbers");
                        }
                        out.push_back(x.get<double>());
                    }
                    return out;
                };
                var.bucketValues = numbers("lengths");
                var.bucketShares = numbers("shares");
                if (!b.contains("source") || !b.at("source").is_string()) {
                    fail(where + "buckets need a 'source'");
                }
                double total = 0, mean = 0;
                for (std::size_t i = 0; i < var.bucketValues.size(); ++i) {
                    if (var.bucketValues[i] < var.min || var.bucketValues[i] > var.max) {
                        fail(where + "a bucket lies outside min..max");
                    }
                    total += i < var.bucketShares.size() ? var.bucketShares[i] : 0;
                    mean +=
                        i < var.bucketShares.size() ? var.bucketShares[i] * var.bucketValues[i] : 0;
                }
                if (var.bucketValues.empty() ||
                    var.bucketShares.size() != var.bucketValues.size() ||
                    std::abs(total - 1) > 0.005) {
                    fail(where + "buckets need one share per length, summing to 1");
                }
                if (std::round(mean / total) != var.value) {
                    std::ostringstream text;
                    text << where << "value " << var.value
                         << " is not the buckets' share-weighted mean " << mean / total
                         << " to the whole token";
                    fail(text.str());
                }
            }
            spec.variables[name] = var;
        }
    }
    if (!spec.sequenceVariable.empty() && !spec.variables.count(spec.sequenceVariable)) {
        fail("sequence_variable '" + spec.sequenceVariable + "' names no variable");
    }
    if (!graph.contains("layers") || !graph.at("layers").is_array()) {
        fail("field 'layers' must be an array of layers");
    }
    spec.layers = graph.at("layers");
    if (spec.layers.empty()) {
        fail("has no layers");
    }
    if (spec.layers.size() > kMaxLayers) {
        fail("has " + std::to_string(spec.layers.size()) + " layers, more than " +
             std::to_string(kMaxLayers));
    }
    // Bind once with the defaults so that a defect shows when the file is loaded.
    bindLayerGraph(spec, {});
    return spec;
}

LayerGraph bindLayerGraph(const LayerGraphSpec& spec,
                          const std::map<std::string, double>& overrides,
                          const std::string& field) {
    LayerGraph graph;
    graph.source = spec.source;
    for (const auto& [name, var] : spec.variables) {
        graph.variables[name] = var.value;
    }
    for (const auto& [name, value] : overrides) {
        const auto it = spec.variables.find(name);
        if (it == spec.variables.end()) {
            throw InputError(field, "the workload has no shape variable '" + name + "'");
        }
        if (!(value >= it->second.min && value <= it->second.max) || std::floor(value) != value) {
            std::ostringstream range;
            range << "must be a whole number from " << it->second.min << " to " << it->second.max;
            throw InputError(field, range.str());
        }
        graph.variables[name] = value;
    }
    std::map<std::string, int> indexOf;
    for (std::size_t i = 0; i < spec.layers.size(); ++i) {
        const json& object = spec.layers[i];
        const std::string index = "(index " + std::to_string(i) + ")";
        if (!object.is_object()) {
            throw InputError(spec.file, "layer " + index + " must be an object");
        }
        const json* name = object.contains("name") ? &object.at("name") : nullptr;
        const std::string where =
            "layer " + (name && name->is_string() ? "'" + name->get<std::string>() + "' " : "") +
            index;
        LayerReader reader{object, graph.variables, spec.file, where};
        if (!object.contains("type")) {
            reader.fail("type", "is missing");
        }
        Layer layer = readLayer(reader);
        if (object.contains("tied")) {
            const auto it = indexOf.find(reader.text("tied", ""));
            if (it == indexOf.end()) {
                reader.fail("tied", "names no earlier layer");
            }
            layer.tiedTo = it->second;
        }
        indexOf[layer.name] = static_cast<int>(graph.layers.size());
        graph.layers.push_back(std::move(layer));
    }
    return graph;
}

std::string toString(LayerType type) {
    switch (type) {
    case LayerType::Conv:
        return "conv";
    case LayerType::Dense:
        return "dense";
    case LayerType::Attention:
        return "attention";
    case LayerType::Recurrent:
        return "recurrent";
    case LayerType::Embedding:
        return "embedding";
    case LayerType::Norm:
        return "norm";
    case LayerType::Pool:
        return "pool";
    case LayerType::Elementwise:
        return "elementwise";
    case LayerType::Loss:
        return "loss";
    case LayerType::CropResize:
        return "crop_resize";
    case LayerType::Sort:
        return "sort";
    case LayerType::Relayout:
        return "relayout";
    case LayerType::Reduce:
        return "reduce";
    }
    return "?";
}

} // namespace podscope
