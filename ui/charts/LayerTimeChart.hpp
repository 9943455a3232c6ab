#pragma once

#include "figure/FigureData.hpp"

#include <QChartView>

class QBarCategoryAxis;
class QStackedBarSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
class StackedBarLabels;
struct TrainingAnalysis;

// One core's time per training step in each group of layers (a ResNet stage, a BERT encoder
// layer), forward and backward stacked: podscope-cli layers' table summed by group. A run of
// numbered groups (BERT's 24 encoder layers) is one bar, and were there still too many bars,
// the slowest and a "rest" bar (layerBars), so the bars stay readable.
class LayerTimeChart : public QChartView {
    Q_OBJECT
public:
    explicit LayerTimeChart(QWidget* parent = nullptr);
    void setAnalysis(const TrainingAnalysis& analysis);
    void setFigure(const LayersFigure& figure);

    const LayersFigure& figure() const { return figure_; }
    const LayerBars& bars() const { return bars_; }
    // Two sets, forward then backward, one value per bar in the axis' unit.
    QStackedBarSeries* series() const { return series_; }
    // Seconds per axis unit's value (1e-3 for ms).
    double secondsPerUnit() const { return secondsPerUnit_; }
    const FigureAxis& timeAxis() const { return *time_; }
    const FigureFrame& frame() const { return *frame_; }
    const StackedBarLabels& labels() const { return *labels_; }

private:
    QString tooltip(int bar) const;

    LayersFigure figure_;
    LayerBars bars_;
    double secondsPerUnit_ = 1e-3;
    QString unit_;
    FigureFrame* frame_;
    QStackedBarSeries* series_;
    QBarCategoryAxis* categories_;
    FigureAxis* time_;
    StackedBarLabels* labels_;
};

} // namespace podscope::ui
