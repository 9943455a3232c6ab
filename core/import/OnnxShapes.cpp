#include "import/OnnxShapes.hpp"

#include "common/InputError.hpp"

#include <string>

namespace podscope {

TensorShapes::TensorShapes(const onnx::GraphProto& graph, const std::string& file)
    : file_(file) {
    for (const auto& v : graph.input()) {
        add(v.name(), v.type());
    }
    for (const auto& v : graph.value_info()) {
        add(v.name(), v.type());
    }
    for (const auto& v : graph.output()) {
        add(v.name(), v.type());
    }
    for (const auto& t : graph.initializer()) {
        add(t.name(), Dims(t.dims().begin(), t.dims().end()), t.data_type());
    }
    for (const auto& node : graph.node()) {
        if (node.op_type() != "Constant" || node.output_size() != 1) {
            continue;
        }
        for (const auto& a : node.attribute()) {
            if (a.name() == "value" && a.has_t()) {
                add(node.output(0), Dims(a.t().dims().begin(), a.t().dims().end()),
                    a.t().data_type());
            }
        }
    }
}

void TensorShapes::add(const std::string& name, const onnx::TypeProto& type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) {
        return;
    }
    Dims dims;
    for (const auto& d : type.tensor_type().shape().dim()) {
        if (!d.has_dim_value()) {
            return; // symbolic or unknown: not a known shape
        }
        dims.push_back(d.dim_value());
    }
    add(name, std::move(dims), type.tensor_type().elem_type());
}

void TensorShapes::add(const std::string& name, Dims dims, int elementType) {
    double count = 1;
    for (const std::int64_t d : dims) {
        if (d < 0) {
            throw InputError("workload", file_ + ": tensor '" + name +
                                             "' has a negative dimension (" + std::to_string(d) +
                                             "): the file is malformed");
        }
        if (static_cast<double>(d) > kMaxDimension) {
            throw InputError("workload", file_ + ": tensor '" + name + "' has a dimension of " +
                                             std::to_string(d) + ", over 10^9: an absurd shape");
        }
        count *= static_cast<double>(d);
    }
    if (count > kMaxElements) {
        throw InputError("workload", file_ + ": tensor '" + name +
                                         "' has more than 2^53 elements: an absurd shape");
    }
    dims_[name] = std::move(dims);
    types_[name] = elementType;
}

const Dims* TensorShapes::find(const std::string& name) const {
    const auto it = dims_.find(name);
    return it == dims_.end() ? nullptr : &it->second;
}

int TensorShapes::elementType(const std::string& name) const {
    const auto it = types_.find(name);
    return it == types_.end() || it->second == 0 ? onnx::TensorProto::FLOAT : it->second;
}

double TensorShapes::elements(const Dims& dims) {
    double count = 1;
    for (const std::int64_t d : dims) {
        count *= static_cast<double>(d);
    }
    return count;
}

double TensorShapes::elementBytes(int elementType) {
    switch (elementType) {
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::INT64:
    case onnx::TensorProto::UINT64:
    case onnx::TensorProto::COMPLEX64:
        return 8;
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::UINT16:
        return 2;
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::BOOL:
        return 1;
    default:
        return 4;
    }
}

} // namespace podscope
