#include "import/OnnxModel.hpp"

#include "common/InputError.hpp"
#include "import/OnnxAttributeCheck.hpp"
#include "import/OnnxInferenceGuard.hpp"
#include "import/OnnxShapeFolding.hpp"
#include "import/OnnxShapes.hpp"

#include <climits>
#include <functional>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <queue>
#include <unordered_map>

namespace podscope {
namespace {

[[noreturn]] void fail(const std::string& file, const std::string& problem) {
    throw InputError("workload", file + ": " + problem);
}

std::string describe(const onnx::NodeProto& node) {
    return "node '" +
           (node.name().empty() ? node.output_size() ? node.output(0) : std::string("?")
                                : node.name()) +
           "' (" + node.op_type() + ")";
}

int defaultOpset(const onnx::ModelProto& m, const std::string& file) {
    for (const auto& o : m.opset_import()) {
        if (o.domain().empty() || o.domain() == "ai.onnx") {
            const auto v = o.version();
            if (v < kMinOpset || v > kMaxOpset) {
                fail(file, "uses ONNX opset " + std::to_string(v) + "; PodScope reads opsets " +
                               std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
                               " (re-export with opset_version in that range)");
            }
            return static_cast<int>(v);
        }
    }
    fail(file, "declares no opset of the ONNX domain (opset_import is empty: truncated or not "
               "an ONNX model)");
}

// Puts the nodes in dependency order; a node reading a tensor nothing provides, a tensor
// written twice and a cycle are errors.
void sortNodes(onnx::GraphProto& g, const std::string& file) {
    std::unordered_map<std::string, int> producer;
    std::unordered_set<std::string> provided;
    for (const auto& v : g.input()) {
        provided.insert(v.name());
    }
    for (const auto& t : g.initializer()) {
        provided.insert(t.name());
    }
    const int n = g.node_size();
    for (int i = 0; i < n; ++i) {
        for (const auto& out : g.node(i).output()) {
            if (out.empty()) {
                continue;
            }
            if (producer.count(out) || provided.count(out)) {
                fail(file, describe(g.node(i)) + " writes '" + out +
                               "', which another node, input or initializer also provides");
            }
            producer[out] = i;
        }
    }
    std::vector<int> pending(static_cast<std::size_t>(n), 0);
    std::vector<std::vector<int>> users(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        for (const auto& in : g.node(i).input()) {
            if (in.empty() || provided.count(in)) {
                continue;
            }
            const auto it = producer.find(in);
            if (it == producer.end()) {
                fail(file, describe(g.node(i)) + " reads '" + in +
                               "', which no node, input or initializer provides (a truncated or "
                               "edited file?)");
            }
            ++pending[static_cast<std::size_t>(i)];
            users[static_cast<std::size_t>(it->second)].push_back(i);
        }
    }
    // The file's order where it allows (ONNX files are sorted already): a heap of ready nodes.
    std::vector<int> order;
    order.reserve(static_cast<std::size_t>(n));
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < n; ++i) {
        if (pending[static_cast<std::size_t>(i)] == 0) {
            ready.push(i);
        }
    }
    while (!ready.empty()) {
        const int next = ready.top();
        ready.pop();
        order.push_back(next);
        for (const int u : users[static_cast<std::size_t>(next)]) {
            if (--pending[static_cast<std::size_t>(u)] == 0) {
                ready.push(u);
            }
        }
    }
    if (static_cast<int>(order.size()) != n) {
        for (int i = 0; i < n; ++i) {
            if (pending[static_cast<std::size_t>(i)] > 0) {
                fail(file, "the graph has a cycle: " + describe(g.node(i)) +
                               " depends on its own output");
            }
        }
    }
    google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
    for (const int i : order) {
        *sorted.Add() = g.node(i);
    }
    g.mutable_node()->Swap(&sorted);
}

// The batch axis of the first input: its one symbolic dimension where the first is fixed
// ([sequence, batch, features], torch's recurrent layout exported with a dynamic axis 1), else
// the first.
int batchAxis(const onnx::TensorShapeProto& shape) {
    if (!shape.dim(0).has_dim_value()) {
        return 0;
    }
    int symbolic = -1;
    for (int d = 1; d < shape.dim_size(); ++d) {
        if (!shape.dim(d).has_dim_value()) {
            if (symbolic >= 0) {
                return 0; // two: which is the batch is not for PodScope to guess
            }
            symbolic = d;
        }
    }
    return symbolic >= 0 ? symbolic : 0;
}

// Binds the batch: a dimension of the first input that is not an initializer (batchAxis). A
// symbolic batch becomes 1 (layers are per example); every other dimension must be fixed.
void bindBatch(OnnxModel& m, const std::string& file) {
    auto& g = *m.proto.mutable_graph();
    std::vector<onnx::ValueInfoProto*> data;
    for (auto& v : *g.mutable_input()) {
        if (!m.weights.count(v.name())) {
            data.push_back(&v);
        }
    }
    if (data.empty()) {
        fail(file, "the graph has no input besides its weights: no batch dimension to read");
    }
    onnx::ValueInfoProto& first = *data.front();
    m.batchInput = first.name();
    if (!first.type().has_tensor_type() || !first.type().tensor_type().has_shape()) {
        fail(file, "input '" + first.name() +
                       "' has no shape: no batch dimension (export with the input's shape)");
    }
    auto& firstShape = *first.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (firstShape.dim_size() == 0) {
        fail(file, "input '" + first.name() +
                       "' is a scalar: no batch dimension (the first dimension of the first "
                       "input is the batch)");
    }
    m.batchAxis = batchAxis(firstShape);
    auto& batchDim = *firstShape.mutable_dim(m.batchAxis);
    if (batchDim.has_dim_value()) {
        if (batchDim.dim_value() < 1) {
            fail(file, "input '" + first.name() + "' has a batch dimension of " +
                           std::to_string(batchDim.dim_value()));
        }
        m.batch = static_cast<double>(batchDim.dim_value());
    } else {
        m.batchSymbol = batchDim.has_dim_param() ? batchDim.dim_param() : "";
        batchDim.set_dim_value(1);
    }
    const auto bind = [&](onnx::ValueInfoProto& v, bool isInput) {
        if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) {
            return;
        }
        auto& shape = *v.mutable_type()->mutable_tensor_type()->mutable_shape();
        for (int d = 0; d < shape.dim_size(); ++d) {
            auto& dim = *shape.mutable_dim(d);
            if (dim.has_dim_value()) {
                continue;
            }
            const bool isBatch =
                !m.batchSymbol.empty() && dim.has_dim_param() && dim.dim_param() == m.batchSymbol;
            if (isBatch || (d == m.batchAxis && isInput)) {
                dim.set_dim_value(1);
            } else if (isInput) {
                fail(file, "input '" + v.name() + "' dimension " + std::to_string(d) + " ('" +
                               dim.dim_param() +
                               "') is symbolic: only the batch may be (the first dimension, or "
                               "the one symbolic dimension of the first input); export with "
                               "fixed sizes for the others");
            }
        }
    };
    for (onnx::ValueInfoProto* v : data) {
        const auto& shape = v->type().tensor_type().shape();
        const bool sharesBatch =
            v == &first || m.batchSymbol.empty() ||
            (shape.dim_size() > m.batchAxis && shape.dim(m.batchAxis).has_dim_param() &&
             shape.dim(m.batchAxis).dim_param() == m.batchSymbol);
        if (sharesBatch) {
            m.dataInputs.insert(v->name());
            bind(*v, true);
        }
    }
    for (auto& v : *g.mutable_output()) {
        bind(v, false);
    }
    for (auto& v : *g.mutable_value_info()) {
        bind(v, false);
    }
}

void inferShapes(OnnxModel& m, const std::string& file) {
    // Node-level inference errors leave that node's shapes unknown (error_mode 0); data
    // propagation carries shape arithmetic through Shape, Gather, Concat and the like.
    const onnx::ShapeInferenceOptions options(false, 0, true);
    const auto infer = [&](const onnx::ShapeInferenceOptions& o) {
        try {
            onnx::shape_inference::InferShapes(m.proto, onnx::OpSchemaRegistry::Instance(), o);
        } catch (const std::exception& e) {
            fail(file, std::string("shape inference failed: ") + e.what());
        }
    };
    // Types first, without data propagation (which some operators run unchecked on inputs of no
    // type): the guard then holds back what would crash it.
    OnnxInferenceGuard guard(*m.proto.mutable_graph(), file);
    guard.update();
    infer(onnx::ShapeInferenceOptions(false, 0, false));
    guard.update();
    // Each round folds what the last one made known; a chain of reshapes needs a few.
    constexpr int kMaxRounds = 64;
    for (int round = 0; round < kMaxRounds; ++round) {
        infer(options);
        const bool folded = foldShapeComputations(*m.proto.mutable_graph(), file);
        const bool released = guard.update();
        if (!folded && !released) {
            break;
        }
    }
    guard.releaseAll();
}

} // namespace

OnnxModel prepareOnnxModel(const std::string& bytes, const std::string& file) {
    if (bytes.empty()) {
        fail(file, "the file is empty");
    }
    if (static_cast<double>(bytes.size()) > kMaxModelBytes) {
        fail(file, "the file is over 2 GiB, more than one protobuf message can hold: export the "
                   "weights as external data (PodScope needs the shapes only)");
    }
    OnnxModel m;
    if (!m.proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
        fail(file, "not an ONNX model: the protobuf does not parse (truncated or another format)");
    }
    if (!m.proto.has_graph()) {
        fail(file, "the model has no graph (truncated, or not an ONNX model)");
    }
    if (m.proto.ir_version() < 3) {
        fail(file, "IR version " + std::to_string(m.proto.ir_version()) +
                       ": not an ONNX model PodScope reads (IR 3 and later; truncated file?)");
    }
    m.opset = defaultOpset(m.proto, file);
    auto& g = *m.proto.mutable_graph();
    if (g.node_size() == 0) {
        fail(file, "the graph has no operators");
    }
    for (const auto& t : g.initializer()) {
        m.weights.insert(t.name());
    }
    sortNodes(g, file);
    bindBatch(m, file);
    // Absurd declared shapes fail before inference multiplies them.
    [[maybe_unused]] const TensorShapes declared(g, file);
    checkWindowAttributes(g, file);
    inferShapes(m, file);
    return m;
}

} // namespace podscope
