#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace podscope::ui {

struct TrainingAnalysis;

// One configuration on every machine (podscope-cli compare), as a figure: step time, time to
// train and chip time of each machine relative to the configuration's own machine. Plain
// numbers, so the app's chart and its exports draw the same thing.
struct MachinesFigure {
    struct Machine {
        std::string name;
        bool own = false;
        int slices = 1;      // slices over the data-centre network
        std::string slice;   // one slice's shape; empty when none was found
        std::string refusal; // empty: the numbers hold
        double stepTimeS = 0;
        double timeToTrainS = 0; // 0 when unknown
        double chipSeconds = 0;  // 0 when unknown
    };
    std::string workload;
    std::string ownMachine;
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    std::vector<Machine> machines; // sorted by name
};

MachinesFigure machinesFigure(const TrainingAnalysis& analysis);

// The three measures the figure compares, in its order.
enum class MachineMeasure { StepTime, TimeToTrain, ChipSeconds };
inline constexpr MachineMeasure kMachineMeasures[] = {
    MachineMeasure::StepTime, MachineMeasure::TimeToTrain, MachineMeasure::ChipSeconds};
std::string label(MachineMeasure measure); // "step time", "time to train", "chip time"
double valueOf(const MachinesFigure::Machine& machine, MachineMeasure measure);
// The machine's value over the own machine's; 0 where either is unknown or refused.
double relativeValue(const MachinesFigure& figure, const MachinesFigure::Machine& machine,
                     MachineMeasure measure);

// "Machines: step, time to train and chip time" and "resnet50 on 256 chips, global batch
// 65,536; relative to tpu-v3".
std::string title(const MachinesFigure& figure);
std::string subtitle(const MachinesFigure& figure);
// Which machine trains fastest and which costs least chip time, and why a machine has no bars.
std::string caption(const MachinesFigure& figure);

} // namespace podscope::ui
