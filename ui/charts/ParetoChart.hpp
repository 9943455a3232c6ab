#pragma once

#include "figure/ParetoFigure.hpp"

#include <QChartView>
#include <cstdint>
#include <optional>

class QLineSeries;
class QScatterSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;

// The search's Pareto front (figure/ParetoFigure.hpp): time to train against chips (a log2
// axis) or chip-seconds, the front as a line through its points, the configurations the table
// lists as markers of another shape, and the table's selected row ringed. Hovering a marker
// names its settings; clicking one (of the front or the list) reports its index. Elsewhere on the
// chart, the tooltip is the figure's caption.
class ParetoChart : public QChartView {
    Q_OBJECT
public:
    explicit ParetoChart(QWidget* parent = nullptr);
    // Clears the ring: indices belong to one search.
    void setFigure(const ParetoFigure& figure);
    const ParetoFigure& figure() const { return figure_; }
    // Rings the configuration with this index (a listed one or a point of the front); none
    // clears the ring.
    void setSelected(std::optional<std::uint64_t> index);
    std::optional<std::uint64_t> selected() const { return selected_; }

    // Points are stored on the axes' scales: costAxis().fromAxis(point.x()) is the cost.
    QLineSeries* frontSeries() const { return front_; }
    QScatterSeries* listedSeries() const { return listed_; }
    QScatterSeries* selectedSeries() const { return ring_; }
    const FigureAxis& costAxis() const { return *cost_; }
    // The time axis counts minutes or seconds: timeAxis().fromAxis(y) * this is seconds.
    const FigureAxis& timeAxis() const { return *time_; }
    double secondsPerTimeUnit() const { return secondsPerTimeUnit_; }
    const FigureFrame& frame() const { return *frame_; }

signals:
    // A marker of the front or of the listed configurations was clicked.
    void configurationClicked(std::uint64_t index);

private:
    const ParetoFigure::Point* nearest(const QPointF& position, bool listedOnly) const;
    QPointF toAxes(const ParetoFigure::Point& point) const;

    ParetoFigure figure_;
    std::optional<std::uint64_t> selected_;
    FigureFrame* frame_;
    QLineSeries* front_;
    QScatterSeries* listed_;
    QScatterSeries* ring_;
    FigureAxis* cost_;
    FigureAxis* time_;
    double secondsPerTimeUnit_ = 1;
};

} // namespace podscope::ui
