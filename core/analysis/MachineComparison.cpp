#include "analysis/MachineComparison.hpp"

#include "common/InputError.hpp"
#include "machine/Machine.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepPlan.hpp"

#include <algorithm>

namespace podscope::analysis {

double MachinePoint::chipSeconds() const {
    if (!point.result || !point.result->timeToTrainKnown) {
        return 0;
    }
    return static_cast<double>(point.result->chips) * point.result->timeToTrainS;
}

std::int64_t multisliceSliceChips(const std::string& hardware, std::int64_t chips) {
    const std::vector<std::int64_t> counts = standardChipCounts(hardware); // ascending
    const auto largest = std::find_if(counts.rbegin(), counts.rend(), [&](std::int64_t n) {
        return n > 0 && n < chips && chips % n == 0;
    });
    return largest == counts.rend() ? 0 : *largest;
}

namespace {

// Sets `s` on `chips` chips of its machine: one standard slice, or copies of the largest one
// that divides them. InputError (naming chips) when neither exists.
void useSlicesOf(Scenario& s, std::int64_t chips) {
    const std::vector<std::int64_t> counts = standardChipCounts(s.hardware);
    if (std::find(counts.begin(), counts.end(), chips) != counts.end()) {
        useStandardSlice(s, chips);
        s.slices = 1;
        return;
    }
    const std::int64_t sliceChips = multisliceSliceChips(s.hardware, chips);
    if (sliceChips == 0) {
        useStandardSlice(s, chips); // InputError naming chips and the known counts
    }
    useStandardSlice(s, sliceChips);
    s.slices = static_cast<int>(chips / sliceChips);
}

} // namespace

std::vector<MachinePoint> compareMachines(const Scenario& base) {
    const std::int64_t chips = scenarioTopology(base).chipCount() * std::max(base.slices, 1);
    std::vector<MachinePoint> points;
    for (const std::string& name : machineNames()) {
        MachinePoint m;
        m.machine = name;
        m.point.chips = chips;
        m.point.globalBatch = base.globalBatch;
        Scenario s = base;
        s.hardware = name;
        // The base's link what-ifs are of its own machine: another machine runs on its own. The
        // data-centre network is the site's, not the machine's, so a given one applies to all.
        s.linkBandwidthGBps.reset();
        s.linkLatencyUs.reset();
        s.crossPodBandwidthGBps.reset();
        try {
            useSlicesOf(s, chips);
        } catch (const InputError& e) {
            m.point.error = e.what();
            points.push_back(std::move(m));
            continue;
        }
        m.slices = s.slices;
        m.slice = s.topology;
        m.point = evaluatePoint(s);
        m.point.chips = chips;
        if (!m.point.error.empty() && m.slices > 1) {
            m.point.error =
                "as " + std::to_string(m.slices) + " slices of " + m.slice + ": " + m.point.error;
        }
        points.push_back(std::move(m));
    }
    return points;
}

} // namespace podscope::analysis
