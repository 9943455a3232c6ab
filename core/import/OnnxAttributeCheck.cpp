#include "import/OnnxAttributeCheck.hpp"

#include "common/InputError.hpp"

#include <array>
#include <string_view>

namespace podscope {
namespace {

// The integer attributes that ONNX operators define as positive sizes and that its shape
// inference divides by or multiplies together.
constexpr std::array<std::string_view, 4> kPositiveAttributes{"strides", "dilations",
                                                              "kernel_shape", "blocksize"};

bool isPositiveAttribute(const std::string& name) {
    for (const std::string_view a : kPositiveAttributes) {
        if (name == a) {
            return true;
        }
    }
    return false;
}

std::string nodeName(const onnx::NodeProto& node) {
    return node.name().empty() ? (node.output_size() ? node.output(0) : std::string("?"))
                               : node.name();
}

void checkValue(const onnx::NodeProto& node, const onnx::AttributeProto& a, long long value,
                const std::string& file) {
    if (value >= 1 && value <= kMaxWindowAttribute) {
        return;
    }
    throw InputError("workload", file + ": node '" + nodeName(node) + "' (" + node.op_type() +
                                     ") has " + a.name() + " " + std::to_string(value) + ": " +
                                     a.name() + " must be from 1 to " +
                                     std::to_string(kMaxWindowAttribute));
}

void checkNode(const onnx::NodeProto& node, const std::string& file) {
    for (const auto& a : node.attribute()) {
        if (isPositiveAttribute(a.name())) {
            if (a.type() == onnx::AttributeProto::INT || a.has_i()) {
                checkValue(node, a, a.i(), file);
            }
            for (const auto v : a.ints()) {
                checkValue(node, a, v, file);
            }
        }
        // Inference descends into If and Loop bodies and the like: so does the check.
        if (a.has_g()) {
            checkWindowAttributes(a.g(), file);
        }
        for (const auto& g : a.graphs()) {
            checkWindowAttributes(g, file);
        }
    }
}

} // namespace

void checkWindowAttributes(const onnx::GraphProto& graph, const std::string& file) {
    for (const auto& node : graph.node()) {
        checkNode(node, file);
    }
}

} // namespace podscope
