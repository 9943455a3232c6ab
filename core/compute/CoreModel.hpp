#pragma once

#include <string>

namespace podscope {

// One device of a chip (a TensorCore, or both where they act as one: megacore), from
// resources/machines/<name>.json (facts) and the calibration it names,
// resources/calibration/<fit>-fit.json (the few parameters fitted on measured steps).
struct CoreModel {
    int mxus = 2;           // matrix units per core
    int mxuDim = 128;       // a weight tile is mxuDim x mxuDim
    int rowGranule = 8;     // rows stream in groups of 8 (vector register sublanes)
    int vectorLanes = 128;  // vector register lanes; HBM arrays are tiled rowGranule x vectorLanes
    double clockHz = 0;
    double vpuOpsPerS = 0;  // elementwise fp32 operations
    double eupOpsPerS = 0;  // transcendentals (exp, tanh, rsqrt ...)
    double permuteElementsPerS = 0; // elements through the cross-lane permute unit
    double hbmBps = 0;      // nominal HBM bandwidth of the core's stack
    double hbmBytes = 0;    // HBM capacity of one core
    double vmemBytes = 0;   // on-chip vector memory

    double hbmEfficiency = 1;  // achieved fraction of hbmBps by streaming kernels (measured DMA rate)
    double hbmTransposeBps = 0; // copies that move elements between lanes and sublanes
    double gatherRowS = 0;      // each row an indexed DMA fetches (a gather's, a scatter's)
    // A kernel with fewer FLOPs per HBM byte is memory-bound by the roofline, as a profiler
    // classes ops (docs/training-model.md section 14); this classes, it does not time.
    double rooflineRidgeFlopPerByte = 0;

    // Fitted (docs/training-model.md, "Calibration"): shared by every model.
    double kernelOverheadS = 0; // fixed cost of every fused kernel (issue, pipeline fill, DMA start)
    double mxuEfficiency = 1;  // fraction of the MXU cycles that stream results

    double peakFlops() const { return 2.0 * mxus * mxuDim * mxuDim * clockHz; }
};

// The three calibrated parameters, as the calibration writes them
// (resources/calibration/<fit>-fit.json): two of the core, and the per-hop latency of the
// chip-to-chip links (which the topology reads).
struct CoreCalibration {
    double kernelOverheadS = 0;
    double mxuEfficiency = 1;
    double linkLatencyS = 1e-6;
};

CoreModel loadCoreModel(const std::string& hardware);
CoreCalibration loadCoreCalibration(const std::string& hardware);

} // namespace podscope
