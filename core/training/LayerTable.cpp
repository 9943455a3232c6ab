#include "training/LayerTable.hpp"

#include <algorithm>

namespace podscope {

std::vector<LayerRow> layerTable(const StepPlan& plan) {
    std::vector<LayerRow> rows;
    rows.reserve(plan.layers.size());
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        const Layer& layer = plan.graph->layers[i];
        const LayerCost& c = plan.layers[i];
        LayerRow row;
        row.name = layer.name;
        row.group = layer.group;
        row.type = toString(layer.type);
        row.forwardS = c.forward.seconds;
        row.backwardS = c.backward.seconds;
        row.recomputeS = c.recompute.seconds;
        row.sparedBytes = c.sparedBytes;
        row.flops = c.forward.work.flops + c.backward.work.flops + c.recompute.work.flops;
        row.hbmBytes =
            c.forward.work.hbmBytes + c.backward.work.hbmBytes + c.recompute.work.hbmBytes;
        row.kernels =
            c.forward.work.launches + c.backward.work.launches + c.recompute.work.launches;
        std::array<double, kCoreUnitCount> byUnit{};
        for (std::size_t u = 0; u < byUnit.size(); ++u) {
            byUnit[u] = c.forward.secondsByUnit[u] + c.backward.secondsByUnit[u] +
                        c.recompute.secondsByUnit[u];
        }
        row.bound =
            static_cast<CoreUnit>(std::max_element(byUnit.begin(), byUnit.end()) - byUnit.begin());
        if (row.seconds() > 0) {
            row.achievedFlops = row.flops / row.seconds();
            row.mxuUtilisation = row.achievedFlops / plan.core.peakFlops();
        }
        if (row.hbmBytes > 0) {
            row.arithmeticIntensity = row.flops / row.hbmBytes;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace podscope
