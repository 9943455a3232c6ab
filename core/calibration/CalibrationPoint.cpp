#include "calibration/CalibrationPoint.hpp"

#include "resources/BundledResources.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace podscope {

std::vector<CalibrationPoint> loadCalibrationPoints(const std::string& hardware) {
    const std::string file = "calibration/" + hardware + "-steps.json";
    const auto json = nlohmann::json::parse(resources::text(file));
    std::vector<CalibrationPoint> points;
    for (const auto& p : json.at("points")) {
        CalibrationPoint point;
        point.name = p.at("name").get<std::string>();
        point.fit = p.at("role").get<std::string>() == "fit";
        const Preset preset = loadPreset(p.at("preset").get<std::string>());
        Scenario base = preset.scenario;
        if (p.contains("config")) {
            applyScenarioJson(p.at("config"), base, "", file + " (" + point.name + ")");
        }
        point.workload = base.workload;
        if (p.contains("mix")) {
            for (const auto& m : p.at("mix")) {
                CalibrationPoint::Part part{m.at("weight").get<double>(), base};
                applyScenarioJson(m.at("config"), part.scenario, "", file + " (" + point.name + ")");
                point.parts.push_back(part);
            }
        } else {
            point.parts.push_back({1.0, base});
        }
        if (p.value("measured", "") == "preset") {
            if (!preset.reference.stepTimeS) {
                throw std::runtime_error(file + ": preset of '" + point.name + "' has no step time");
            }
            point.measured = *preset.reference.stepTimeS;
            point.measure = preset.reference.stepTimeIncludesEval
                                ? CalibrationPoint::Measure::StepWithEval
                                : CalibrationPoint::Measure::TrainingStep;
            point.source = preset.reference.stepSource;
        } else if (p.contains("step_time_s")) {
            point.measured = p.at("step_time_s").get<double>();
            point.measure = p.value("step_time_includes_eval", false)
                                ? CalibrationPoint::Measure::StepWithEval
                                : CalibrationPoint::Measure::TrainingStep;
            point.source = p.at("source").get<std::string>();
        } else {
            point.measured = p.at("time_to_train_s").get<double>();
            point.measure = CalibrationPoint::Measure::TimeToTrain;
            point.source = p.at("source").get<std::string>();
        }
        point.note = p.value("note", "");
        points.push_back(std::move(point));
    }
    return points;
}

std::string toString(CalibrationPoint::Measure measure) {
    switch (measure) {
    case CalibrationPoint::Measure::StepWithEval:
        return "step (with evaluation)";
    case CalibrationPoint::Measure::TrainingStep:
        return "training step";
    case CalibrationPoint::Measure::TimeToTrain:
        return "time to train";
    }
    return "?";
}

} // namespace podscope
