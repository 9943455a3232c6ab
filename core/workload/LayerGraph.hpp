#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {

// One layer of a workload as the reference code writes it (docs/training-model.md, "Layer
// graphs"). Counts are per example; the per-core batch multiplies them when the layer is lowered.
enum class LayerType {
    Conv,
    Dense,
    Attention,
    Recurrent,
    Embedding,
    Norm,
    Pool,
    Elementwise,
    Loss,
    CropResize,
    Sort,
    Relayout,
    Reduce
};
enum class Activation { None, Relu, Gelu, Tanh };
enum class BatchNormKind { None, Batch, Frozen };
// What a Megatron-style tensor split does with the layer.
enum class TensorSplit { None, Column, Row, Vocab };
// What spatial partitioning does with the layer: split its feature map, split its RoIs, or run it
// whole on every partition.
enum class SpatialRole { Split, Replicated, Rois };

struct Layer {
    std::string name;
    std::string group;
    LayerType type = LayerType::Elementwise;
    // conv: output map h x w, `count` maps per example (RoIs), kernel k x k.
    double h = 0, w = 0, cin = 0, cout = 0, count = 1;
    int k = 1, stride = 1;
    bool fold = false; // the window folded into the contraction (space-to-depth stems)
    BatchNormKind batchNorm = BatchNormKind::None;
    Activation activation = Activation::None;
    bool residual = false;
    bool bias = false;
    // dense: rows x in -> rows x out; recurrent: in = per-step input beside h.
    double rows = 0, in = 0, out = 0;
    // attention: heads of dim, q queries against kv keys.
    double heads = 0, q = 0, kv = 0, dim = 0;
    // recurrent: steps of one [b, in + hidden] x [in + hidden, gates x hidden] matmul.
    double steps = 0, hidden = 0, gates = 0;
    // Bias vectors of gates x hidden: 1 (one per gate, as GNMT's), 2 (the input's and the
    // state's: ONNX, torch, cuDNN) or 0.
    double biases = 1;
    // embedding: vocab x dim table, rows lookups (dim also serves norm); `streamed` when the
    // code reads the rows in order (a position table's slice, a one-hot product) rather than
    // gathering them by index.
    double vocab = 0;
    bool streamed = false;
    // elementwise: elements, vector ops and transcendentals per element, HBM passes; `count`
    // such kernels per step (a loop's iterations) of `elementBytes` per element (0: the
    // activations').
    double elements = 0, ops = 0, eup = 0, passes = 0;
    bool backward = true;
    // crop_resize (RoIAlign on one feature level): the map h x w with cin channels, `rows` RoIs
    // per example, each resampled to k x k cells from `samples` x `samples` points per cell.
    double samples = 1;
    // sort (a top-k as XLA runs it): `rows` rows per example of `length` elements each, and
    // `arrays` arrays sorted together (keys and their indices) of `element_bytes` in all.
    double length = 0, arrays = 2, elementBytes = 8;
    // relayout (a copy or reshape that changes an array's HBM layout, as XLA emits them): the
    // source and destination arrays, each [batch, dims...] with its minor-to-major axis order
    // (XLA's `{2,1,0}`, axis 0 the batch); `transposed` when the lanes' elements change (the copy
    // goes through the transpose path), else rows are regrouped and stream. `elementBytes`
    // serves it; it runs in the forward pass, the backward pass (on a gradient) or both.
    // reduce (a reduction as XLA emits it, or a loop fusion that shrinks its operand): the
    // operand `from` and the result `to` as above, `count` such kernels per step (a loop's
    // iterations, each over the whole batch).
    std::vector<double> fromDims, toDims;
    std::vector<int> fromOrder, toOrder;
    bool transposed = false;
    bool forward = true;
    double classes = 0; // loss
    bool rms = false;   // norm: RMSNorm (a scale, no shift) rather than LayerNorm
    TensorSplit split = TensorSplit::None;
    SpatialRole spatial = SpatialRole::Replicated;
    int tiedTo = -1; // index of the layer whose weights this one shares

    // Weights this layer owns (0 when tied), and forward multiply-accumulates per example.
    double parameters() const;
    double forwardMacs() const;
    bool hasWeights() const { return parameters() > 0 || tiedTo >= 0; }
};

struct ShapeVariable {
    double value = 0;
    double min = 1, max = 1e9;
    std::string source;
    // A length that varies step by step (GNMT's length buckets): each value and the share of
    // steps it takes. The variable's value is then their share-weighted mean, to the whole token.
    std::vector<double> bucketValues;
    std::vector<double> bucketShares;
};

// A workload's layers with its shape variables bound to numbers.
struct LayerGraph {
    std::string source;
    std::vector<Layer> layers;
    std::map<std::string, double> variables;

    double parameters() const;
    double forwardMacsPerExample() const;
};

// The "graph" object of a workload file, before its shape variables are bound.
struct LayerGraphSpec {
    std::string file; // the document, as errors name it
    std::string source;
    std::string sequenceVariable; // the variable a scenario's sequence_length sets ("" if none)
    std::map<std::string, ShapeVariable> variables;
    nlohmann::json layers;
};

// Parses the graph of a workload file; a defect is an InputError naming the file, the layer
// (name and index) and the field.
LayerGraphSpec parseLayerGraphSpec(const nlohmann::json& graph, const std::string& file);

// Binds the variables (defaults, replaced by `overrides`) and builds the layers. Throws
// InputError naming `field` when an override is out of the variable's range.
LayerGraph bindLayerGraph(const LayerGraphSpec& spec,
                          const std::map<std::string, double>& overrides,
                          const std::string& field = "sequence_length");

std::string toString(LayerType type);

} // namespace podscope
