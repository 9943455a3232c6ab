#pragma once

#include "charts/FigureStyle.hpp"

#include <QFont>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <vector>

class QChart;
class QXYSeries;

namespace podscope::ui {

class FigureAxis;
class FigureLegend;

// What every figure has around its plot, kept fitted to the chart's size: a title (and a
// subtitle) wrapped onto more lines rather than cut, a legend under the plot that wraps rather
// than cuts (or beside it, where rows under it would take too much of the height), axes
// re-ticked for the plot's length whenever it changes, and text that shrinks with a small
// figure (figureTextScale). A small figure whose title "Topic: what against what" needs two
// lines shows the topic alone, and a subtitle listing "a, b, c" the clauses that fit one line;
// its legend shows the series' short names (FigureLegend::setShortLegendName) where the full
// ones would take too many rows. Each axis keeps the data's end markers whole inside the plot
// (FigureAxis::setEndMargin from the series' markers). A chart makes one, registers its FigureAxes,
// and calls refresh() after changing its series.
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

    // Keeps the series' line inside the plot: a line meant to run past the plot's edges (a
    // roof, a region's side) is cut at the axes' ranges (`clamp` false: each segment clipped;
    // true: each point moved onto the range, for a region's rectangle) whenever the axes are
    // fitted, so that formats without clipping (SVG) draw nothing outside the plot either.
    // The chart keeps setting the series' whole points; the frame remembers them.
    void keepInPlot(QXYSeries* series, FigureAxis* x, FigureAxis* y, bool clamp);

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
    void clipKeptSeries();

    struct Kept {
        QXYSeries* series;
        FigureAxis* x;
        FigureAxis* y;
        bool clamp;
        QList<QPointF> whole; // as the chart set them, in axis units
    };
    std::vector<Kept> kept_;
    bool clipping_ = false;

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
