// The TPU-v3 core model: MXU tiles and padding, the slowest unit of a kernel, and the lowering of
// layers, against closed forms (../shared/reference/compute-model.md sections 1.2 and 5).
#include "compute/CoreModel.hpp"
#include "compute/KernelCost.hpp"
#include "compute/LayerCost.hpp"
#include "compute/LoweringRules.hpp"
#include "machine/Machine.hpp"
#include "workload/LayerGraph.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

CoreModel core() {
    return loadCoreModel("tpu-v3");
}

TEST(CoreModel, FactsFromTheReference) {
    const CoreModel c = core();
    EXPECT_EQ(c.mxus, 2);
    EXPECT_EQ(c.mxuDim, 128);
    EXPECT_DOUBLE_EQ(c.clockHz, 940e6);
    EXPECT_NEAR(c.peakFlops(), 61.6e12, 0.1e12); // 2 MXUs x 128 x 128 x 2 x 0.94 GHz
    EXPECT_NEAR(c.hbmBps * c.hbmEfficiency, 423e9, 1e6); // the measured DMA rate
    EXPECT_DOUBLE_EQ(c.hbmBytes, 16.0 * 1024 * 1024 * 1024);
}

// The roofline class of a kernel, as the profiler classes ops: memory-bound below the ridge's
// FLOPs per HBM byte (v3's file states the profiles' 164.8; a machine without one takes peak
// over nominal bandwidth), whatever unit bounds its time in the model.
TEST(CoreModel, KernelsBelowTheRidgeAreMemoryBoundByTheRoofline) {
    const CoreModel c = core();
    EXPECT_DOUBLE_EQ(c.rooflineRidgeFlopPerByte, 164.8);
    for (const std::string& name : machineNames()) {
        const CoreModel m = loadCoreModel(name);
        if (!bundledMachine(name).rooflineRidgeFlopPerByte) {
            EXPECT_DOUBLE_EQ(m.rooflineRidgeFlopPerByte, m.peakFlops() / m.hbmBps) << name;
        }
    }
    PassCost pass;
    KernelWork below;
    below.hbmBytes = 1e6;
    below.flops = 164e6;
    below.launches = 1;
    pass.add(below, c);
    EXPECT_DOUBLE_EQ(pass.belowRidgeS, pass.seconds);
    KernelWork above = below;
    above.flops = 166e6;
    pass.add(above, c);
    EXPECT_DOUBLE_EQ(pass.belowRidgeS, kernelTime(below, c).seconds);
    EXPECT_NEAR(pass.seconds - pass.belowRidgeS, kernelTime(above, c).seconds, 1e-18);
}

// cycles = ceil(K/128) ceil(N/128) max(8 ceil(M/8), 128) / 2: efficiency rises linearly with
// the streamed rows up to 128, then stays flat (not a hyperbola).
TEST(Matmul, EfficiencyRisesLinearlyWithRowsUpTo128ThenIsFlat) {
    const CoreModel c = core();
    auto efficiency = [&](double m) {
        const double k = 1024, n = 4096;
        return m * k * n / (matmulCycles(m, k, n, c) * c.mxus * c.mxuDim * c.mxuDim);
    };
    EXPECT_DOUBLE_EQ(efficiency(8), 8.0 / 128);
    EXPECT_DOUBLE_EQ(efficiency(64), 64.0 / 128);
    EXPECT_DOUBLE_EQ(efficiency(16) / efficiency(8), 2.0);
    EXPECT_DOUBLE_EQ(efficiency(128), 1.0);
    EXPECT_DOUBLE_EQ(efficiency(1024), 1.0);
    // Rows pad to 8: one row costs what eight do.
    EXPECT_DOUBLE_EQ(matmulCycles(1, 1024, 4096, c), matmulCycles(8, 1024, 4096, c));
    EXPECT_DOUBLE_EQ(matmulCycles(129, 1024, 4096, c), matmulCycles(136, 1024, 4096, c));
}

TEST(Matmul, GnmtRecurrentStepIsWeightLoadBound) {
    // compute-model.md 2.4: [8,1024] x [1024,4096] = 8 x 32 tiles x 128 cycles / 2 MXUs.
    const CoreModel c = core();
    EXPECT_DOUBLE_EQ(matmulCycles(8, 1024, 4096, c), 8.0 * 32 * 128 / 2);
    EXPECT_NEAR(matmulCycles(8, 1024, 4096, c) / c.clockHz, 17.4e-6, 0.05e-6);
}

TEST(Matmul, PaddingToTheTileCostsTheWholeTile) {
    const CoreModel c = core();
    // A contraction of 64 (ResNet's first group) pads to 128: half the MXU.
    EXPECT_DOUBLE_EQ(matmulCycles(4096, 64, 256, c), matmulCycles(4096, 128, 256, c));
    EXPECT_DOUBLE_EQ(matmulCycles(4096, 129, 256, c), matmulCycles(4096, 256, 256, c));
}

TEST(Matmul, TheCheaperOperandIsMadeStationary) {
    const CoreModel c = core();
    // [4096, 1024] x [1024, 8]: streaming 4096 rows through 8 tiles of a padded 8-wide N, or
    // 8 rows of N through 256 tiles of the transposed problem: XLA takes the cheaper.
    EXPECT_DOUBLE_EQ(matmulCycles(4096, 1024, 8, c), matmulCycles(8, 1024, 4096, c));
}

TEST(KernelTime, TheSlowestUnitPlusTheLaunchCost) {
    CoreModel c = core();
    KernelWork w;
    w.mxuCycles = c.clockHz * c.mxuEfficiency * 1e-3; // 1 ms of MXU
    w.hbmBytes = c.hbmBps * c.hbmEfficiency * 2e-3;   // 2 ms of HBM
    w.vpuOps = c.vpuOpsPerS * 0.5e-3;
    w.launches = 1;
    const KernelTime t = kernelTime(w, c);
    EXPECT_EQ(t.bound, CoreUnit::Hbm);
    EXPECT_NEAR(t.seconds, 2e-3 + c.kernelOverheadS, 1e-12);
    w.hbmBytes = 0;
    EXPECT_EQ(kernelTime(w, c).bound, CoreUnit::Mxu);
}

Layer conv(double h, double cin, double cout, int k) {
    Layer l;
    l.type = LayerType::Conv;
    l.h = l.w = h;
    l.cin = cin;
    l.cout = cout;
    l.k = k;
    l.batchNorm = BatchNormKind::Batch;
    l.activation = Activation::Relu;
    l.spatial = SpatialRole::Split;
    return l;
}

TEST(LayerCost, ForwardAndBackwardCarryThreeTimesTheForwardFlops) {
    const CoreModel c = core();
    const Layer l = conv(56, 64, 64, 3);
    const LayerCost cost = lowerLayer(l, 8, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    const double forward = 2.0 * 8 * 56 * 56 * 9 * 64 * 64;
    EXPECT_DOUBLE_EQ(cost.forward.work.flops, forward);
    EXPECT_DOUBLE_EQ(cost.backward.work.flops, 2 * forward); // input and weight gradients
    // Without an input gradient (the first layer) only the weight gradient remains.
    EXPECT_DOUBLE_EQ(lowerLayer(l, 8, layerSplit(ModelParallelKind::None, 1, 2), c, false)
                         .backward.work.flops,
                     forward);
    EXPECT_DOUBLE_EQ(cost.parameters, 9.0 * 64 * 64 + 2 * 64);
    EXPECT_DOUBLE_EQ(cost.batchNormChannels, 64);
}

// The window folds into the contraction: ResNet's 3x3 64->64 convolution is one matmul whose
// 576-deep contraction pads to 640 (5 tiles) and whose 64 output channels pad to one 128-column
// tile: 576 x 64 / (640 x 128) = 0.45 of the array, the 0.46 the profile measures (section 14),
// where nine 64-deep taps used 0.25.
TEST(LayerCost, ConvolutionTapsFoldIntoTheContraction) {
    const CoreModel c = core();
    const LayerCost cost =
        lowerLayer(conv(56, 64, 64, 3), 8, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    const double rows = 8.0 * 56 * 56;
    const double peakCycles = cost.forward.work.flops / (2.0 * c.mxus * c.mxuDim * c.mxuDim);
    EXPECT_NEAR(peakCycles / cost.forward.work.mxuCycles, 576.0 * 64 / (640 * 128), 1e-12);
    EXPECT_DOUBLE_EQ(cost.forward.work.mxuCycles, 5 * 1 * rows / c.mxus);
}

// The padded layouts against the profile's bytes (docs/training-model.md section 14): SSD's
// 3x3 64->64 convolution (conv2d_2, 75x75) at 16 images per core reads and writes 46.8 MB forward
// (its FLOPs over its operational intensity), twice the exact maps; at 128 per core the batch
// fills the lanes and nothing is padded.
TEST(LayerCost, SmallBatchesPadTheMapsAsTheProfileMeasures) {
    const CoreModel c = core();
    Layer l = conv(75, 64, 64, 3);
    l.batchNorm = BatchNormKind::None;
    l.activation = Activation::None;
    const LayerSplit none = layerSplit(ModelParallelKind::None, 1, 2);
    const double weights = 3 * 3 * 64 * 64 * loweringRules().weightBytes;
    const double ssd = lowerLayer(l, 16, none, c, true).forward.work.hbmBytes - weights;
    EXPECT_NEAR(ssd / 46.8e6, 1.0, 0.03);
    const double full = lowerLayer(l, 128, none, c, true).forward.work.hbmBytes - weights;
    EXPECT_DOUBLE_EQ(full / 128, ssd / 16 / 2);
}

// A 3x3 max-pool of stride 2 reads an input four times its output; its gradient is XLA's
// select-and-scatter: four input-sized passes plus the output gradient. At 8 maps per core the
// 64 features lie on half of the 128 lanes (feature-minor, as SSD's maps at 16 per core in the
// profile): every byte is stored twice over.
TEST(LayerCost, MaxPoolReadsItsStridedInputAndScattersItsGradient) {
    const CoreModel c = core();
    Layer pool;
    pool.type = LayerType::Pool;
    pool.h = pool.w = 56;
    pool.cin = pool.cout = 64;
    pool.k = 3;
    pool.stride = 2;
    pool.spatial = SpatialRole::Split;
    const LayerCost cost = lowerLayer(pool, 8, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    const double out = 8.0 * 56 * 56 * 64 * loweringRules().activationBytes * 2;
    EXPECT_DOUBLE_EQ(cost.forward.work.hbmBytes, out + 4 * out);
    EXPECT_DOUBLE_EQ(cost.backward.work.hbmBytes, out + 4 * (4 * out));
    EXPECT_DOUBLE_EQ(cost.savedBytes, 4 * out);
}

Layer sortLayer(double rowsPerExample, double length, double elementBytes = 8) {
    Layer sort;
    sort.type = LayerType::Sort;
    sort.rows = rowsPerExample;
    sort.length = length;
    sort.elementBytes = elementBytes;
    return sort;
}

// A top-k is a sort (keys with their indices) through the permute unit: its time against the
// profiled sorts (google/paragraph hlo_after_optimizations_{ssd,maskrcnn}_32_tpuv3_stats.csv,
// average self time per occurrence; docs/training-model.md section 14, "Sorts and top-k"), with
// no fitted parameter. The indices take no gradient.
TEST(LayerCost, SortsTakeTheProfiledTimeOfABitonicNetwork) {
    const CoreModel c = core();
    struct Measured {
        double examples, rowsPerExample, length, elementBytes, seconds, tolerance;
    };
    const Measured sorts[] = {
        {16, 81, 8732, 4 + 4, 34.706e-3, 0.10}, // SSD evaluation: f32[1296,8732] + s32
        {4, 1, 209664, 2 + 4, 6.653e-3, 0.15},  // Mask R-CNN proposals P2: bf16[4,209664] + s32
        {4, 1, 52416, 2 + 4, 1.374e-3, 0.15},   // P3
        {4, 1, 13104, 2 + 4, 0.292e-3, 0.25},   // P4
        {4, 1, 4819, 2 + 4, 0.1125e-3, 0.15},   // post-NMS top-k
    };
    for (const Measured& m : sorts) {
        const LayerCost cost =
            lowerLayer(sortLayer(m.rowsPerExample, m.length, m.elementBytes), m.examples,
                       layerSplit(ModelParallelKind::None, 1, 2), c, true);
        EXPECT_NEAR(cost.forward.seconds / m.seconds, 1.0, m.tolerance) << m.length;
        EXPECT_EQ(cost.forward.bound(), CoreUnit::Permute) << m.length;
        EXPECT_DOUBLE_EQ(cost.backward.seconds, 0) << m.length;
        EXPECT_DOUBLE_EQ(cost.forward.work.launches, 1) << m.length;
    }
}

// Sorting 4 rows costs what sorting 8 does (the rows pad to the sublanes), and a row one element
// longer than a power of two doubles its padded length and adds its passes.
TEST(LayerCost, SortRowsPadToTheSublanesAndLengthsToAPowerOfTwo) {
    const CoreModel c = core();
    Layer sort = sortLayer(1, 1024);
    const LayerSplit none = layerSplit(ModelParallelKind::None, 1, 2);
    const double four = lowerLayer(sort, 4, none, c, true).forward.work.permuteElements;
    EXPECT_DOUBLE_EQ(lowerLayer(sort, 8, none, c, true).forward.work.permuteElements, four);
    EXPECT_DOUBLE_EQ(lowerLayer(sort, 9, none, c, true).forward.work.permuteElements, 2 * four);
    sort.length = 1025; // 2048 padded, 11 x 12 / 2 = 66 passes against 10 x 11 / 2 = 55
    EXPECT_DOUBLE_EQ(lowerLayer(sort, 8, none, c, true).forward.work.permuteElements,
                     four * 2 * 66 / 55);
}

Layer embeddingLayer(double vocab, double rowsPerExample, double dim) {
    Layer lookup;
    lookup.type = LayerType::Embedding;
    lookup.vocab = vocab;
    lookup.rows = rowsPerExample;
    lookup.dim = dim;
    return lookup;
}

// Embedding lookups against the profiled gathers and their gradients' scatter-adds
// (google/paragraph hlo_after_optimizations_{bert,transformer,nmt}_32_tpuv3_stats.csv, average
// self time; docs/training-model.md section 14, "Gathers take a fixed time per row"): a DMA per
// row, whatever its bytes, where streaming the bytes would take 5-10x less. The shared GNMT
// table's gradient gathers the encoder's and the decoder's rows (2 x 10,752) in one scatter.
TEST(LayerCost, EmbeddingLookupsTakeTheProfiledTimePerRow) {
    const CoreModel c = core();
    const LayerSplit none = layerSplit(ModelParallelKind::None, 1, 2);
    struct Measured {
        const char* op;
        double examples, rowsPerExample, vocab, forward, backward;
    };
    const Measured lookups[] = {
        {"BERT embeddings/embedding_lookup, 16,384 rows", 32, 512, 30522, 887.8e-6, 2804e-6},
        {"GNMT encoder/Gather, 10,752 rows", 256, 42, 32316, 639.1e-6, 0},
        {"GNMT encoder/Gather, 7,680 rows", 256, 30, 32316, 456.4e-6, 0},
        {"GNMT UnsortedSegmentSum, 21,504 rows", 256, 84, 32316, 0, 3011.7e-6},
        {"Transformer shared/GatherV2, 4,096 rows", 16, 256, 33708, 257.5e-6, 0},
    };
    for (const Measured& m : lookups) {
        const LayerCost cost =
            lowerLayer(embeddingLayer(m.vocab, m.rowsPerExample, 1024), m.examples, none, c, true);
        if (m.forward > 0) {
            EXPECT_NEAR(cost.forward.seconds / m.forward, 1.0, 0.15) << m.op;
            EXPECT_EQ(cost.forward.bound(), CoreUnit::Hbm) << m.op;
        }
        if (m.backward > 0) { // the scatter-add's two DMAs a row; BERT's measures 0.8x that
            EXPECT_NEAR(cost.backward.seconds / m.backward, 1.0, 0.25) << m.op;
        }
    }
    // Read in order, the same rows stream by their bytes.
    Layer streamed = embeddingLayer(30522, 512, 1024);
    const double gathered = lowerLayer(streamed, 32, none, c, true).forward.seconds;
    streamed.streamed = true;
    const LayerCost read = lowerLayer(streamed, 32, none, c, true);
    EXPECT_GT(gathered, 4 * read.forward.seconds);
    EXPECT_DOUBLE_EQ(read.forward.work.gatheredRows, 0);
    // A machine without a row time streams its gathers too.
    CoreModel bytesOnly = c;
    bytesOnly.gatherRowS = 0;
    EXPECT_DOUBLE_EQ(
        lowerLayer(embeddingLayer(30522, 512, 1024), 32, none, bytesOnly, true).forward.seconds,
        read.forward.seconds);
}

Layer relayoutLayer(std::vector<double> from, std::vector<int> fromOrder, std::vector<double> to,
                    std::vector<int> toOrder, double elementBytes, bool transposed) {
    Layer l;
    l.type = LayerType::Relayout;
    l.fromDims = std::move(from);
    l.fromOrder = std::move(fromOrder);
    l.toDims = std::move(to);
    l.toOrder = std::move(toOrder);
    l.elementBytes = elementBytes;
    l.transposed = transposed;
    l.backward = false;
    return l;
}

// Relayouts against Mask R-CNN's profiled copies and reshapes at 4 images per core
// (google/paragraph hlo_after_optimizations_maskrcnn_32_tpuv3_stats.csv, average self time;
// docs/training-model.md section 14, "Relayouts and transposes"): the tiled bytes at the
// streaming rate, or at the measured transposing rate where the lanes change. Each op within
// the spread the docs report, 0.55-1.6x; a transposing copy is bound by its slower rate.
TEST(LayerCost, RelayoutsTakeTheProfiledTimeOfTheirTiledBytes) {
    const CoreModel c = core();
    struct Measured {
        const char* op;
        Layer layer;
        double seconds;
    };
    const double n = 208 * 336 * 3; // level-2 anchors
    const Measured ops[] = {
        {"copy.8146", relayoutLayer({n, 4}, {2, 1, 0}, {n, 4}, {1, 2, 0}, 2, true), 2323e-6},
        {"copy.8285",
         relayoutLayer({512, 7, 7, 256}, {1, 0, 4, 3, 2}, {512, 7, 7, 256}, {4, 3, 2, 1, 0}, 2,
                       true),
         1185e-6},
        {"copy.8274", relayoutLayer({512, 12544}, {1, 0, 2}, {512, 12544}, {2, 1, 0}, 2, true),
         650e-6},
        {"reshape.42453", relayoutLayer({208, 336, 3}, {3, 2, 1, 0}, {n}, {1, 0}, 2, true),
         1166e-6},
        {"reshape.42645", relayoutLayer({n, 1}, {1, 0, 2}, {208, 336, 3}, {3, 2, 1, 0}, 4, true),
         1233e-6},
        {"copy.8143",
         relayoutLayer({208, 336, 12}, {3, 0, 2, 1}, {208, 336, 12}, {3, 2, 1, 0}, 2, false),
         542e-6},
        {"reshape.23353", relayoutLayer({n, 4}, {2, 1, 0}, {208, 336, 12}, {3, 2, 1, 0}, 4, false),
         1598e-6},
    };
    double measured = 0, predicted = 0;
    for (const Measured& m : ops) {
        const LayerCost cost =
            lowerLayer(m.layer, 4, layerSplit(ModelParallelKind::None, 1, 2), c, true);
        EXPECT_GT(cost.forward.seconds / m.seconds, 0.55) << m.op;
        EXPECT_LT(cost.forward.seconds / m.seconds, 1.6) << m.op;
        EXPECT_EQ(cost.forward.bound(), CoreUnit::Hbm) << m.op;
        EXPECT_DOUBLE_EQ(cost.backward.seconds, 0) << m.op;
        measured += m.seconds;
        predicted += cost.forward.seconds;
    }
    EXPECT_NEAR(predicted / measured, 1.0, 0.15);
    // The same bytes without the transpose stream about four times faster.
    Layer plain = ops[0].layer;
    plain.transposed = false;
    const LayerSplit none = layerSplit(ModelParallelKind::None, 1, 2);
    EXPECT_GT(lowerLayer(ops[0].layer, 4, none, c, true).forward.seconds,
              3.5 * lowerLayer(plain, 4, none, c, true).forward.seconds);
    // A gradient relayout moves as many bytes in the backward pass.
    plain.forward = false;
    plain.backward = true;
    const LayerCost back = lowerLayer(plain, 4, none, c, true);
    EXPECT_DOUBLE_EQ(back.forward.seconds, 0);
    EXPECT_NEAR(back.backward.work.hbmBytes / 1e6, 221.4, 0.1);
    // Spatial partitions split the first axis after the batch (208 map rows in 8 x 26); a
    // replicated relayout runs whole on every partition.
    Layer rows = ops[5].layer; // copy.8143, [b, 208, 336, 12]
    rows.spatial = SpatialRole::Split;
    const LayerSplit eight = layerSplit(ModelParallelKind::Spatial, 8, 2);
    const double whole = lowerLayer(rows, 4, none, c, true).forward.work.hbmBytes;
    EXPECT_DOUBLE_EQ(lowerLayer(rows, 4, eight, c, true).forward.work.hbmBytes, whole / 8);
    rows.spatial = SpatialRole::Replicated;
    EXPECT_DOUBLE_EQ(lowerLayer(rows, 4, eight, c, true).forward.work.hbmBytes, whole);
}

// Reductions against Mask R-CNN's profiled ones at 4 images per core (google/paragraph
// hlo_after_optimizations_maskrcnn_32_tpuv3_stats.csv; docs/training-model.md section 14,
// "Reductions and the NMS loop"): the box loss's normaliser over f32[4,209664,4] with the 4 on
// the lanes reads its padded tiles, 32x the data, in about the 1.05 ms measured; one NMS
// iteration's Max over f32[4,512,512] takes about the 12 us measured.
TEST(LayerCost, ReductionsReadTheirOperandsPaddedTiles) {
    const CoreModel c = core();
    const LayerSplit none = layerSplit(ModelParallelKind::None, 1, 2);
    Layer sum = relayoutLayer({209664, 4}, {2, 1, 0}, {1}, {1, 0}, 4, false);
    sum.type = LayerType::Reduce;
    const LayerCost normaliser = lowerLayer(sum, 4, none, c, true);
    const double padded = 4.0 * 209664 * 128 * 4; // the 4 offsets padded to 128 lanes
    EXPECT_NEAR(normaliser.forward.work.hbmBytes / padded, 1.0, 0.001);
    EXPECT_NEAR(normaliser.forward.seconds / 1054e-6, 1.0, 0.15);
    EXPECT_EQ(normaliser.forward.bound(), CoreUnit::Hbm);
    EXPECT_DOUBLE_EQ(normaliser.backward.seconds, 0);
    Layer max = relayoutLayer({512, 512}, {2, 1, 0}, {512}, {1, 0}, 4, false);
    max.type = LayerType::Reduce;
    const LayerCost once = lowerLayer(max, 4, none, c, true);
    // Its 4.2 MB stream in about the measured time; the fitted per-kernel cost (10.6 us,
    // section 8, where small kernels measure a few us) makes it about 1.7x: the excess the docs
    // report for the NMS.
    EXPECT_NEAR(kernelTime(once.forward.work, c).seconds - c.kernelOverheadS, 12.3e-6, 3e-6);
    EXPECT_GT(once.forward.seconds / 12.3e-6, 1.5);
    EXPECT_LT(once.forward.seconds / 12.3e-6, 1.8);
    // `count` kernels: the loop's iterations, each the same work and launch.
    max.count = 36;
    const LayerCost loop = lowerLayer(max, 4, none, c, true);
    EXPECT_DOUBLE_EQ(loop.forward.work.launches, 36);
    EXPECT_NEAR(loop.forward.work.hbmBytes, 36 * once.forward.work.hbmBytes,
                1e-9 * loop.forward.work.hbmBytes);
    EXPECT_NEAR(loop.forward.seconds, 36 * once.forward.seconds, 1e-9 * loop.forward.seconds);
    // The FPN's upsampling gradient on P2, in the backward pass: each 2 x 2 block of
    // bf16[4,104,2,168,2,256]{5,0,4,3,2,1} summed into bf16[4,104,168,256]{3,0,2,1}. The profile
    // counts 178.91 MB a step; it streams them at 258-261 GiB/s (640-645 us), where the model
    // streams at its HBM rate: 0.67x, the gap the docs report.
    Layer upsampling = relayoutLayer({104, 2, 168, 2, 256}, {5, 0, 4, 3, 2, 1}, {104, 168, 256},
                                     {3, 0, 2, 1}, 2, false);
    upsampling.type = LayerType::Reduce;
    upsampling.forward = false;
    upsampling.backward = true;
    const LayerCost gradient = lowerLayer(upsampling, 4, none, c, true);
    EXPECT_DOUBLE_EQ(gradient.forward.seconds, 0);
    EXPECT_NEAR(gradient.backward.work.hbmBytes / 178.91e6, 1.0, 0.01);
    EXPECT_GT(gradient.backward.seconds / 642e-6, 0.6);
    EXPECT_LT(gradient.backward.seconds / 642e-6, 0.75);
}

// RoIAlign as the TPU code runs it: two einsums per level, 'bhwf,bnyh->bnywf' (2 b n k h w c
// FLOPs) and 'bnywf,bnxw->bnyxf' (2 b n k k w c), whatever the RoIs' sizes; the backward pass is
// the two transposed einsums (the boxes take no gradient), so it does the same work. The
// intermediate [b, n, k, w, c] goes through HBM both ways in each pass.
TEST(LayerCost, CropResizeIsDenseEinsumsOverTheWholeMap) {
    const CoreModel c = core();
    Layer roi;
    roi.type = LayerType::CropResize;
    roi.h = 208;
    roi.w = 336;
    roi.cin = roi.cout = 256;
    roi.rows = 512;
    roi.k = 7;
    roi.samples = 2;
    roi.spatial = SpatialRole::Rois;
    const LayerCost cost = lowerLayer(roi, 4, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    const double einsums = 2.0 * 4 * 512 * 7 * 256 * (208 * 336 + 7 * 336);
    EXPECT_DOUBLE_EQ(cost.forward.work.flops, einsums);
    EXPECT_DOUBLE_EQ(cost.backward.work.flops, einsums);
    // The profile's intermediate bf16[4,336,256,512,7]: 2.47 GB, written and read once per pass.
    const double middle = 4.0 * 336 * 256 * 512 * 7 * 2;
    EXPECT_GT(cost.forward.work.hbmBytes, 2 * middle);
    EXPECT_GT(cost.backward.work.hbmBytes, 2 * middle);
    EXPECT_LT(cost.forward.work.hbmBytes, 2.2 * middle);
    EXPECT_EQ(cost.parameters, 0);
    // Split by RoI over 4 partitions, a core computes a quarter of the RoIs on the whole map.
    const LayerCost split =
        lowerLayer(roi, 4, layerSplit(ModelParallelKind::Spatial, 4, 2), c, true);
    EXPECT_DOUBLE_EQ(split.forward.work.flops, einsums / 4);
}

// The finding of the review: the halo a partition swaps is a border of the feature map, set by
// the kernel, the width and the channels; it does not shrink with the number of partitions.
TEST(LayerCost, SpatialHaloIsTheBorderNotDividedByTheDegree) {
    const CoreModel c = core();
    const Layer l = conv(38, 256, 256, 3);
    const double perImage = 1.0 * 38 * 256 * loweringRules().activationBytes; // one row
    for (const int degree : {2, 4, 8}) {
        const LayerCost cost = lowerLayer(l, 4, layerSplit(ModelParallelKind::Spatial, degree, 2), c, true);
        EXPECT_DOUBLE_EQ(cost.haloBytes[0], 4 * perImage) << degree;
    }
    // Each partition computes its strip (rounded up: 38 rows over 8 partitions is 5 each).
    const LayerCost eight = lowerLayer(l, 4, layerSplit(ModelParallelKind::Spatial, 8, 2), c, true);
    EXPECT_DOUBLE_EQ(eight.forward.work.flops, 2.0 * 4 * 5 * 38 * 9 * 256 * 256);
    // A 1x1 convolution has no halo.
    EXPECT_DOUBLE_EQ(lowerLayer(conv(38, 256, 256, 1), 4, layerSplit(ModelParallelKind::Spatial, 8, 2), c, true)
                         .haloBytes[0],
                     0);
}

// Issue 19: a halo was charged only while the map had more rows than partitions, so the bytes a
// chip swaps fell to zero once the degree passed the map's height. Physically each border still
// carries (k-1)/2 rows each way (XLA pads the map to whole rows per partition); per border and
// per chip the bytes are b x cin x (k-1)/2 x width x 2 bytes, at every degree.
TEST(LayerCost, SpatialHaloPerChipDoesNotFallWhenPartitionsOutnumberTheRows) {
    const CoreModel c = core();
    for (const int k : {3, 5, 7}) {
        const Layer l = conv(7, 512, 512, k); // a 7 x 7 map: 8 and 16 partitions hold 1 row
        const double closedForm = 4.0 * 512 * ((k - 1) / 2) * 7 * loweringRules().activationBytes;
        double previous = 0;
        for (const int degree : {2, 4, 8, 16, 32}) {
            const double halo =
                lowerLayer(l, 4, layerSplit(ModelParallelKind::Spatial, degree, 2), c, true)
                    .haloBytes[0];
            EXPECT_DOUBLE_EQ(halo, closedForm) << "k " << k << ", degree " << degree;
            EXPECT_GE(halo, previous) << "k " << k << ", degree " << degree;
            previous = halo;
        }
    }
}

TEST(LayerCost, MegatronSplitsDivideTheWeightsAndSumTheActivations) {
    const CoreModel c = core();
    Layer row;
    row.type = LayerType::Dense;
    row.rows = 256;
    row.in = 4096;
    row.out = 1024;
    row.split = TensorSplit::Row;
    const LayerCost whole = lowerLayer(row, 1, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    const LayerCost quarter = lowerLayer(row, 1, layerSplit(ModelParallelKind::Tensor, 4, 2), c, true);
    EXPECT_DOUBLE_EQ(quarter.parameters, whole.parameters / 4);
    EXPECT_DOUBLE_EQ(quarter.forward.work.flops, whole.forward.work.flops / 4);
    // A row-split layer sums its full-width output over the partitions; a column split sums
    // the gradient of its input in the backward pass.
    EXPECT_DOUBLE_EQ(quarter.tensorAllReduceForward, 256.0 * 1024 * loweringRules().activationBytes);
    EXPECT_DOUBLE_EQ(whole.tensorAllReduceForward, 0);
    Layer column = row;
    column.split = TensorSplit::Column;
    const LayerCost c4 = lowerLayer(column, 1, layerSplit(ModelParallelKind::Tensor, 4, 2), c, true);
    EXPECT_DOUBLE_EQ(c4.tensorAllReduceBackward, 256.0 * 4096 * loweringRules().activationBytes);
    EXPECT_DOUBLE_EQ(c4.tensorAllReduceForward, 0);
}

TEST(LayerCost, RecurrentStepsRunOneAfterAnotherAtTheBatchRows) {
    const CoreModel c = core();
    Layer lstm;
    lstm.type = LayerType::Recurrent;
    lstm.steps = 30;
    lstm.in = 0;
    lstm.hidden = 1024;
    lstm.gates = 4;
    const LayerCost cost = lowerLayer(lstm, 8, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    // Forward: 30 matmuls [8,1024]x[1024,4096], each weight-load bound, each a launch.
    EXPECT_DOUBLE_EQ(cost.forward.work.mxuCycles, 30 * matmulCycles(8, 1024, 4096, c));
    EXPECT_DOUBLE_EQ(cost.forward.work.launches, 30);
    // Eight times the batch makes the step barely slower: the weights were the cost.
    const LayerCost wide = lowerLayer(lstm, 64, layerSplit(ModelParallelKind::None, 1, 2), c, true);
    EXPECT_DOUBLE_EQ(wide.forward.work.mxuCycles, cost.forward.work.mxuCycles);
}

} // namespace
} // namespace podscope
