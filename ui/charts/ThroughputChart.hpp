#pragma once

#include "figure/FigureData.hpp"

#include <QChartView>

class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
struct TrainingAnalysis;

// Throughput against chips on the standard slices, both axes logarithmic: the model's curve,
// ideal linear scaling from its smallest point, and measured MLPerf v0.7 points of the same
// model. Strong scaling (the app's: the same global batch on every slice) or weak scaling (the
// report's second figure: the same examples per chip), named as such in the title. Strong
// scaling marks this configuration's point and labels it with its chips and throughput.
class ThroughputChart : public QChartView {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);
    // Strong scaling from the app's analysis.
    void setAnalysis(const TrainingAnalysis& analysis);
    void setFigure(const ScalingFigure& figure);
    const ScalingFigure& figure() const { return figure_; }
    // Points are stored on the axes' scales: chipsAxis().fromAxis(point.x()) is chips.
    QLineSeries* modelSeries() const { return model_; }
    QLineSeries* idealSeries() const { return ideal_; }
    QScatterSeries* measuredSeries() const { return measured_; }
    // This configuration's point (none for weak scaling) and its label beside it (null until
    // the plot is laid out, or where there is no point).
    QScatterSeries* currentSeries() const { return current_; }
    const QGraphicsSimpleTextItem* currentLabel() const { return currentLabel_; }
    const FigureAxis& chipsAxis() const { return *chips_; }
    const FigureAxis& throughputAxis() const { return *throughput_; }
    const FigureFrame& frame() const { return *frame_; }

private:
    void placeCurrentLabel();

    ScalingFigure figure_;
    FigureFrame* frame_;
    QLineSeries* model_;
    QLineSeries* ideal_;
    QScatterSeries* measured_;
    QScatterSeries* current_;
    QGraphicsSimpleTextItem* currentLabel_ = nullptr;
    FigureAxis* chips_;
    FigureAxis* throughput_;
};

} // namespace podscope::ui
