#pragma once

#include <string>

namespace podscope {

// What an ONNX operator without weights costs per output element when it becomes an
// "elementwise" layer: vector operations, transcendentals (EUP), and whether it only moves data.
struct ElementwiseCost {
    double ops = 0;
    double eup = 0;
};

// Operators that compute elementwise (activations, arithmetic, comparisons, reductions).
const ElementwiseCost* elementwiseCost(const std::string& opType);
// Operators that only copy or rearrange their input (Transpose, Concat, Slice...): one read and
// one write of the output's elements.
bool movesData(const std::string& opType);
// Operators that change a tensor's description only (Reshape, Flatten, Squeeze, Identity...):
// no kernel, no layer.
bool isView(const std::string& opType);
// Reductions, whose work is over the input's elements rather than the output's.
bool isReduction(const std::string& opType);

} // namespace podscope
