#include "compute/LayerCost.hpp"

#include "compute/LoweringRules.hpp"
#include "compute/TiledLayout.hpp"

#include <algorithm>
#include <cmath>

namespace podscope {
namespace {

double activationOps(Activation a, const LoweringRules& r) {
    switch (a) {
    case Activation::Relu:
        return r.relu;
    case Activation::Gelu:
        return r.gelu;
    case Activation::Tanh:
    case Activation::None:
        return 0;
    }
    return 0;
}

double activationBackwardOps(Activation a, const LoweringRules& r) {
    switch (a) {
    case Activation::Relu:
        return r.reluBackward;
    case Activation::Gelu:
        return r.geluBackward;
    case Activation::Tanh:
        return r.tanhBackward;
    case Activation::None:
        return 0;
    }
    return 0;
}

// GELU (tanh form) and tanh take one transcendental per element.
double activationTranscendentals(Activation a) {
    return a == Activation::Gelu || a == Activation::Tanh ? 1 : 0;
}

KernelWork matmul(double p, double r, double q, double instances, const CoreModel& core) {
    KernelWork k;
    k.mxuCycles = instances * matmulCycles(p, r, q, core);
    k.flops = 2 * instances * p * r * q;
    k.launches = 1;
    return k;
}

KernelWork vectorKernel(double bytes, double vpu, double eup) {
    KernelWork k;
    k.hbmBytes = bytes;
    k.vpuOps = vpu;
    k.eupOps = eup;
    k.launches = 1;
    return k;
}

// Rows of a feature map (h x w, `count` maps per example) that one core computes.
double mapRowsOnCore(const Layer& l, double h, double w, const LayerSplit& s) {
    if (s.kind != ModelParallelKind::Spatial) {
        return l.count * h * w;
    }
    switch (l.spatial) {
    case SpatialRole::Split:
        return l.count * std::ceil(h / s.gridRows) * std::ceil(w / s.gridCols);
    case SpatialRole::Rois:
        return std::ceil(l.count / s.degree) * h * w;
    case SpatialRole::Replicated:
        return l.count * h * w;
    }
    return l.count * h * w;
}

// The share of `perExample` items one core handles under a spatial split (non-map layers).
double itemsOnCore(const Layer& l, double perExample, const LayerSplit& s) {
    if (s.kind != ModelParallelKind::Spatial || l.spatial == SpatialRole::Replicated) {
        return perExample;
    }
    return std::ceil(perExample / s.degree);
}

// The fraction of a weight matrix dimension a core holds under a tensor split.
double tensorShare(const LayerSplit& s) {
    return s.kind == ModelParallelKind::Tensor ? 1.0 / s.degree : 1.0;
}

void lowerConvOrPool(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                     bool inputGradient, LayerCost& c) {
    const LoweringRules& r = loweringRules();
    const double a = r.activationBytes;
    const double inH = l.h * l.stride, inW = l.w * l.stride;
    const double rows = b * mapRowsOnCore(l, l.h, l.w, s);
    const double inRows = b * mapRowsOnCore(l, inH, inW, s);
    // HBM holds the maps in padded tiles and the vector unit works on whole tiles: bytes and
    // elementwise work count the padding, the MXU's rows and columns do not (matmulCycles pads).
    const double mapsOnCore = b * mapRowsOnCore(l, 1, 1, s);
    const double inPadding = mapPadding(mapsOnCore, l.cin, core);
    const double outPadding = mapPadding(mapsOnCore, l.cout, core);
    const double inBytes = inRows * l.cin * a * inPadding;
    const double outBytes = rows * l.cout * a * outPadding;
    const double outElements = rows * l.cout;
    const double outVectorElements = outElements * outPadding;
    c.workspaceBytes = inBytes + outBytes;
    if (s.kind == ModelParallelKind::Spatial && l.spatial == SpatialRole::Split && l.k > 1 &&
        s.gridRows > 1) {
        // A k-row window centred on a partition's border reads (k-1)/2 rows of the neighbour on
        // each side. XLA pads the map to a whole number of rows per partition, so a partition
        // that holds fewer rows than the halo still receives (k-1)/2 rows per side, gathered from
        // the partitions beyond its neighbour: the bytes per border do not fall with the degree.
        const double halo = std::floor((l.k - 1) / 2.0);
        c.haloBytes[0] = b * l.count * l.cin * a * halo * std::ceil(inW / s.gridCols);
    }
    if (l.type == LayerType::Pool) {
        const double window = static_cast<double>(l.k) * l.k;
        c.forward.add(vectorKernel(inBytes + outBytes, window * outVectorElements, 0), core);
        // XLA's select-and-scatter: the input-sized gradient zeroed, the saved input read to
        // select each window's maximum, the output gradient read and scatter-added into the
        // input gradient (read and written where windows overlap): four input-sized passes.
        c.backward.add(
            vectorKernel(outBytes + 4 * inBytes, r.poolBackward * window * outVectorElements, 0),
            core);
        c.savedBytes = inBytes;
        c.savedInputBytes = inBytes;
        return;
    }
    // The window folds into the contraction (XLA's TPU convolution emitter packs the k x k taps
    // with the input features): one matmul [rows, k k cin] x [k k cin, cout], padded to the
    // tile as a whole.
    const double k = l.cin * l.k * l.k;
    const double n = l.cout;
    const double weightElements = k * n;
    c.parameters = l.parameters();
    const bool batchNorm = l.batchNorm == BatchNormKind::Batch;

    KernelWork fwd = matmul(rows, k, n, 1, core);
    double epilogue =
        (l.bias ? r.bias : 0) + activationOps(l.activation, r) + (l.residual ? r.residual : 0);
    if (l.batchNorm != BatchNormKind::None) {
        epilogue += r.batchNormApply;
    }
    fwd.hbmBytes = inBytes + weightElements * r.weightBytes + outBytes * (l.residual ? 2 : 1);
    fwd.vpuOps = epilogue * outVectorElements;
    c.forward.add(fwd, core);
    if (batchNorm) {
        // Batch statistics need the whole output before it can be normalised: one more pass.
        c.forward.add(vectorKernel(outBytes, r.batchNormStats * outVectorElements, 0), core);
        c.backward.add(vectorKernel(2 * outBytes, r.batchNormBackwardStats * outVectorElements, 0),
                       core);
        c.batchNormChannels = l.cout;
    }
    const bool keepsOutput = l.batchNorm != BatchNormKind::None || l.activation != Activation::None;
    if (inputGradient) {
        // The input gradient is the transposed convolution: the same contraction over the
        // folded window of the output channels.
        KernelWork dx = matmul(rows, l.k * l.k * n, l.cin, 1, core);
        dx.hbmBytes = outBytes * (keepsOutput ? 2 : 1) + weightElements * r.weightBytes + inBytes;
        dx.vpuOps = outVectorElements * (activationBackwardOps(l.activation, r) +
                                         (batchNorm ? r.batchNormBackwardApply : 0));
        c.backward.add(dx, core);
    }
    KernelWork dw = matmul(k, rows, n, 1, core);
    dw.hbmBytes = inBytes + outBytes + weightElements * r.weightGradientBytes;
    c.backward.add(dw, core);
    c.savedBytes = inBytes + (keepsOutput ? outBytes : 0);
    c.savedInputBytes = inBytes;
}

void lowerDense(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                bool inputGradient, LayerCost& c) {
    const LoweringRules& r = loweringRules();
    const double a = r.activationBytes;
    const double p = b * itemsOnCore(l, l.rows, s);
    double k = l.in, n = l.out;
    const double share = tensorShare(s);
    if (l.split == TensorSplit::Column || l.split == TensorSplit::Vocab) {
        n *= share;
    } else if (l.split == TensorSplit::Row) {
        k *= share;
    }
    const double outElements = p * n;
    const double ownWeights = l.tiedTo >= 0 ? 0 : k * n;
    c.parameters = ownWeights + (l.bias ? (l.split == TensorSplit::Row ? l.out : n) : 0);
    c.workspaceBytes = (p * k + p * n) * a;

    KernelWork fwd = matmul(p, k, n, 1, core);
    fwd.hbmBytes = (p * k + k * n * r.weightBytes / a + outElements * (l.residual ? 2 : 1)) * a;
    fwd.vpuOps = outElements * ((l.bias ? r.bias : 0) + activationOps(l.activation, r) +
                                (l.residual ? r.residual : 0));
    fwd.eupOps = outElements * activationTranscendentals(l.activation);
    c.forward.add(fwd, core);
    const bool keepsOutput = l.activation != Activation::None;
    if (inputGradient) {
        KernelWork dx = matmul(p, n, k, 1, core);
        dx.hbmBytes = (outElements * (keepsOutput ? 2 : 1) + p * k) * a + k * n * r.weightBytes;
        dx.vpuOps = outElements * activationBackwardOps(l.activation, r);
        c.backward.add(dx, core);
    }
    KernelWork dw = matmul(k, p, n, 1, core);
    dw.hbmBytes = (p * k + outElements) * a + k * n * r.weightGradientBytes;
    c.backward.add(dw, core);
    c.savedBytes = p * k * a + (keepsOutput ? outElements * a : 0);
    c.savedInputBytes = p * k * a;
    if (s.kind == ModelParallelKind::Tensor) {
        // Megatron: a row-split layer sums its partial outputs, a column-split (or vocabulary-
        // split) layer sums the partial gradients of its input.
        if (l.split == TensorSplit::Row) {
            c.tensorAllReduceForward = p * l.out * a;
        } else if (l.split == TensorSplit::Column || l.split == TensorSplit::Vocab) {
            c.tensorAllReduceBackward = p * l.in * a;
        }
    }
}

void lowerAttention(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                    LayerCost& c) {
    const LoweringRules& r = loweringRules();
    const double a = r.activationBytes;
    const double heads = s.kind == ModelParallelKind::Tensor ? l.heads / s.degree : l.heads;
    const double inst = b * heads;
    const double q = l.q, kv = l.kv, d = l.dim;
    const double scores = inst * q * kv;
    auto mm = [&](double p, double rr, double qq, double bytes) {
        KernelWork k = matmul(p, rr, qq, inst, core);
        k.hbmBytes = bytes * a;
        return k;
    };
    c.forward.add(mm(q, d, kv, inst * (q * d + kv * d + q * kv)), core);
    c.forward.add(vectorKernel(2 * scores * a, r.softmax * scores, scores), core);
    c.forward.add(mm(q, kv, d, inst * (q * kv + kv * d + q * d)), core);
    const double eachBackward = inst * (q * kv + q * d + kv * d);
    c.backward.add(mm(q, d, kv, eachBackward), core); // d probabilities
    c.backward.add(mm(kv, q, d, eachBackward), core); // d values
    c.backward.add(vectorKernel(3 * scores * a, r.softmaxBackward * scores, 0), core);
    c.backward.add(mm(q, kv, d, eachBackward), core); // d queries
    c.backward.add(mm(kv, q, d, eachBackward), core); // d keys
    c.savedBytes = (inst * (q * d + 2 * kv * d) + scores) * a;
    c.savedInputBytes = inst * (q * d + 2 * kv * d) * a; // queries, keys and values
    c.workspaceBytes = (inst * (q * d + kv * d) + scores) * a;
}

// A sort as XLA's TPU emitter runs it (google/paragraph's profiles: every TopKV2 is a sort of the
// keys with an iota of indices): a bitonic network over each row padded to a power of two, whose
// log2 N (log2 N + 1) / 2 compare-exchange passes each move every element of every array across
// lanes through the permute unit; the rows pad to the sublanes. A tile of rows sorts in VMEM, so
// HBM sees the arrays once in and once out. The indices take no gradient.
void lowerSort(const Layer& l, double rows, const CoreModel& core, LayerCost& c) {
    const double granule = core.rowGranule;
    const double paddedRows = granule * std::ceil(rows / granule);
    const double stages = std::ceil(std::log2(std::max(l.length, 2.0)));
    const double passes = stages * (stages + 1) / 2;
    const double elementPasses = paddedRows * std::exp2(stages) * passes;
    KernelWork w;
    w.permuteElements = elementPasses * l.arrays;
    w.vpuOps = elementPasses * (l.arrays + 0.5); // a compare per pair, a select per array
    w.hbmBytes = 2 * rows * l.length * l.elementBytes;
    w.launches = 1;
    c.forward.add(w, core);
    c.workspaceBytes = paddedRows * std::exp2(stages) * l.elementBytes;
}

// The padded elements of a relayout's or a reduction's source and destination on this core:
// each array [batch, dims...]; spatial partitions split the first axis after the batch.
struct TiledPair {
    double from = 0, to = 0;
};
TiledPair tiledOnCore(const Layer& l, double b, const LayerSplit& s, const CoreModel& core) {
    const auto onCore = [&](std::vector<double> dims) {
        dims.front() = itemsOnCore(l, dims.front(), s);
        dims.insert(dims.begin(), b);
        return dims;
    };
    return {tiledArrayElements(onCore(l.fromDims), l.fromOrder, core),
            tiledArrayElements(onCore(l.toDims), l.toOrder, core)};
}

// Adds one pass's kernels to the passes the layer runs in (a gradient's, as many bytes).
void addToPasses(const Layer& l, const KernelWork& w, const CoreModel& core, LayerCost& c) {
    if (l.forward) {
        c.forward.add(w, core);
    }
    if (l.backward) {
        c.backward.add(w, core);
    }
}

// A relayout as XLA emits it (a copy, or a reshape that re-tiles): one kernel reads the source
// in its padded tiles and writes the destination in its own; a copy that changes which axis is
// on the lanes moves elements between lanes and sublanes, at the machine's transposing rate
// (docs/training-model.md section 3, rule 13).
void lowerRelayout(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                   LayerCost& c) {
    const TiledPair t = tiledOnCore(l, b, s, core);
    KernelWork w;
    w.hbmBytes = (t.from + t.to) * l.elementBytes;
    w.transposeBytes = l.transposed ? w.hbmBytes : 0;
    w.launches = 1;
    addToPasses(l, w, core, c);
    c.workspaceBytes = t.to * l.elementBytes;
}

// A reduction as XLA emits it (a reduce, or a loop fusion that shrinks its operand): each of
// `count` kernels reads the operand in its padded tiles, adds on the vector units and writes the
// result in its own tiles, so a small minor dimension costs the lanes it pads (rule 14).
void lowerReduce(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                 LayerCost& c) {
    const TiledPair t = tiledOnCore(l, b, s, core);
    KernelWork w;
    w.hbmBytes = l.count * (t.from + t.to) * l.elementBytes;
    w.vpuOps = l.count * t.from;
    w.launches = l.count;
    addToPasses(l, w, core, c);
    c.workspaceBytes = t.to * l.elementBytes;
}

void lowerRecurrent(const Layer& l, double b, const CoreModel& core, LayerCost& c) {
    const LoweringRules& r = loweringRules();
    const double a = r.activationBytes;
    const double k = l.in + l.hidden, n = l.gates * l.hidden;
    const double steps = l.steps;
    const double weightBytes = k * n * r.weightBytes;
    // A matrix that stays in VMEM is read from HBM once per pass, else once per time step.
    const bool resident = weightBytes <= r.vmemResidentFraction * core.vmemBytes;
    const double weightReads = resident ? 1 : steps;
    c.parameters = l.parameters();

    KernelWork step = matmul(b, k, n, 1, core);
    KernelWork fwd;
    fwd.mxuCycles = steps * step.mxuCycles;
    fwd.flops = steps * step.flops;
    fwd.hbmBytes = weightReads * weightBytes + steps * b * (k + n + 2 * l.hidden) * a;
    fwd.vpuOps = steps * b * l.hidden * r.lstmGates;
    fwd.eupOps = steps * b * l.hidden * r.lstmGatesTranscendentals;
    fwd.launches = steps; // each step waits for the previous one
    c.forward.add(fwd, core);

    KernelWork back = matmul(b, n, k, 1, core);
    KernelWork bwd;
    bwd.mxuCycles = steps * back.mxuCycles;
    bwd.flops = steps * back.flops;
    bwd.hbmBytes = weightReads * weightBytes + steps * b * (2 * n + k + 2 * l.hidden) * a;
    bwd.vpuOps = steps * b * l.hidden * r.lstmGatesBackward;
    bwd.launches = steps;
    c.backward.add(bwd, core);
    // The weight gradient is one matmul over all steps after the loop.
    KernelWork dw = matmul(k, steps * b, n, 1, core);
    dw.hbmBytes = steps * b * (k + n) * a + k * n * r.weightGradientBytes;
    c.backward.add(dw, core);
    c.savedBytes = steps * b * (n + 2 * l.hidden) * a; // gates and states, not the input
    c.workspaceBytes = weightBytes + b * (k + n) * a;
}

// RoIAlign on one feature level as the TPU reference code runs it (Mask R-CNN's
// multilevel_crop_and_resize, two_step_gather_per_level): the bilinear sampling weights of each
// RoI's output rows and columns as one-hot rows over the map's rows and columns, and two einsums
// in place of gathers. 'bhwf,bnyh->bnywf' contracts the map's rows, [rois x k, h] x [h, w c] per
// image, into an intermediate of k rows x the whole width per RoI; 'bnywf,bnxw->bnyxf' contracts
// the width, [k, w] x [w, c] per RoI and output row, and adds the level's share (masked by the
// RoI's level) into the output. Every RoI is computed on every level, so the work is dense in the
// map's size. The boxes carry no gradient: the backward pass is the two transposed einsums that
// take the output gradient back to the map.
void lowerCropResize(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                     LayerCost& c) {
    const LoweringRules& r = loweringRules();
    const double a = r.activationBytes;
    const double rois = itemsOnCore(l, l.rows, s);
    const double cells = l.k, h = l.h, w = l.w, ch = l.cin;
    const double mapBytes = b * h * w * ch * a;
    const double middleBytes = b * rois * cells * w * ch * a; // [b, rois, k, w, c]
    const double outElements = b * rois * cells * cells * ch;
    const double weightElements = b * rois * cells * (h + w);
    // Each weight sums 2 x samples bilinear neighbours: a compare, a select and a multiply-add.
    const double neighbours = 2 * l.samples;
    c.forward.add(vectorKernel(weightElements * a, 3 * neighbours * weightElements, 0), core);
    KernelWork rowsPass = matmul(rois * cells, h, w * ch, b, core);
    rowsPass.hbmBytes = mapBytes + b * rois * cells * h * a + middleBytes;
    c.forward.add(rowsPass, core);
    KernelWork columnsPass = matmul(cells, w, ch, b * rois * cells, core);
    // The level mask and the sum over levels fuse into the epilogue: the output read and written.
    columnsPass.hbmBytes = middleBytes + b * rois * cells * w * a + 2 * outElements * a;
    columnsPass.vpuOps = 2 * outElements;
    c.forward.add(columnsPass, core);

    KernelWork columnsBack = matmul(w, cells, ch, b * rois * cells, core);
    columnsBack.hbmBytes = outElements * a + b * rois * cells * w * a + middleBytes;
    c.backward.add(columnsBack, core);
    KernelWork rowsBack = matmul(h, rois * cells, w * ch, b, core);
    // The map's gradient adds to what its other consumers sent back: read and written.
    rowsBack.hbmBytes = middleBytes + b * rois * cells * h * a + 2 * mapBytes;
    c.backward.add(rowsBack, core);
    c.savedBytes = weightElements * a; // the einsums are linear in the map: only the weights
    c.workspaceBytes = mapBytes + middleBytes;
}

} // namespace

LayerSplit layerSplit(ModelParallelKind kind, int degree, int coresPerChip) {
    LayerSplit s;
    s.kind = degree > 1 ? kind : ModelParallelKind::None;
    s.degree = degree;
    (void)coresPerChip;
    if (s.kind == ModelParallelKind::Spatial) {
        // Google's runs split the height only (input_partition_dims 1,8).
        s.gridRows = degree;
        s.gridCols = 1;
    }
    return s;
}

void PassCost::add(const KernelWork& kernel, const CoreModel& core) {
    const KernelTime t = kernelTime(kernel, core);
    work += kernel;
    seconds += t.seconds;
    secondsByUnit[static_cast<std::size_t>(t.bound)] += t.seconds;
    if (kernel.flops < core.rooflineRidgeFlopPerByte * kernel.hbmBytes) {
        belowRidgeS += t.seconds;
    }
}

CoreUnit PassCost::bound() const {
    const auto it = std::max_element(secondsByUnit.begin(), secondsByUnit.end());
    return static_cast<CoreUnit>(it - secondsByUnit.begin());
}

LayerCost lowerLayer(const Layer& l, double b, const LayerSplit& s, const CoreModel& core,
                     bool inputGradient) {
    const LoweringRules& r = loweringRules();
    const double a = r.activationBytes;
    LayerCost c;
    switch (l.type) {
    case LayerType::Conv:
    case LayerType::Pool:
        lowerConvOrPool(l, b, s, core, inputGradient, c);
        break;
    case LayerType::Dense:
        lowerDense(l, b, s, core, inputGradient, c);
        break;
    case LayerType::Attention:
        lowerAttention(l, b, s, core, c);
        break;
    case LayerType::Recurrent:
        lowerRecurrent(l, b, core, c);
        break;
    case LayerType::CropResize:
        lowerCropResize(l, b, s, core, c);
        break;
    case LayerType::Sort:
        lowerSort(l, b * itemsOnCore(l, l.rows, s), core, c);
        break;
    case LayerType::Relayout:
        lowerRelayout(l, b, s, core, c);
        break;
    case LayerType::Reduce:
        lowerReduce(l, b, s, core, c);
        break;
    case LayerType::Embedding: {
        const double rows = b * l.rows;
        const double share = l.split == TensorSplit::Vocab ? tensorShare(s) : 1.0;
        c.parameters = l.parameters() * share;
        const double bytes = rows * l.dim * a;
        const double gradientRowBytes = 2 * rows * l.dim * r.weightGradientBytes;
        KernelWork lookup = vectorKernel(2 * bytes, rows * l.dim, 0);
        // Scatter-add into the fp32 table gradient (zeroed first).
        const double table = l.tiedTo >= 0 ? 0 : l.vocab * share * l.dim * r.weightGradientBytes;
        KernelWork scatter = vectorKernel(bytes + gradientRowBytes + table, rows * l.dim, 0);
        if (!l.streamed) {
            // A DMA per row: the gather copies each table row to its output, the scatter-add
            // reads and writes each gradient row (training-model.md section 3 rule 8).
            lookup.gatheredBytes = 2 * bytes;
            lookup.gatheredRows = rows;
            scatter.gatheredBytes = gradientRowBytes;
            scatter.gatheredRows = 2 * rows;
        }
        c.forward.add(lookup, core);
        c.backward.add(scatter, core);
        c.workspaceBytes = 2 * bytes;
        if (s.kind == ModelParallelKind::Tensor && l.split == TensorSplit::Vocab) {
            c.tensorAllReduceForward = bytes; // each core looks up its part of the vocabulary
        }
        break;
    }
    case LayerType::Norm: {
        const double rows = b * itemsOnCore(l, l.rows, s);
        const double e = rows * l.dim;
        c.parameters = l.parameters();
        c.forward.add(vectorKernel(2 * e * a, r.layerNorm * e, rows), core);
        c.backward.add(vectorKernel(3 * e * a, r.layerNormBackward * e, 0), core);
        c.savedBytes = e * a;
        c.savedInputBytes = c.savedBytes;
        c.workspaceBytes = 2 * e * a;
        break;
    }
    case LayerType::Elementwise: {
        // Between a column-split layer and its row partner a core holds its part of the tensor.
        const double share = l.split == TensorSplit::Column ? tensorShare(s) : 1.0;
        const double e = b * itemsOnCore(l, l.elements, s) * share;
        const double bytes = l.elementBytes > 0 ? l.elementBytes : a;
        const auto repeated = [&](KernelWork w) {
            w.hbmBytes *= l.count;
            w.vpuOps *= l.count;
            w.eupOps *= l.count;
            w.launches *= l.count;
            return w;
        };
        c.forward.add(repeated(vectorKernel(l.passes * e * bytes, l.ops * e, l.eup * e)), core);
        if (l.backward) {
            c.backward.add(repeated(vectorKernel((l.passes + 1) * e * bytes, l.ops * e, 0)), core);
            c.savedBytes = e * bytes;
            c.savedInputBytes = c.savedBytes;
        }
        c.workspaceBytes = std::max(l.passes, 1.0) * e * bytes;
        break;
    }
    case LayerType::Loss: {
        double classes = l.classes;
        if (l.split == TensorSplit::Vocab && s.kind == ModelParallelKind::Tensor) {
            classes /= s.degree;
            // The softmax over a split vocabulary sums a maximum and a total per row.
            c.tensorAllReduceForward = b * l.rows * 2 * 4;
        }
        const double e = b * itemsOnCore(l, l.rows, s) * classes;
        c.forward.add(vectorKernel(e * a, r.lossForward * e, e), core);
        c.backward.add(vectorKernel(2 * e * a, r.lossBackward * e, 0), core);
        c.savedBytes = e * a; // the logits
        c.savedInputBytes = c.savedBytes;
        c.workspaceBytes = 2 * e * a;
        break;
    }
    }
    return c;
}

} // namespace podscope
