#include "charts/FigureFrame.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/WordWrap.hpp"

#include <QAbstractAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QScatterSeries>
#include <QStringList>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <optional>

namespace podscope::ui {
namespace {

// The chart's margins without the legend's band.
constexpr QMargins kMargins(8, 6, 12, 6);
// Room the title's text document keeps around its text, and a little more.
constexpr qreal kTitleSlack = 24;
// Charts shorter than this (logical pixels) put title and subtitle on one line when they fit.
constexpr qreal kShortChart = 320;
// A legend under the plot may take this share of the figure's height; past it, one column
// beside the plot when that column takes at most kMostLegendBeside of the width (and fits
// kMostLegendBesideHeight of the height), else rows under it all the same.
constexpr qreal kMostLegendBelow = 0.16;
constexpr qreal kMostLegendBeside = 0.34;
constexpr qreal kMostLegendBesideHeight = 0.8;
constexpr int kLegendGap = 10;
constexpr qreal kLegendSide = 4;
constexpr qreal kStripAspect = 3;

QStringList escaped(QStringList lines) {
    for (QString& line : lines) {
        line = line.toHtmlEscaped();
    }
    return lines;
}

// Room a marker at the end of `axis` needs inside the plot: the radius of the largest marker
// drawn on it (scatter series, lines with their points shown) with its outline, and a pixel.
qreal markerRoom(const QChart& chart, const QAbstractAxis* axis) {
    qreal room = 0;
    for (QAbstractSeries* series : chart.series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy || !xy->isVisible() || xy->count() == 0 ||
            !xy->attachedAxes().contains(const_cast<QAbstractAxis*>(axis))) {
            continue;
        }
        const bool scatter = qobject_cast<QScatterSeries*>(xy) != nullptr;
        if (!scatter && !xy->pointsVisible()) {
            continue;
        }
        // A scatter marker's size is its width; a line draws its points with that radius.
        const qreal radius = scatter ? xy->markerSize() / 2 : xy->markerSize();
        room = std::max(room, radius + xy->pen().widthF() / 2 + 1);
    }
    return room;
}

// The part of the segment a-b inside `r` (Liang and Barsky), or nothing.
std::optional<std::pair<QPointF, QPointF>> clipSegment(QPointF a, QPointF b, const QRectF& r) {
    double t0 = 0, t1 = 1;
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[] = {-dx, dx, -dy, dy};
    const double q[] = {a.x() - r.left(), r.right() - a.x(), a.y() - r.top(), r.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) {
                return std::nullopt;
            }
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0) {
            t0 = std::max(t0, t);
        } else {
            t1 = std::min(t1, t);
        }
        if (t0 > t1) {
            return std::nullopt;
        }
    }
    return std::make_pair(QPointF(a.x() + t0 * dx, a.y() + t0 * dy),
                          QPointF(a.x() + t1 * dx, a.y() + t1 * dy));
}

// The polyline cut to `r` (for a line that crosses the rectangle once: a roof, a marker line).
QList<QPointF> clipPolyline(const QList<QPointF>& points, const QRectF& r) {
    if (points.size() < 2) {
        QList<QPointF> inside;
        for (const QPointF& p : points) {
            if (r.contains(p)) {
                inside.append(p);
            }
        }
        return inside;
    }
    QList<QPointF> out;
    for (qsizetype i = 1; i < points.size(); ++i) {
        if (const auto part = clipSegment(points[i - 1], points[i], r)) {
            if (out.isEmpty() || out.back() != part->first) {
                out.append(part->first);
            }
            out.append(part->second);
        }
    }
    return out;
}

} // namespace

FigureFrame::FigureFrame(QChart* chart)
    : QObject(chart)
    , chart_(chart)
    , legend_(new FigureLegend(chart)) {
    styleChart(chart);
    chart->setMargins(kMargins);
    connect(chart, &QChart::geometryChanged, this, &FigureFrame::fitToSize);
    connect(chart, &QChart::plotAreaChanged, this, &FigureFrame::fitAxes);
}

void FigureFrame::setTitle(const QString& title, const QString& subtitle) {
    title_ = title;
    subtitle_ = subtitle;
    fitToSize();
}

void FigureFrame::addAxis(FigureAxis* axis, Qt::Alignment alignment) {
    axis->setParent(this);
    chart_->addAxis(axis->axis(), alignment);
    axes_.push_back(
        {axis, alignment & (Qt::AlignLeft | Qt::AlignRight) ? Qt::Vertical : Qt::Horizontal});
}

void FigureFrame::keepInPlot(QXYSeries* series, FigureAxis* x, FigureAxis* y, bool clamp) {
    kept_.push_back({series, x, y, clamp, series->points()});
    auto remember = [this, series] {
        if (clipping_) {
            return;
        }
        for (Kept& k : kept_) {
            if (k.series == series) {
                k.whole = series->points();
            }
        }
    };
    connect(series, &QXYSeries::pointsReplaced, this, remember);
    connect(series, &QXYSeries::pointsRemoved, this, remember);
    connect(series, &QXYSeries::pointRemoved, this, remember);
    connect(series, &QXYSeries::pointAdded, this, remember);
}

void FigureFrame::clipKeptSeries() {
    clipping_ = true;
    for (const Kept& k : kept_) {
        const AxisTicks& xt = k.x->ticks();
        const AxisTicks& yt = k.y->ticks();
        if (xt.ticks.empty() || yt.ticks.empty()) {
            continue; // not fitted yet
        }
        const QRectF range(QPointF(k.x->toAxis(xt.low), k.y->toAxis(yt.low)),
                           QPointF(k.x->toAxis(xt.high), k.y->toAxis(yt.high)));
        QList<QPointF> points;
        if (k.clamp) {
            for (const QPointF& p : k.whole) {
                points.append({std::clamp(p.x(), range.left(), range.right()),
                               std::clamp(p.y(), range.top(), range.bottom())});
            }
        } else {
            points = clipPolyline(k.whole, range);
        }
        if (points != k.series->points()) {
            k.series->replace(points);
        }
    }
    clipping_ = false;
}

void FigureFrame::refresh() {
    legend_->setEntries(FigureLegend::entriesOf(*chart_));
    fitToSize();
    fitAxes();
}

void FigureFrame::applyTextScale() {
    const QFont title = font(FigureFont::Title);
    if (chart_->titleFont() != title) {
        chart_->setTitleFont(title);
    }
    legend_->setFont(font(FigureFont::Legend));
    const QFont ticks = font(FigureFont::TickLabel);
    const QFont axisTitle = font(FigureFont::AxisTitle);
    for (QAbstractAxis* axis : chart_->axes()) {
        const bool figureAxis = std::ranges::any_of(
            axes_, [axis](const auto& registered) { return registered.first->axis() == axis; });
        if (figureAxis) {
            continue; // fits its own title
        }
        if (axis->labelsFont() != ticks) {
            axis->setLabelsFont(ticks);
        }
        if (axis->titleFont() != axisTitle) {
            axis->setTitleFont(axisTitle);
        }
    }
    for (const auto& [axis, orientation] : axes_) {
        axis->setTextScale(textScale_);
    }
}

void FigureFrame::fitToSize() {
    const QSizeF size = chart_->size();
    const qreal width = size.width() - kMargins.left() - kMargins.right();
    if (width <= 0) {
        return;
    }
    textScale_ = figureTextScale(size);
    applyTextScale();

    // The legend first: rows under the plot, unless they would take much of a short figure's
    // height; then, on a small figure, its short names in rows (the caption says the rest);
    // then one column beside the plot if it leaves the plot most of the width; else rows all
    // the same. A wide strip (the chart dock) gains more height from a column than it loses
    // width.
    QMargins margins = kMargins;
    legendBeside_ = false;
    legend_->setCompact(false);
    const qreal most = kMostLegendBelow * size.height();
    const bool strip = size.width() >= kStripAspect * size.height();
    // Rows span the figure but for a few pixels each side (the axes' margins are not theirs).
    const qreal rowWidth = size.width() - 2 * kLegendSide;
    qreal below = legend_->entries().empty() ? 0 : legend_->layOut(rowWidth);
    if (textScale_ < 1 && (below > most || strip) && legend_->hasShortLabels()) {
        legend_->setCompact(true);
        below = legend_->layOut(rowWidth);
    }
    qreal besideWidth = 0;
    if (below > most || (below > 0 && strip)) {
        const QSizeF column = legend_->layOutColumn();
        if (column.width() <= kMostLegendBeside * width &&
            column.height() <= kMostLegendBesideHeight * size.height()) {
            legendBeside_ = true;
            besideWidth = std::ceil(column.width()) + kLegendGap;
            margins.setRight(kMargins.right() + static_cast<int>(besideWidth));
            below = 0;
        } else {
            below = legend_->layOut(rowWidth);
        }
    }
    if (below > 0) {
        margins.setBottom(kMargins.bottom() + static_cast<int>(std::ceil(below)) + 4);
    }

    // The title spans the chart less its margins: beside a legend column, that much less.
    const QFont titleFont = font(FigureFont::Title);
    const QFont subtitleFont = font(FigureFont::Subtitle);
    const qreal room = width - besideWidth - kTitleSlack;
    // A small figure keeps the topic of a "Topic: what against what" title on one line rather
    // than the whole title on two (the caption says the rest).
    QString title = title_;
    const qsizetype colon = title_.indexOf(QStringLiteral(": "));
    if (textScale_ < 1 && colon > 0 && wrapWords(title_, titleFont, room).size() > 1 &&
        QFontMetricsF(titleFont).horizontalAdvance(title_.left(colon)) <= room) {
        title = title_.left(colon);
    }
    // Likewise a subtitle that lists what the figure shows, "a, b, c", keeps the clauses that
    // fit one line; one that states values ("mean per dimension: X 6.0 %, Y 94.0 %") is kept
    // whole.
    QString subtitle = subtitle_;
    if (textScale_ < 1 && !subtitle.contains(':') && !subtitle.contains(';')) {
        while (wrapWords(subtitle, subtitleFont, room).size() > 1 &&
               subtitle.lastIndexOf(QStringLiteral(", ")) > 0) {
            subtitle.truncate(subtitle.lastIndexOf(QStringLiteral(", ")));
        }
    }
    const QString separator = QString::fromUtf8("  \xC2\xB7  ");
    const QString subtitleSpan =
        QString("<span style=\"font-size:%1px; font-weight:normal\">%2</span>")
            .arg(subtitleFont.pixelSize());
    QString html = "<div align=\"center\">";
    // A short chart (the app's chart dock) keeps its plot tall enough by putting the subtitle
    // beside the title when the line has room for both.
    const bool oneLine =
        (size.height() < kShortChart || textScale_ < 1) && !subtitle.isEmpty() &&
        QFontMetricsF(titleFont).horizontalAdvance(title) +
                QFontMetricsF(subtitleFont).horizontalAdvance(separator + subtitle) <=
            room;
    if (oneLine) {
        html += title.toHtmlEscaped() + subtitleSpan.arg((separator + subtitle).toHtmlEscaped());
    } else {
        html += escaped(wrapWords(title, titleFont, room)).join("<br>");
        const QStringList subtitleLines = wrapWords(subtitle, subtitleFont, room);
        if (!subtitleLines.isEmpty()) {
            html += "<br>" + subtitleSpan.arg(escaped(subtitleLines).join("<br>"));
        }
    }
    // A blank line of half a tick label's height under the title: the value axis' top label
    // stands half its height above the plot, which Qt's layout does not leave room for.
    html += QString("<div style=\"font-size:%1px\">&nbsp;</div>")
                .arg((font(FigureFont::TickLabel).pixelSize() + 1) / 2);
    html += "</div>";
    if (chart_->title() != html) {
        chart_->setTitle(html);
    }
    if (chart_->margins() != margins) {
        chart_->setMargins(margins);
    }
    legend_->setVisible(!legend_->entries().empty());
    if (legendBeside_) {
        placeLegendBeside();
    } else {
        legend_->setPos(kLegendSide, size.height() - kMargins.bottom() - below);
    }
}

void FigureFrame::placeLegendBeside() {
    // At the top of the plot, against the figure's right edge (right of any right-hand axis).
    const QRectF plot = chart_->plotArea();
    const qreal x = chart_->size().width() - kMargins.right() - legend_->boundingRect().width();
    const qreal y = plot.isEmpty() ? kMargins.top() : plot.top();
    legend_->setPos(x, std::max<qreal>(kMargins.top(), y));
}

void FigureFrame::fitAxes() {
    if (fitting_) {
        return;
    }
    fitting_ = true;
    const QRectF plot = chart_->plotArea();
    for (const auto& [axis, orientation] : axes_) {
        axis->setEndMargin(markerRoom(*chart_, axis->axis()));
        axis->fit(orientation == Qt::Horizontal ? plot.width() : plot.height());
    }
    clipKeptSeries();
    fitting_ = false;
    if (legendBeside_) {
        placeLegendBeside();
    }
    emit plotAreaFitted();
}

} // namespace podscope::ui
