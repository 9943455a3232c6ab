#pragma once

#include "charts/FigureStyle.hpp"

#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QAbstractBarSeries;
class QGraphicsItem;

namespace podscope::ui {

class FigureFrame;

// Values on stacked bars, placed by the chart's geometry: a part tall enough shows its value
// inside; a small part gets its value beside the bar with a leader line and a swatch of its
// colour (stacked in the same order, never overlapping); each bar shows its total on top.
class StackedBarLabels : public QObject {
    Q_OBJECT
public:
    // `format` writes a value in the axis' unit ("2.62"); `total` a bar's total ("47.0 ms").
    StackedBarLabels(FigureFrame* frame, QAbstractBarSeries* series,
                     std::function<QString(double)> format, std::function<QString(double)> total);
    ~StackedBarLabels() override;
    void setFormat(std::function<QString(double)> format, std::function<QString(double)> total);
    // For many narrow bars side by side: no labels beside the bars (they would run into the
    // neighbours), and the totals only when every one fits within its bar's share of the width
    // and below the top of the plot.
    void setCompact(bool compact) { compact_ = compact; }

    // Labels drawn now (for tests): inside, beside the bars, totals.
    int insideCount() const { return inside_; }
    int besideCount() const { return beside_; }
    int totalCount() const { return totals_; }

    // Rebuilds the labels for the series' values and the plot's geometry.
    void place();

private:
    void clear();

    FigureFrame* frame_;
    QAbstractBarSeries* series_;
    std::function<QString(double)> format_;
    std::function<QString(double)> total_;
    std::vector<QGraphicsItem*> items_;
    int inside_ = 0;
    int beside_ = 0;
    int totals_ = 0;
    bool compact_ = false;
};

} // namespace podscope::ui
