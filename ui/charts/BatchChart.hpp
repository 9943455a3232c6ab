#pragma once

#include "figure/FigureData.hpp"

#include <QChartView>

class QLineSeries;
class QScatterSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
struct TrainingAnalysis;

// Time to train against global batch on the current slice: a larger batch runs faster steps
// but needs more epochs to converge. The fastest batch is marked: the paper's batch-size limit.
// The batch axis is logarithmic in powers of two (8k, 16k ... 1M); time and epochs are
// logarithmic too when they span a decade.
class BatchChart : public QChartView {
    Q_OBJECT
public:
    explicit BatchChart(QWidget* parent = nullptr);
    void setAnalysis(const TrainingAnalysis& analysis);
    void setFigure(const BatchFigure& figure);
    const BatchFigure& figure() const { return figure_; }
    // Points are stored on the axes' scales (see FigureAxis::fromAxis).
    QLineSeries* timeSeries() const { return time_; }
    QScatterSeries* fastestSeries() const { return fastest_; }
    const FigureAxis& batchAxis() const { return *batch_; }
    const FigureAxis& timeAxis() const { return *timeAxis_; }
    const FigureFrame& frame() const { return *frame_; }

private:
    BatchFigure figure_;
    FigureFrame* frame_;
    QLineSeries* time_;
    QLineSeries* epochs_;
    QScatterSeries* fastest_;
    QScatterSeries* current_;
    QScatterSeries* measured_;
    FigureAxis* batch_;
    FigureAxis* timeAxis_;
    FigureAxis* epochsAxis_;
};

} // namespace podscope::ui
