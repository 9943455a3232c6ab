#pragma once

#include <onnx/onnx_pb.h>
#include <string>

namespace podscope {

// ONNX 1.12's shape inference (Debian 12's libonnx) divides by some attributes without
// checking them: a Conv or a pool with a stride of 0 stops the process with a division by zero
// (found by podscope_fuzz_onnx), and a SpaceToDepth or DepthToSpace with a block size of 0
// would too. Before inference, every node of the graph and of its subgraphs must have window
// attributes (strides, dilations, kernel_shape) and block sizes of at least 1 and at most
// kMaxWindowAttribute, as the ONNX operators define them. Throws InputError naming the file,
// the node, the attribute and its value otherwise.
void checkWindowAttributes(const onnx::GraphProto& graph, const std::string& file);

// Far beyond any real model's windows, and small enough that ONNX's products of two of them
// (a dilated kernel, a block size squared) stay within 64 bits.
inline constexpr long long kMaxWindowAttribute = 1LL << 30;

} // namespace podscope
