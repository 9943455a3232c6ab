#pragma once

#include "figure/FigureData.hpp"

#include <QChartView>
#include <vector>

class QAreaSeries;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
struct TrainingAnalysis;

// Time to train against global batch on the current slice: a larger batch runs faster steps
// but needs more epochs to converge. The fastest batch is marked: the paper's batch-size limit;
// so is the critical batch of the convergence fit. Batches outside the measured convergence
// points are shaded "extrapolated"; batches that do not fit in HBM stay on the axis, hatched as
// refused. The batch axis is logarithmic in powers of two (8k, 16k ... 1M); time and epochs are
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
    QLineSeries* criticalSeries() const { return critical_; }
    // The shaded regions, each a rectangle in axis units (x from, x to): below and above the
    // measured convergence points, and the batches that do not fit in HBM.
    std::vector<std::pair<double, double>> extrapolatedRegions() const;
    std::optional<std::pair<double, double>> hbmRegion() const;
    const FigureAxis& batchAxis() const { return *batch_; }
    const FigureAxis& timeAxis() const { return *timeAxis_; }
    const FigureFrame& frame() const { return *frame_; }

private:
    void placeRegionLabels();

    BatchFigure figure_;
    FigureFrame* frame_;
    QAreaSeries* extrapolatedBelow_;
    QAreaSeries* extrapolatedAbove_;
    QAreaSeries* hbm_;
    QLineSeries* critical_;
    QLineSeries* time_;
    QLineSeries* epochs_;
    QScatterSeries* fastest_;
    QScatterSeries* current_;
    QScatterSeries* measured_;
    FigureAxis* batch_;
    FigureAxis* timeAxis_;
    FigureAxis* epochsAxis_;
    std::vector<QGraphicsSimpleTextItem*> regionLabels_;
};

} // namespace podscope::ui
