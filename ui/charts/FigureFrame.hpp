#pragma once

#include "charts/FigureStyle.hpp"

#include <QFont>
#include <QObject>
#include <QString>
#include <vector>

class QChart;

namespace podscope::ui {

class FigureAxis;
class FigureLegend;

// What every figure has around its plot, kept fitted to the chart's size: a title (and a
// subtitle) wrapped onto more lines rather than cut, a legend under the plot that wraps rather
// than cuts (or beside it, where rows under it would take too much of the height), axes
// re-ticked for the plot's length whenever it changes, and text that shrinks with a small
// figure (figureTextScale). A small figure whose title "Topic: what against what" needs two
// lines shows the topic alone. A chart makes one, registers its FigureAxes, and calls refresh()
// after changing its series.
class FigureFrame : public QObject {
    Q_OBJECT
public:
    explicit FigureFrame(QChart* chart);

    void setTitle(const QString& title, const QString& subtitle = {});
    // The axis is added to the chart at `alignment` (Qt::AlignBottom, AlignLeft or AlignRight).
    void addAxis(FigureAxis* axis, Qt::Alignment alignment);
    FigureLegend* legend() const { return legend_; }
    QChart* chart() const { return chart_; }
    // The text scale at the chart's size, and a font of the figure at it (for labels a chart
    // places itself).
    double textScale() const { return textScale_; }
    QFont font(FigureFont role) const { return figureFont(role, textScale_); }
    // Whether the legend stands beside the plot rather than under it.
    bool legendBeside() const { return legendBeside_; }

    // Rebuilds the legend from the series and fits title, legend and ticks to the size.
    void refresh();

signals:
    // The plot area moved or changed size (after the axes were fitted to it): for labels that
    // the chart places itself.
    void plotAreaFitted();

private:
    void fitToSize();
    void fitAxes();
    void applyTextScale();
    void placeLegendBeside();

    QChart* chart_;
    FigureLegend* legend_;
    std::vector<std::pair<FigureAxis*, Qt::Orientation>> axes_;
    QString title_;
    QString subtitle_;
    bool fitting_ = false;
    double textScale_ = 1;
    bool legendBeside_ = false;
};

} // namespace podscope::ui
