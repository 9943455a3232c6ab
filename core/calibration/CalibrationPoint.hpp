#pragma once

#include "training/Scenario.hpp"

#include <string>
#include <vector>

namespace podscope {

// A measured TPU-v3 run the core model is fitted on ("fit") or checked against ("check"), from
// resources/calibration/<hardware>-steps.json.
struct CalibrationPoint {
    enum class Measure { StepWithEval, TrainingStep, TimeToTrain };
    struct Part {
        double weight = 1;
        Scenario scenario;
    };

    std::string name;
    bool fit = false;
    std::string workload;
    std::vector<Part> parts; // the measurement averages these configurations by weight
    Measure measure = Measure::StepWithEval;
    double measured = 0; // seconds
    std::string source;
    std::string note;
};

std::vector<CalibrationPoint> loadCalibrationPoints(const std::string& hardware);

std::string toString(CalibrationPoint::Measure measure);

} // namespace podscope
