#include "calibration/Calibration.hpp"

#include "training/StepModel.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace podscope {
namespace {

// The parameters' physical ranges; the search runs in the unit cube over them.
constexpr double kEfficiencyMin = 0.3, kEfficiencyMax = 1.0;
constexpr double kOverheadMaxUs = 40;
constexpr double kLatencyMinUs = 0.05, kLatencyMaxUs = 3.0;

using Unit = std::array<double, 3>;

CoreCalibration fromUnit(const Unit& u) {
    auto clamp01 = [](double x) { return std::clamp(x, 0.0, 1.0); };
    CoreCalibration c;
    c.linkLatencyS = (kLatencyMinUs + (kLatencyMaxUs - kLatencyMinUs) * clamp01(u[0])) * 1e-6;
    c.kernelOverheadS = kOverheadMaxUs * 1e-6 * clamp01(u[1]);
    c.mxuEfficiency = kEfficiencyMin + (kEfficiencyMax - kEfficiencyMin) * clamp01(u[2]);
    return c;
}

double objective(const std::vector<const CalibrationPoint*>& points, const CoreCalibration& c) {
    double sum = 0;
    for (const CalibrationPoint* p : points) {
        const double e = std::log(predictPoint(*p, c) / p->measured);
        sum += e * e;
    }
    return sum / static_cast<double>(points.size());
}

Unit nelderMead(const std::vector<const CalibrationPoint*>& points, Unit start, int& evaluations) {
    constexpr int kDims = 3;
    constexpr int kIterations = 120;
    std::array<Unit, kDims + 1> simplex{};
    std::array<double, kDims + 1> value{};
    auto f = [&](const Unit& u) {
        ++evaluations;
        return objective(points, fromUnit(u));
    };
    for (int i = 0; i <= kDims; ++i) {
        simplex[static_cast<std::size_t>(i)] = start;
        if (i > 0) {
            simplex[static_cast<std::size_t>(i)][static_cast<std::size_t>(i - 1)] += 0.08;
        }
        value[static_cast<std::size_t>(i)] = f(simplex[static_cast<std::size_t>(i)]);
    }
    for (int it = 0; it < kIterations; ++it) {
        std::array<int, kDims + 1> order{0, 1, 2, 3};
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return value[static_cast<std::size_t>(a)] < value[static_cast<std::size_t>(b)];
        });
        std::array<Unit, kDims + 1> s{};
        std::array<double, kDims + 1> v{};
        for (int i = 0; i <= kDims; ++i) {
            s[static_cast<std::size_t>(i)] =
                simplex[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
            v[static_cast<std::size_t>(i)] =
                value[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
        }
        simplex = s;
        value = v;
        Unit centroid{};
        for (int i = 0; i < kDims; ++i) {
            for (int d = 0; d < kDims; ++d) {
                centroid[static_cast<std::size_t>(d)] +=
                    simplex[static_cast<std::size_t>(i)][static_cast<std::size_t>(d)] / kDims;
            }
        }
        auto towards = [&](double t) {
            Unit u{};
            for (int d = 0; d < kDims; ++d) {
                const auto k = static_cast<std::size_t>(d);
                u[k] = centroid[k] + t * (simplex[kDims][k] - centroid[k]);
            }
            return u;
        };
        const Unit reflected = towards(-1);
        const double fr = f(reflected);
        if (fr < value[0]) {
            const Unit expanded = towards(-2);
            const double fe = f(expanded);
            simplex[kDims] = fe < fr ? expanded : reflected;
            value[kDims] = std::min(fe, fr);
        } else if (fr < value[kDims - 1]) {
            simplex[kDims] = reflected;
            value[kDims] = fr;
        } else {
            const Unit contracted = towards(0.5);
            const double fc = f(contracted);
            if (fc < value[kDims]) {
                simplex[kDims] = contracted;
                value[kDims] = fc;
            } else {
                for (int i = 1; i <= kDims; ++i) {
                    for (int d = 0; d < kDims; ++d) {
                        const auto k = static_cast<std::size_t>(d);
                        auto& x = simplex[static_cast<std::size_t>(i)][k];
                        x = simplex[0][k] + 0.5 * (x - simplex[0][k]);
                    }
                    value[static_cast<std::size_t>(i)] = f(simplex[static_cast<std::size_t>(i)]);
                }
            }
        }
    }
    const auto best = std::min_element(value.begin(), value.end()) - value.begin();
    Unit u = simplex[static_cast<std::size_t>(best)];
    for (double& x : u) {
        x = std::clamp(x, 0.0, 1.0);
    }
    return u;
}

} // namespace

double predictPoint(const CalibrationPoint& point, const CoreCalibration& calibration) {
    double total = 0;
    for (const auto& part : point.parts) {
        const TrainingResult r =
            evaluateStepPlan(buildStepPlanUnchecked(part.scenario, &calibration), part.scenario);
        const double value = point.measure == CalibrationPoint::Measure::StepWithEval ? r.stepTimeS
                             : point.measure == CalibrationPoint::Measure::TrainingStep
                                 ? r.trainStepS
                                 : r.timeToTrainS;
        total += part.weight * value;
    }
    return total;
}

CalibrationFit fitCalibration(const std::vector<const CalibrationPoint*>& points) {
    if (points.empty()) {
        throw std::invalid_argument("calibration needs at least one point");
    }
    CalibrationFit fit;
    constexpr int kGrid = 6;
    Unit best{};
    double bestValue = std::numeric_limits<double>::infinity();
    for (int i = 0; i < kGrid; ++i) {
        for (int j = 0; j < kGrid; ++j) {
            for (int k = 0; k < kGrid; ++k) {
                const Unit u{(i + 0.5) / kGrid, (j + 0.5) / kGrid, (k + 0.5) / kGrid};
                const double v = objective(points, fromUnit(u));
                ++fit.evaluations;
                if (v < bestValue) {
                    bestValue = v;
                    best = u;
                }
            }
        }
    }
    const Unit u = nelderMead(points, best, fit.evaluations);
    fit.parameters = fromUnit(u);
    fit.rmsLogError = std::sqrt(objective(points, fit.parameters));
    return fit;
}

CalibrationReport calibrate(const std::vector<CalibrationPoint>& points) {
    CalibrationReport report;
    std::vector<const CalibrationPoint*> fitPoints;
    std::set<std::string> models;
    for (const auto& p : points) {
        if (p.fit) {
            fitPoints.push_back(&p);
            models.insert(p.workload);
        }
    }
    report.fit = fitCalibration(fitPoints);
    std::map<std::string, CoreCalibration> heldOut;
    for (const std::string& model : models) {
        std::vector<const CalibrationPoint*> others;
        for (const CalibrationPoint* p : fitPoints) {
            if (p->workload != model) {
                others.push_back(p);
            }
        }
        heldOut[model] = fitCalibration(others).parameters;
        report.heldOutFits.emplace_back(model, heldOut[model]);
    }
    for (const auto& p : points) {
        PointError e;
        e.name = p.name;
        e.workload = p.workload;
        e.fit = p.fit;
        e.measured = p.measured;
        e.predicted = predictPoint(p, report.fit.parameters);
        e.error = e.predicted / p.measured - 1;
        const auto it = heldOut.find(p.workload);
        e.predictedHeldOut = it != heldOut.end() ? predictPoint(p, it->second) : e.predicted;
        e.errorHeldOut = e.predictedHeldOut / p.measured - 1;
        report.points.push_back(e);
    }
    return report;
}

std::string calibrationFileText(const CalibrationReport& report, const std::string& fit) {
    std::ostringstream how;
    how << "Fitted by podscope-cli calibrate (resources/generators/calibrate.sh): least squares of "
           "log(predicted / measured) step time over the "
        << std::count_if(report.points.begin(), report.points.end(),
                         [](const PointError& e) { return e.fit; })
        << " fit points of resources/calibration/" << fit
        << "-steps.json (the MLPerf v0.7 presets); rms "
           "log error "
        << std::fixed << std::setprecision(3) << report.fit.rmsLogError
        << "; shared by every workload (docs/training-model.md, 'Calibration')";
    const CoreCalibration& c = report.fit.parameters;
    // Divided by the inverse step, so that 0.7131 is written 0.7131, not 0.7131000000000001.
    auto rounded = [](double x, double step) { return std::round(x / step) / (1 / step); };
    nlohmann::ordered_json j;
    // "tpu-vN" -> "TPU-vN": the family in capitals, as the documents write it.
    std::string machine = fit;
    for (std::size_t i = 0; i < machine.size() && machine[i] != '-'; ++i) {
        machine[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(machine[i])));
    }
    j["description"] =
        "The three hardware-level parameters of the " + machine +
        " core model, shared by every workload. Written by the calibration; do not edit by hand.";
    j["link_latency_us"] = {{"value", rounded(c.linkLatencyS * 1e6, 1e-4)}, {"source", how.str()}};
    j["kernel_overhead_us"] = {{"value", rounded(c.kernelOverheadS * 1e6, 1e-4)},
                               {"source", how.str()}};
    j["mxu_efficiency"] = {{"value", rounded(c.mxuEfficiency, 1e-4)}, {"source", how.str()}};
    return j.dump(2) + "\n";
}

} // namespace podscope
