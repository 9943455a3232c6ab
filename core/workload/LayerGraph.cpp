#include "workload/LayerGraph.hpp"

#include "common/InputError.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace podscope {
namespace {

using nlohmann::json;

// A layer of a bundled file is data we ship: a defect is a bug, reported with the file and layer.
struct LayerReader {
    const json& object;
    const std::map<std::string, double>& variables;
    const std::string& where;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw std::runtime_error(where + ": '" + key + "' " + problem);
    }

    // A number, or factors (numbers and variable names) joined by '*'.
    double number(const std::string& key) const {
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
        return object.contains(key) ? object.at(key).get<std::string>() : fallback;
    }
    bool flag(const std::string& key) const { return object.value(key, false); }
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
    r.fail(key, "has an unknown value '" + value + "'");
}

Layer readLayer(const LayerReader& r) {
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
                                     {"loss", LayerType::Loss}});
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
        l.k = static_cast<int>(r.number("k"));
        l.stride = static_cast<int>(r.numberOr("stride", 1));
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
        break;
    case LayerType::Embedding:
        l.vocab = r.number("vocab");
        l.dim = r.number("dim");
        l.rows = r.number("rows");
        break;
    case LayerType::Norm:
        l.rows = r.number("rows");
        l.dim = r.number("dim");
        break;
    case LayerType::Pool:
        l.h = r.number("h");
        l.w = r.number("w");
        l.cout = r.number("c");
        l.cin = l.cout;
        l.k = static_cast<int>(r.number("k"));
        break;
    case LayerType::Elementwise:
        l.elements = r.number("elements");
        l.ops = r.number("ops");
        l.eup = r.numberOr("eup", 0);
        l.passes = r.number("passes");
        l.backward = r.object.value("backward", true);
        break;
    case LayerType::Loss:
        l.rows = r.number("rows");
        l.classes = r.number("classes");
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
        return tiedTo >= 0 ? 0 : (in + hidden) * gates * hidden + gates * hidden;
    case LayerType::Embedding:
        return tiedTo >= 0 ? 0 : vocab * dim;
    case LayerType::Norm:
        return 2 * dim;
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
    LayerGraphSpec spec;
    spec.source = graph.at("source").get<std::string>();
    spec.sequenceVariable = graph.value("sequence_variable", "");
    for (const auto& [name, v] : graph.at("variables").items()) {
        ShapeVariable var;
        var.value = v.at("value").get<double>();
        var.min = v.value("min", var.value);
        var.max = v.value("max", var.value);
        var.source = v.at("source").get<std::string>();
        spec.variables[name] = var;
    }
    if (!spec.sequenceVariable.empty() && !spec.variables.count(spec.sequenceVariable)) {
        throw std::runtime_error(file + ": graph.sequence_variable names no variable");
    }
    spec.layers = graph.at("layers");
    // Bind once with the defaults so that a defect shows when the file is loaded.
    bindLayerGraph(spec, {});
    return spec;
}

LayerGraph bindLayerGraph(const LayerGraphSpec& spec, const std::map<std::string, double>& overrides,
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
    for (const json& object : spec.layers) {
        const std::string where = "layer '" + object.value("name", std::string("?")) + "'";
        const LayerReader reader{object, graph.variables, where};
        Layer layer = readLayer(reader);
        if (object.contains("tied")) {
            const auto it = indexOf.find(object.at("tied").get<std::string>());
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
    }
    return "?";
}

} // namespace podscope
