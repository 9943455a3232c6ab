#pragma once

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace podscope {

using Dims = std::vector<std::int64_t>;

// The fully known shapes of an ONNX graph's tensors (inputs, initializers, inferred value_info,
// outputs, Constant nodes): a tensor with an unknown or symbolic dimension is left out.
class TensorShapes {
public:
    // Throws InputError naming `file` and the tensor when a shape is absurd: a dimension over
    // 10^9, a negative one, or more elements than a double counts exactly.
    TensorShapes(const onnx::GraphProto& graph, const std::string& file);

    const Dims* find(const std::string& name) const;
    // TensorProto::DataType of the tensor, FLOAT when unknown.
    int elementType(const std::string& name) const;

    static double elements(const Dims& dims);
    static double elementBytes(int elementType);

private:
    void add(const std::string& name, const onnx::TypeProto& type);
    void add(const std::string& name, Dims dims, int elementType);

    const std::string& file_;
    std::unordered_map<std::string, Dims> dims_;
    std::unordered_map<std::string, int> types_;
};

// The largest dimension and element count a shape may have before it is reported as absurd.
inline constexpr double kMaxDimension = 1e9;
inline constexpr double kMaxElements = 9.007199254740992e15; // 2^53

} // namespace podscope
