#include "figure/MachinesFigure.hpp"

#include "common/NumberFormat.hpp"
#include "view/TrainingAnalysis.hpp"

#include <cstdio>

namespace podscope::ui {
namespace {

const MachinesFigure::Machine* ownOf(const MachinesFigure& figure) {
    for (const auto& m : figure.machines) {
        if (m.own) {
            return &m;
        }
    }
    return nullptr;
}

std::string times(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", ratio);
    return text;
}

// The machine with the least of `measure` among those that ran; nullptr when none did.
const MachinesFigure::Machine* least(const MachinesFigure& figure, MachineMeasure measure) {
    const MachinesFigure::Machine* best = nullptr;
    for (const auto& m : figure.machines) {
        const double v = valueOf(m, measure);
        if (m.refusal.empty() && v > 0 && (best == nullptr || v < valueOf(*best, measure))) {
            best = &m;
        }
    }
    return best;
}

} // namespace

MachinesFigure machinesFigure(const TrainingAnalysis& analysis) {
    MachinesFigure figure;
    figure.workload = analysis.scenario.workload;
    figure.ownMachine = analysis.scenario.hardware;
    figure.globalBatch = analysis.scenario.globalBatch;
    for (const analysis::MachinePoint& p : analysis.byMachine) {
        figure.chips = p.point.chips;
        MachinesFigure::Machine m;
        m.name = p.machine;
        m.own = p.machine == figure.ownMachine;
        m.slices = p.slices;
        m.slice = p.slice;
        m.refusal = p.point.error;
        if (p.point.result) {
            m.stepTimeS = p.point.result->stepTimeS;
            m.timeToTrainS = p.point.result->timeToTrainKnown ? p.point.result->timeToTrainS : 0;
            m.chipSeconds = p.chipSeconds();
        }
        figure.machines.push_back(std::move(m));
    }
    return figure;
}

std::string label(MachineMeasure measure) {
    switch (measure) {
    case MachineMeasure::StepTime:
        return "step time";
    case MachineMeasure::TimeToTrain:
        return "time to train";
    case MachineMeasure::ChipSeconds:
        return "chip time";
    }
    return {};
}

double valueOf(const MachinesFigure::Machine& machine, MachineMeasure measure) {
    switch (measure) {
    case MachineMeasure::StepTime:
        return machine.stepTimeS;
    case MachineMeasure::TimeToTrain:
        return machine.timeToTrainS;
    case MachineMeasure::ChipSeconds:
        return machine.chipSeconds;
    }
    return 0;
}

double relativeValue(const MachinesFigure& figure, const MachinesFigure::Machine& machine,
                     MachineMeasure measure) {
    const MachinesFigure::Machine* own = ownOf(figure);
    if (own == nullptr || !own->refusal.empty() || !machine.refusal.empty()) {
        return 0;
    }
    const double base = valueOf(*own, measure);
    const double value = valueOf(machine, measure);
    return base > 0 && value > 0 ? value / base : 0;
}

std::string title(const MachinesFigure&) {
    return "Machines: step time, time to train and chip time";
}

std::string subtitle(const MachinesFigure& figure) {
    return figure.workload + " on " + groupDigits(static_cast<double>(figure.chips)) +
           " chips, global batch " + groupDigits(static_cast<double>(figure.globalBatch)) +
           "; relative to " + figure.ownMachine;
}

std::string caption(const MachinesFigure& figure) {
    std::string text =
        "The configuration on each machine's standard slice of " +
        groupDigits(static_cast<double>(figure.chips)) +
        " chips (or, where its pods are smaller, copies of its largest slice that divides them, "
        "joined over the data-centre network) with the same global batch, relative to " +
        figure.ownMachine +
        " (1 = the same; lower is better). These are predictions from each machine's "
        "published facts and the core parameters its file states (fitted on "
        "measured steps, or carried over from another machine's fit). Every machine runs "
        "the same number of chips, so its chip time moves with its time to train.";
    if (const auto* fastest = least(figure, MachineMeasure::TimeToTrain)) {
        text += " Fastest to train: " + fastest->name + " (" +
                times(relativeValue(figure, *fastest, MachineMeasure::TimeToTrain)) + "x).";
    }
    if (const auto* cheapest = least(figure, MachineMeasure::ChipSeconds)) {
        text += " Least chip time: " + cheapest->name + " (" +
                times(relativeValue(figure, *cheapest, MachineMeasure::ChipSeconds)) + "x).";
    }
    for (const auto& m : figure.machines) {
        if (m.refusal.empty() && m.slices > 1) {
            text += " " + m.name + " runs " + std::to_string(m.slices) + " slices of " + m.slice +
                    " over the data-centre network.";
        }
    }
    for (const auto& m : figure.machines) {
        if (!m.refusal.empty()) {
            text += " No bars for " + m.name + ": " + m.refusal + ".";
        }
    }
    return text;
}

} // namespace podscope::ui
