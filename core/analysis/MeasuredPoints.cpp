#include "analysis/MeasuredPoints.hpp"

#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/StepPlan.hpp"

namespace podscope::analysis {

std::vector<MeasuredPoint> measuredPoints(const std::string& workload,
                                          const std::string& hardware) {
    std::vector<MeasuredPoint> points;
    for (const std::string& name : presetNames()) {
        const Preset preset = loadPreset(name);
        if (preset.scenario.workload != workload || preset.scenario.hardware != hardware) {
            continue;
        }
        MeasuredPoint m;
        m.preset = name;
        m.globalBatch = preset.scenario.globalBatch;
        m.timeToTrainS = preset.reference.timeToTrainS;
        try {
            m.chips = scenarioTopology(preset.scenario).chipCount();
        } catch (const InputError&) {
            continue; // a preset the bundled machine files cannot place: nothing to compare
        }
        if (preset.reference.stepTimeS && *preset.reference.stepTimeS > 0) {
            m.throughputExamplesPerS =
                static_cast<double>(m.globalBatch) / *preset.reference.stepTimeS;
        }
        points.push_back(m);
    }
    return points;
}

} // namespace podscope::analysis
