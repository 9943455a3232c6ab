#include "import/OnnxInferenceGuard.hpp"

#include "common/InputError.hpp"

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace podscope {
namespace {

// A held node's operator is this prefix and its own name: no ONNX schema matches it.
const std::string kHeldPrefix = "PodScopeHeld.";

bool isHeld(const onnx::NodeProto& node) {
    return node.op_type().rfind(kHeldPrefix, 0) == 0;
}

std::string operatorOf(const onnx::NodeProto& node) {
    return isHeld(node) ? node.op_type().substr(kHeldPrefix.size()) : node.op_type();
}

bool isDefaultDomain(const onnx::NodeProto& node) {
    return node.domain().empty() || node.domain() == "ai.onnx";
}

// The tensors whose types, and the ranks of those whose shapes, are known so far (declared,
// initializers, inferred).
class KnownTensors {
public:
    explicit KnownTensors(const onnx::GraphProto& g) {
        const auto addValue = [&](const onnx::ValueInfoProto& v) {
            if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) {
                typed_.insert(v.name());
            }
            if (v.type().has_tensor_type() && v.type().tensor_type().has_shape()) {
                ranks_[v.name()] = v.type().tensor_type().shape().dim_size();
            }
        };
        for (const auto& v : g.input()) {
            addValue(v);
        }
        for (const auto& v : g.value_info()) {
            addValue(v);
        }
        for (const auto& v : g.output()) {
            addValue(v);
        }
        for (const auto& t : g.initializer()) {
            typed_.insert(t.name());
            ranks_[t.name()] = t.dims_size();
        }
    }

    std::optional<int> rank(const onnx::NodeProto& node, int input) const {
        if (input >= node.input_size() || node.input(input).empty()) {
            return std::nullopt;
        }
        const auto it = ranks_.find(node.input(input));
        return it == ranks_.end() ? std::nullopt : std::optional<int>(it->second);
    }
    bool typed(const onnx::NodeProto& node, int input) const {
        return input < node.input_size() && typed_.count(node.input(input)) > 0;
    }

private:
    std::unordered_map<std::string, int> ranks_;
    std::unordered_set<std::string> typed_;
};

enum class Verdict { Unknown, Fits };

std::string nodeName(const onnx::NodeProto& node) {
    return node.name().empty() ? (node.output_size() ? node.output(0) : std::string("?"))
                               : node.name();
}

// ConvTranspose: X is [N, C, d1...dn] and W [C, M/group, k1...kn] (the ONNX operator's
// definition), so both have the same rank, at least 3.
Verdict checkConvTranspose(const onnx::NodeProto& node, const KnownTensors& ranks,
                           const std::string& file) {
    const auto x = ranks.rank(node, 0);
    const auto w = ranks.rank(node, 1);
    if (!x || !w) {
        return Verdict::Unknown;
    }
    if (*x < 3 || *w != *x) {
        throw InputError("workload",
                         file + ": node '" + nodeName(node) + "' (ConvTranspose) has an input '" +
                             node.input(0) + "' of rank " + std::to_string(*x) + " and a weight '" +
                             node.input(1) + "' of rank " + std::to_string(*w) +
                             ": ConvTranspose takes [N, C, d1, ...] and a weight [C, M/group, "
                             "k1, ...] of the same rank, 3 or more");
    }
    return Verdict::Fits;
}

// Shape: its data propagation reads the input's type without checking that there is one (a
// tensor whose producer's inference failed has none), so it waits for the type.
Verdict checkShape(const onnx::NodeProto& node, const KnownTensors& known, const std::string&) {
    return known.typed(node, 0) ? Verdict::Fits : Verdict::Unknown;
}

using Check = Verdict (*)(const onnx::NodeProto&, const KnownTensors&, const std::string&);

const std::unordered_map<std::string, Check>& guardedOperators() {
    static const std::unordered_map<std::string, Check> checks{
        {"ConvTranspose", &checkConvTranspose},
        {"Shape", &checkShape},
    };
    return checks;
}

} // namespace

OnnxInferenceGuard::OnnxInferenceGuard(onnx::GraphProto& graph, std::string file)
    : graph_(graph)
    , file_(std::move(file)) {}

bool OnnxInferenceGuard::update() {
    const KnownTensors ranks(graph_);
    bool released = false;
    for (auto& node : *graph_.mutable_node()) {
        if (!isDefaultDomain(node)) {
            continue;
        }
        const std::string op = operatorOf(node);
        const auto check = guardedOperators().find(op);
        if (check == guardedOperators().end()) {
            continue;
        }
        const Verdict verdict = check->second(node, ranks, file_);
        if (verdict == Verdict::Fits && isHeld(node)) {
            node.set_op_type(op);
            released = true;
        } else if (verdict == Verdict::Unknown && !isHeld(node)) {
            node.set_op_type(kHeldPrefix + op);
        }
    }
    return released;
}

void OnnxInferenceGuard::releaseAll() {
    for (auto& node : *graph_.mutable_node()) {
        if (isHeld(node)) {
            node.set_op_type(operatorOf(node));
        }
    }
}

} // namespace podscope
