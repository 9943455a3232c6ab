#pragma once

#include "figure/MachinesFigure.hpp"

#include <QChartView>

class QBarCategoryAxis;
class QBarSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
struct TrainingAnalysis;

// One configuration on every machine (podscope-cli compare): per machine, three bars (step
// time, time to train, chip time) relative to the configuration's own machine, told apart by
// colour and fill pattern; a machine that cannot run it has no bars, and the caption and its
// tooltip say why. Tooltips give the values themselves.
class MachinesChart : public QChartView {
    Q_OBJECT
public:
    explicit MachinesChart(QWidget* parent = nullptr);
    void setAnalysis(const TrainingAnalysis& analysis);
    void setFigure(const MachinesFigure& figure);
    const MachinesFigure& figure() const { return figure_; }
    // One set per measure, in kMachineMeasures order; one value per machine.
    QBarSeries* series() const { return series_; }
    QBarCategoryAxis* categories() const { return categories_; }
    const FigureFrame& frame() const { return *frame_; }

private:
    MachinesFigure figure_;
    FigureFrame* frame_;
    QBarSeries* series_;
    QBarCategoryAxis* categories_;
    FigureAxis* relative_;
};

} // namespace podscope::ui
