#pragma once

#include "figure/FigureData.hpp"

#include <QChartView>

class QCategoryAxis;
class QStackedBarSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
class StackedBarLabels;
struct TrainingAnalysis;

// One core's time per training step in each group of layers (a ResNet stage, a BERT encoder
// layer), forward and backward stacked: podscope-cli layers' table summed by group, one bar per
// group (BERT's 24 encoder layers side by side; layerBars merges runs and keeps the slowest only
// past kLayerBars). Where the names do not fit under their bars, the axis names some of them:
// a run of numbered groups by its numbers, every second, fourth ... bar.
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
    // The bar names the axis shows now, with their bars' indices.
    const std::vector<std::pair<int, QString>>& shownNames() const { return shownNames_; }

private:
    QString tooltip(int bar) const;
    // Chooses the bar names that fit the plot's width and puts them on the axis.
    void labelBars();

    LayersFigure figure_;
    LayerBars bars_;
    double secondsPerUnit_ = 1e-3;
    QString unit_;
    FigureFrame* frame_;
    QStackedBarSeries* series_;
    QCategoryAxis* categories_;
    std::vector<std::pair<int, QString>> shownNames_;
    FigureAxis* time_;
    StackedBarLabels* labels_;
};

} // namespace podscope::ui
