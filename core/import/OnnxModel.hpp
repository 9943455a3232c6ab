#pragma once

#include <onnx/onnx_pb.h>
#include <string>
#include <unordered_set>

namespace podscope {

// The opsets of the default ONNX domain this importer reads: the range ONNX 1.12's shape
// inference (Debian 12's libonnx) knows, from the oldest that torch.onnx still writes.
inline constexpr int kMinOpset = 7;
inline constexpr int kMaxOpset = 17;
// protobuf cannot parse a message of 2 GiB or more; weights belong in external data.
inline constexpr double kMaxModelBytes = 2147483647.0;

// An ONNX model checked and prepared for mapping: nodes in topological order, the batch
// dimension bound to 1 (or kept where the file fixes it), shape computations folded and every
// shape inferred that can be.
struct OnnxModel {
    onnx::ModelProto proto;
    std::string batchInput;  // the graph input one of whose dimensions is the batch
    int batchAxis = 0;       // which: the first, or its one symbolic one ([seq, batch, ...])
    std::string batchSymbol; // its name ("" when the file fixes the batch)
    double batch = 1;        // the batch the shapes are for
    int opset = 0;
    // The graph inputs that carry examples (the batch input and those sharing its symbol);
    // other inputs without initializers are weights exported as inputs.
    std::unordered_set<std::string> dataInputs;
    // The initializers of the file, before folding added its own: the model's weights.
    std::unordered_set<std::string> weights;
};

// Parses `bytes` (the content of `file`) and prepares it. Throws InputError naming the file and
// the problem: not protobuf, truncated, no graph, an unsupported opset, a dangling input, a
// cycle, no batch dimension, an absurd shape.
OnnxModel prepareOnnxModel(const std::string& bytes, const std::string& file);

} // namespace podscope
