// The calibration: three shared parameters fitted on the presets' measured steps, reported with
// leave-one-model-out errors and errors on points never fitted (docs/training-model.md).
#include "calibration/Calibration.hpp"

#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "workload/Workload.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <iterator>

namespace podscope {
namespace {

const CalibrationReport& report() {
    static const CalibrationReport r = calibrate(loadCalibrationPoints("tpu-v3"));
    return r;
}

// The bundled parameters are the fit's output, not numbers tuned by hand.
TEST(Calibration, BundledParametersAreTheFit) {
    const CoreCalibration bundled = loadCoreCalibration("tpu-v3");
    const CoreCalibration& fit = report().fit.parameters;
    EXPECT_NEAR(bundled.kernelOverheadS / fit.kernelOverheadS, 1.0, 1e-3);
    EXPECT_NEAR(bundled.mxuEfficiency / fit.mxuEfficiency, 1.0, 1e-3);
    EXPECT_NEAR(bundled.linkLatencyS / fit.linkLatencyS, 1.0, 1e-3);
}

// Physical values: an MXU cannot beat its peak, a kernel launch costs microseconds, an ICI hop
// well under the 1 us usually assumed for cut-through routing.
TEST(Calibration, ParametersArePhysical) {
    const CoreCalibration& c = report().fit.parameters;
    EXPECT_GT(c.mxuEfficiency, 0.4);
    EXPECT_LE(c.mxuEfficiency, 1.0);
    EXPECT_GT(c.kernelOverheadS, 0.5e-6);
    EXPECT_LT(c.kernelOverheadS, 30e-6);
    EXPECT_GT(c.linkLatencyS, 0.05e-6);
    EXPECT_LT(c.linkLatencyS, 2e-6);
}

TEST(Calibration, InSampleAndLeaveOneModelOutErrors) {
    double sum = 0, worst = 0, heldOutWorst = 0;
    int fitted = 0;
    for (const PointError& e : report().points) {
        std::cout << (e.fit ? "fit   " : "check ") << e.name << ": " << 100 * e.error
                  << " % in-sample, " << 100 * e.errorHeldOut << " % with its model held out\n";
        if (!e.fit) {
            continue;
        }
        ++fitted;
        sum += std::abs(e.error);
        worst = std::max(worst, std::abs(e.error));
        heldOutWorst = std::max(heldOutWorst, std::abs(e.errorHeldOut));
    }
    EXPECT_EQ(fitted, 10);
    // The figures docs/training-model.md and the README state.
    EXPECT_LT(sum / fitted, 0.05);
    EXPECT_LT(worst, 0.10);
    EXPECT_LT(heldOutWorst, 0.15);
}

// Every point never fitted on, as docs/training-model.md section 8 lists it: the error with all
// fit points and with the point's model held out, at the figure the docs state (within 2 points,
// so a change that moves one is seen and the docs follow). Where the docs say the model holds
// (the same software as the fit) the error is also inside 15 %; the others are asserted as the
// misses they are. The Ying et al. figure is a bound: the step at most.
struct OutOfSample {
    const char* name;
    double error;   // docs/training-model.md section 8, "Points never fitted"
    double heldOut; // the same with the point's model held out
    bool covered;   // the docs claim it within 15 % (with every fit point)
};

constexpr OutOfSample kOutOfSample[] = {
    {"v0.5 resnet50 4 chips b=128", -0.077, -0.081, true},
    {"v0.5 resnet50 256 chips b=32", -0.040, -0.041, true},
    {"JAX ssd 2048 chips time to train", 0.162, 0.134, false},
    {"v0.5 resnet50 16 chips b=128", -0.250, -0.252, false},
    {"v0.5 gnmt 16 chips b=128 len 48", -0.239, -0.230, false},
    {"v0.5 ssd 16 chips b=32", -0.343, -0.341, false},
    {"v0.5 gnmt 4 chips b=256", -0.523, -0.517, false},
    {"LAMB bert 16 chips b=16", -0.268, -0.278, false},
    {"LAMB bert 32 chips b=16", -0.302, -0.310, false},
    {"LAMB bert 64 chips b=16", -0.293, -0.302, false},
    {"LAMB bert 128 chips b=16", -0.345, -0.354, false},
    {"LAMB bert 256 chips b=16", -0.418, -0.426, false},
    {"LAMB bert 512 chips b=16", -0.473, -0.480, false},
    {"LAMB bert 1024 chips b=16", -0.481, -0.488, false},
    {"mlperf07-maskrcnn-tf-512", -0.027, -0.027, true},
};

TEST(Calibration, EveryOutOfSamplePointAtTheErrorTheDocsState) {
    int checked = 0;
    for (const PointError& e : report().points) {
        if (e.fit) {
            continue;
        }
        if (e.name == "Ying et al. resnet50 1024 chips b=16") {
            EXPECT_LE(e.predicted, e.measured) << "more than 1.05M images/s: the step is at most this";
            ++checked;
            continue;
        }
        const OutOfSample* doc = nullptr;
        for (const OutOfSample& o : kOutOfSample) {
            doc = e.name == o.name ? &o : doc;
        }
        ASSERT_NE(doc, nullptr) << e.name << " is not in docs/training-model.md section 8";
        ++checked;
        std::cout << "check " << e.name << ": " << 100 * e.error << " % (docs " << 100 * doc->error
                  << " %), held out " << 100 * e.errorHeldOut << " %\n";
        EXPECT_NEAR(e.error, doc->error, 0.02) << e.name;
        EXPECT_NEAR(e.errorHeldOut, doc->heldOut, 0.02) << e.name;
        if (doc->covered) {
            // Within 15 % with every fit point; the held-out figure is asserted as stated.
            EXPECT_LT(std::abs(e.error), 0.15) << e.name;
        } else {
            EXPECT_GT(std::abs(e.error), 0.15) << e.name << ": now within 15 %, update the docs";
        }
    }
    EXPECT_EQ(checked, static_cast<int>(std::size(kOutOfSample)) + 1); // none left out
}

// Time to train two ways (docs/training-model.md section 8): with Google's measured convergence
// (the examples of its own runs: in-sample) and with the convergence fitted on the other
// submitters' runs only (the workload's E(B) alone: out-of-sample), both at the bundled step
// parameters, each at the error the docs state (within 2 points).
struct TimeToTrain {
    const char* preset;
    double inSample;
    double outOfSample;
};

constexpr TimeToTrain kTimeToTrain[] = {
    {"mlperf07-bert-jax-4096", 0.010, 0.352},
    {"mlperf07-bert-tf-4096", 0.033, 0.382},
    {"mlperf07-bert-tf2-16", -0.044, -0.016},
    {"mlperf07-gnmt-tf-512", 0.004, -0.044},
    {"mlperf07-resnet50-jax-4096", 0.008, -0.105},
    {"mlperf07-resnet50-tf-4096", 0.007, -0.064},
    {"mlperf07-resnet50-tf2-16", -0.017, -0.013},
    {"mlperf07-ssd-tf-4096", -0.007, -0.037},
    {"mlperf07-transformer-jax-4096", -0.014, -0.025},
    {"mlperf07-transformer-tf-4096", -0.020, -0.198},
    {"mlperf07-maskrcnn-tf-512", -0.082, -0.156},
};

TEST(Calibration, TimeToTrainWithGooglesConvergenceAndWithOtherSubmittersOnly) {
    EXPECT_EQ(presetNames().size(), std::size(kTimeToTrain));
    for (const TimeToTrain& t : kTimeToTrain) {
        const Preset p = loadPreset(t.preset);
        const double measured = p.reference.timeToTrainS;
        const double inSample = simulateTraining(p.scenario).timeToTrainS / measured - 1;
        Scenario other = p.scenario;
        other.trainExamples =
            loadWorkload(other.workload).convergence.fitted(static_cast<double>(other.globalBatch));
        const double outOfSample = simulateTraining(other).timeToTrainS / measured - 1;
        std::cout << t.preset << ": time to train " << 100 * inSample << " % with Google's "
                  << "convergence, " << 100 * outOfSample << " % with the others' fit\n";
        EXPECT_NEAR(inSample, t.inSample, 0.02) << t.preset;
        EXPECT_NEAR(outOfSample, t.outOfSample, 0.02) << t.preset;
    }
}

TEST(Calibration, NeedsPoints) {
    EXPECT_THROW(fitCalibration({}), std::invalid_argument);
}

} // namespace
} // namespace podscope
