#pragma once

#include "calibration/CalibrationPoint.hpp"
#include "compute/CoreModel.hpp"

#include <string>
#include <vector>

namespace podscope {

// The model's prediction for what a point measured, with the given core parameters.
double predictPoint(const CalibrationPoint& point, const CoreCalibration& calibration);

// Fits the three shared core parameters to the points by least squares of log(predicted /
// measured): a coarse grid over the physical ranges, then Nelder-Mead from the best node.
// Deterministic. Throws std::invalid_argument for an empty set.
struct CalibrationFit {
    CoreCalibration parameters;
    double rmsLogError = 0;
    int evaluations = 0;
};
CalibrationFit fitCalibration(const std::vector<const CalibrationPoint*>& points);

// One point's relative errors (predicted / measured - 1).
struct PointError {
    std::string name;
    std::string workload;
    bool fit = false;
    double measured = 0;
    double predicted = 0;         // with the parameters fitted on every fit point
    double error = 0;             // in-sample for fit points, out-of-sample for checks
    double predictedHeldOut = 0;  // with the parameters fitted without this point's model
    double errorHeldOut = 0;      // leave-one-model-out
};

struct CalibrationReport {
    CalibrationFit fit;
    std::vector<PointError> points;
    // Parameters refitted with each model's points left out, by model.
    std::vector<std::pair<std::string, CoreCalibration>> heldOutFits;
};

CalibrationReport calibrate(const std::vector<CalibrationPoint>& points);

// The calibration file resources/calibration/<fit>-fit.json for these parameters, fitted on
// resources/calibration/<fit>-steps.json.
std::string calibrationFileText(const CalibrationReport& report, const std::string& fit);

} // namespace podscope
