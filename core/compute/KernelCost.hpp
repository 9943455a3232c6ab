#pragma once

#include "compute/CoreModel.hpp"

#include <cstddef>

namespace podscope {

// What one fused kernel (or `launches` identical ones) asks of a core.
struct KernelWork {
    double mxuCycles = 0;
    double flops = 0;     // useful multiply-add work x 2 (padding not counted)
    double hbmBytes = 0;
    double transposeBytes = 0; // of hbmBytes, those a transposing copy moves (its slower rate)
    // Of hbmBytes, those moved a row at a time by indexed DMAs (a gather's rows copied to its
    // output, a scatter-add's read and write of each row), and how many row DMAs it issues:
    // they take the longer of their bytes at the streaming rate and a fixed time per row.
    double gatheredBytes = 0;
    double gatheredRows = 0;
    double vpuOps = 0;
    double eupOps = 0;
    double permuteElements = 0; // elements moved across lanes (sorting networks)
    double launches = 0;

    KernelWork& operator+=(const KernelWork& o) {
        mxuCycles += o.mxuCycles;
        flops += o.flops;
        hbmBytes += o.hbmBytes;
        transposeBytes += o.transposeBytes;
        gatheredBytes += o.gatheredBytes;
        gatheredRows += o.gatheredRows;
        vpuOps += o.vpuOps;
        eupOps += o.eupOps;
        permuteElements += o.permuteElements;
        launches += o.launches;
        return *this;
    }
};

enum class CoreUnit { Mxu, Hbm, Vpu, Eup, Permute, Overhead };
inline constexpr std::size_t kCoreUnitCount = 6;
const char* toString(CoreUnit unit);

struct KernelTime {
    double seconds = 0;
    CoreUnit bound = CoreUnit::Overhead;
};

// The units work in parallel inside a kernel, so its time is the slowest unit's, plus the fixed
// cost of each launch.
KernelTime kernelTime(const KernelWork& work, const CoreModel& core);

// MXU cycles of C[P,Q] = A[P,R] B[R,Q] on one core: weight-stationary 128x128 tiles of one
// operand, rows of the other streamed in groups of 8, each tile held for at least the 128 cycles
// its successor takes to load; XLA makes whichever operand is cheaper stationary.
double matmulCycles(double p, double r, double q, const CoreModel& core);

} // namespace podscope
