#pragma once

#include "training/StepPlan.hpp"

#include <QGroupBox>
#include <optional>
#include <string>
#include <vector>

class QLabel;

namespace podscope::ui {

// One core's HBM as the step plan needs it: weights, gradients, optimizer state, activations
// kept for the backward pass and the largest layer's workspace, as a bar against the capacity
// (16 GiB on TPU-v3), in GiB. A configuration refused for HBM shows what it would need, past
// the capacity line.
class MemoryBar : public QGroupBox {
    Q_OBJECT
public:
    explicit MemoryBar(QWidget* parent = nullptr);

    // `refused`: the configuration was refused (the bar shows what it would need).
    void setMemory(const MemoryUse& memory, bool refused = false);
    void clear();

    struct Part {
        std::string label;
        double bytes = 0;
    };
    // The parts in the bar's order (left to right) and the capacity; empty before setMemory.
    const std::vector<Part>& parts() const { return parts_; }
    std::optional<MemoryUse> memory() const { return memory_; }
    QString summary() const;
    QString legendText() const;

private:
    std::optional<MemoryUse> memory_;
    std::vector<Part> parts_;
    QLabel* summary_;
    QWidget* strip_;
    QLabel* legend_;
};

} // namespace podscope::ui
