#include "analysis/MachineComparison.hpp"

#include "common/InputError.hpp"
#include "machine/Machine.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepPlan.hpp"

namespace podscope::analysis {

double MachinePoint::chipSeconds() const {
    if (!point.result || !point.result->timeToTrainKnown) {
        return 0;
    }
    return static_cast<double>(point.result->chips) * point.result->timeToTrainS;
}

std::vector<MachinePoint> compareMachines(const Scenario& base) {
    const std::int64_t chips = scenarioTopology(base).chipCount();
    std::vector<MachinePoint> points;
    for (const std::string& name : machineNames()) {
        MachinePoint m{name, {}};
        m.point.chips = chips;
        m.point.globalBatch = base.globalBatch;
        Scenario s = base;
        s.hardware = name;
        // The base's link what-ifs are of its own machine: another machine runs on its own.
        s.linkBandwidthGBps.reset();
        s.linkLatencyUs.reset();
        s.crossPodBandwidthGBps.reset();
        s.dcnBandwidthGBps.reset();
        try {
            useStandardSlice(s, chips);
        } catch (const InputError& e) {
            m.point.error = e.what();
            points.push_back(std::move(m));
            continue;
        }
        m.point = evaluatePoint(s);
        m.point.chips = chips;
        points.push_back(std::move(m));
    }
    return points;
}

} // namespace podscope::analysis
