#include "compute/KernelCost.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace podscope {

const char* toString(CoreUnit unit) {
    switch (unit) {
    case CoreUnit::Mxu:
        return "mxu";
    case CoreUnit::Hbm:
        return "hbm";
    case CoreUnit::Vpu:
        return "vpu";
    case CoreUnit::Eup:
        return "eup";
    case CoreUnit::Permute:
        return "permute";
    case CoreUnit::Overhead:
        return "overhead";
    }
    return "?";
}

KernelTime kernelTime(const KernelWork& w, const CoreModel& core) {
    const double streamingBps = core.hbmBps * core.hbmEfficiency;
    const double units[] = {
        w.mxuCycles / (core.clockHz * core.mxuEfficiency),
        (w.hbmBytes - w.transposeBytes - w.gatheredBytes) / streamingBps +
            (w.transposeBytes > 0 ? w.transposeBytes / core.hbmTransposeBps : 0) +
            std::max(w.gatheredBytes / streamingBps, w.gatheredRows * core.gatherRowS),
        w.vpuOps / core.vpuOpsPerS, w.eupOps / core.eupOpsPerS,
        w.permuteElements > 0 ? w.permuteElements / core.permuteElementsPerS : 0};
    KernelTime t;
    double slowest = 0;
    for (std::size_t u = 0; u < std::size(units); ++u) {
        if (units[u] > slowest) {
            slowest = units[u];
            t.bound = static_cast<CoreUnit>(u);
        }
    }
    const double overhead = w.launches * core.kernelOverheadS;
    if (overhead > slowest) {
        t.bound = CoreUnit::Overhead;
    }
    t.seconds = slowest + overhead;
    return t;
}

double matmulCycles(double p, double r, double q, const CoreModel& core) {
    if (p <= 0 || r <= 0 || q <= 0) {
        return 0;
    }
    const double dim = core.mxuDim;
    const double granule = core.rowGranule;
    auto tiles = [&](double n) { return std::ceil(n / dim); };
    auto streamed = [&](double rows) { return std::max(granule * std::ceil(rows / granule), dim); };
    const double stationaryRq = tiles(r) * tiles(q) * streamed(p);
    const double stationaryRp = tiles(r) * tiles(p) * streamed(q);
    return std::min(stationaryRq, stationaryRp) / core.mxus;
}

} // namespace podscope
