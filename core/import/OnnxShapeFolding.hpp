#pragma once

#include <onnx/onnx_pb.h>
#include <string>

namespace podscope {

// Exporters compute reshape targets at run time (Shape, Gather, Concat, arithmetic, Where...);
// ONNX's own data propagation stops at the first arithmetic. This evaluates such small integer
// computations wherever their inputs are known (constants, or the inferred shape a Shape node
// reads) and replaces them by initializers, so that the next round of shape inference sees
// constant shapes. Returns whether it folded any node.
bool foldShapeComputations(onnx::GraphProto& graph, const std::string& file);

} // namespace podscope
