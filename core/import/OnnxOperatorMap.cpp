#include "import/OnnxOperatorMap.hpp"

#include <unordered_map>
#include <unordered_set>

namespace podscope {

// Counted from each operator's definition in the ONNX operator reference
// (https://onnx.ai/onnx/operators/): one vector operation per add, multiply, compare or select,
// one transcendental per exp, log, erf, tanh, sqrt or reciprocal.
const ElementwiseCost* elementwiseCost(const std::string& opType) {
    static const std::unordered_map<std::string, ElementwiseCost> costs = {
        {"Add", {1, 0}},
        {"Sub", {1, 0}},
        {"Mul", {1, 0}},
        {"Div", {1, 1}}, // x * reciprocal(y)
        {"Pow", {1, 2}}, // exp(y log x)
        {"Max", {1, 0}},
        {"Min", {1, 0}},
        {"Sum", {1, 0}},
        {"Mean", {2, 0}},
        {"Neg", {1, 0}},
        {"Abs", {1, 0}},
        {"Sign", {2, 0}},
        {"Floor", {1, 0}},
        {"Ceil", {1, 0}},
        {"Round", {1, 0}},
        {"Equal", {1, 0}},
        {"Less", {1, 0}},
        {"Greater", {1, 0}},
        {"LessOrEqual", {1, 0}},
        {"GreaterOrEqual", {1, 0}},
        {"Not", {1, 0}},
        {"And", {1, 0}},
        {"Or", {1, 0}},
        {"Xor", {1, 0}},
        {"Where", {1, 0}},
        {"Relu", {1, 0}},
        {"LeakyRelu", {3, 0}},   // compare, multiply, select
        {"PRelu", {3, 0}},       // compare, multiply, select
        {"Clip", {2, 0}},        // max, min
        {"HardSigmoid", {4, 0}}, // alpha x + beta, clamped to [0, 1]
        {"HardSwish", {5, 0}},   // x * hardsigmoid(x)
        {"Sigmoid", {2, 2}},     // 1 / (1 + exp(-x))
        {"Tanh", {0, 1}},
        {"Erf", {0, 1}},
        {"Exp", {0, 1}},
        {"Log", {0, 1}},
        {"Sqrt", {0, 1}},
        {"Reciprocal", {0, 1}},
        {"Sin", {0, 1}},
        {"Cos", {0, 1}},
        {"Softplus", {1, 2}}, // log(1 + exp(x))
        {"Softsign", {2, 1}}, // x / (1 + |x|)
        {"Elu", {3, 1}},      // select(x > 0, x, alpha (exp(x) - 1))
        {"Selu", {4, 1}},
        {"Celu", {4, 1}},
        {"Gelu", {4, 1}},       // x/2 (1 + erf(x / sqrt 2)) (opset 20)
        {"Mish", {2, 3}},       // x tanh(softplus(x))
        {"Softmax", {4, 1}},    // max, subtract, sum, scale; exp
        {"LogSoftmax", {4, 2}}, // as softmax, and a log
        {"ReduceMean", {1, 0}},
        {"ReduceSum", {1, 0}},
        {"ReduceMax", {1, 0}},
        {"ReduceMin", {1, 0}},
        {"ReduceProd", {1, 0}},
        {"ReduceL2", {2, 0}},
        {"ReduceSumSquare", {2, 0}},
        {"ReduceLogSumExp", {2, 1}},
        {"ArgMax", {1, 0}},
        {"ArgMin", {1, 0}},
        {"Cast", {1, 0}},
    };
    const auto it = costs.find(opType);
    return it == costs.end() ? nullptr : &it->second;
}

bool movesData(const std::string& opType) {
    static const std::unordered_set<std::string> ops = {
        "Transpose",       "Concat",   "Slice",        "Split",
        "Expand",          "Tile",     "Pad",          "Gather",
        "GatherElements",  "GatherND", "ScatterND",    "ScatterElements",
        "Resize",          "Upsample", "DepthToSpace", "SpaceToDepth",
        "ReverseSequence", "Trilu",    "CumSum"};
    return ops.count(opType) > 0;
}

bool isView(const std::string& opType) {
    static const std::unordered_set<std::string> ops = {"Reshape",   "Flatten",  "Squeeze",
                                                        "Unsqueeze", "Identity", "Dropout"};
    return ops.count(opType) > 0;
}

bool isReduction(const std::string& opType) {
    return opType.rfind("Reduce", 0) == 0 || opType == "ArgMax" || opType == "ArgMin";
}

} // namespace podscope
