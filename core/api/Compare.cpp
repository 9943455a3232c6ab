#include "analysis/MachineComparison.hpp"

#include <podscope/compare.hpp>

namespace podscope::api {

std::vector<MachineRow> compareMachines(const ConfigurationRequest& request) {
    return compareMachines(Configuration::load(request));
}

std::vector<MachineRow> compareMachines(const Configuration& base) {
    std::vector<MachineRow> rows;
    for (const analysis::MachinePoint& p : analysis::compareMachines(base.scenario())) {
        MachineRow row;
        row.hardware = p.machine;
        row.chips = p.point.chips;
        row.slices = p.slices;
        row.slice = p.slice;
        row.globalBatch = p.point.globalBatch;
        row.own = p.machine == base.scenario().hardware;
        row.error = p.point.error;
        if (p.point.result) {
            row.stepTimeS = p.point.result->stepTimeS;
            row.timeToTrainS = p.point.result->timeToTrainS;
            row.timeToTrainKnown = p.point.result->timeToTrainKnown;
            row.chipSeconds = p.chipSeconds();
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace podscope::api
