#pragma once

#include <onnx/onnx_pb.h>
#include <string>

namespace podscope {

// ONNX 1.12's shape inference (Debian 12's libonnx) reads some operators' input dimensions
// without checking the inputs' ranks, so a malformed file crashes it (ConvTranspose with a
// weight of rank 1 reads the weight's second dimension). The guard keeps such nodes out of
// inference until their inputs' ranks are known and checked: a held node is renamed so that
// ONNX finds no schema for it and leaves its outputs unknown for that round.
class OnnxInferenceGuard {
public:
    OnnxInferenceGuard(onnx::GraphProto& graph, std::string file);
    // Releases every held node whose inputs' ranks are now known and fit the operator, and
    // holds every guarded node whose ranks are not known yet. Throws InputError naming the
    // file, the node and the ranks when they are known and do not fit. Returns whether a node
    // was released (another round of inference can then learn more).
    bool update();
    // Gives every node still held its operator back (its outputs stay unknown).
    void releaseAll();

private:
    onnx::GraphProto& graph_;
    std::string file_;
};

} // namespace podscope
