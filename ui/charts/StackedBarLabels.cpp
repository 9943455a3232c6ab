#include "charts/StackedBarLabels.hpp"

#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <algorithm>

namespace podscope::ui {

namespace {

struct Beside {
    qreal anchorY; // the part's middle
    qreal y;       // the label's middle, after spreading
    QString text;
    QColor colour;
};

// Perceived brightness 0..255 of a fill: dark fills take white text.
int luminance(const QColor& c) {
    return (299 * c.red() + 587 * c.green() + 114 * c.blue()) / 1000;
}

} // namespace

StackedBarLabels::StackedBarLabels(FigureFrame* frame, QAbstractBarSeries* series,
                                   std::function<QString(double)> format,
                                   std::function<QString(double)> total)
    : QObject(frame)
    , frame_(frame)
    , series_(series)
    , format_(std::move(format))
    , total_(std::move(total)) {
    connect(frame, &FigureFrame::plotAreaFitted, this, &StackedBarLabels::place);
}

// The items are the chart's children: the chart, destroyed before this (its QObject child),
// has deleted them.
StackedBarLabels::~StackedBarLabels() = default;

void StackedBarLabels::setFormat(std::function<QString(double)> format,
                                 std::function<QString(double)> total) {
    format_ = std::move(format);
    total_ = std::move(total);
}

void StackedBarLabels::clear() {
    for (QGraphicsItem* item : items_) {
        delete item;
    }
    items_.clear();
    inside_ = beside_ = totals_ = 0;
}

void StackedBarLabels::place() {
    clear();
    QChart* chart = frame_->chart();
    const QRectF plot = chart->plotArea();
    const auto sets = series_->barSets();
    if (sets.isEmpty() || plot.isEmpty()) {
        return;
    }
    const QFont font = frame_->font(FigureFont::ValueLabel);
    const QFontMetricsF metrics(font);
    const qreal half = series_->barWidth() / 2;
    auto text = [&](const QString& s, QPointF topLeft, const QColor& colour) {
        auto* item = new QGraphicsSimpleTextItem(s, chart);
        item->setFont(font);
        item->setBrush(colour);
        item->setPos(topLeft);
        item->setZValue(10);
        items_.push_back(item);
    };
    int columns = 0;
    for (QBarSet* set : sets) {
        columns = std::max(columns, static_cast<int>(set->count()));
    }
    // Compact: totals only when each fits its column's share of the plot, with a gap.
    bool showTotals = true;
    if (compact_ && columns > 0) {
        const qreal pitch = plot.width() / columns;
        for (int column = 0; column < columns && showTotals; ++column) {
            qreal sum = 0;
            for (QBarSet* set : sets) {
                sum += column < set->count() ? set->at(column) : 0;
            }
            showTotals = sum <= 0 || metrics.horizontalAdvance(total_(sum)) + 6 <= pitch;
        }
    }
    for (int column = 0; column < columns; ++column) {
        qreal bottom = 0;
        std::vector<Beside> beside;
        qreal barRight = 0, barLeft = 0, barTop = plot.bottom();
        for (QBarSet* set : sets) {
            const qreal value = column < set->count() ? set->at(column) : 0;
            if (!(value > 0)) {
                continue;
            }
            const QPointF low = chart->mapToPosition(QPointF(column - half, bottom), series_);
            const QPointF high =
                chart->mapToPosition(QPointF(column + half, bottom + value), series_);
            const QRectF part = QRectF(low, high).normalized();
            barLeft = part.left();
            barRight = part.right();
            barTop = std::min(barTop, part.top());
            bottom += value;
            const QString label = format_(value);
            const qreal width = metrics.horizontalAdvance(label);
            if (part.height() >= metrics.height() + 2 && part.width() >= width + 6) {
                const QColor fill = set->brush().color();
                text(label,
                     QPointF(part.center().x() - width / 2,
                             part.center().y() - metrics.height() / 2),
                     luminance(fill) < 140 ? QColor(Qt::white) : toColor(palette::kText));
                ++inside_;
            } else {
                beside.push_back(
                    {part.center().y(), part.center().y(), label, set->brush().color()});
            }
        }
        if (bottom <= 0) {
            continue;
        }
        // The total on top of the bar.
        // Compact: a total that would rise above the plot (a short chart) is left to the
        // tooltip rather than run into the title.
        if (showTotals && !(compact_ && barTop - metrics.height() - 2 < plot.top() - 1)) {
            const QString total = total_(bottom);
            text(total,
                 QPointF((barLeft + barRight) / 2 - metrics.horizontalAdvance(total) / 2,
                         barTop - metrics.height() - 2),
                 toColor(palette::kText));
            ++totals_;
        }
        if (compact_) {
            continue;
        }
        // Small parts beside the bar, top to bottom as stacked, a line apart, inside the plot.
        std::sort(beside.begin(), beside.end(),
                  [](const Beside& a, const Beside& b) { return a.anchorY < b.anchorY; });
        const qreal pitch = metrics.height();
        for (std::size_t i = 0; i < beside.size(); ++i) {
            if (i > 0) {
                beside[i].y = std::max(beside[i].y, beside[i - 1].y + pitch);
            }
        }
        for (std::size_t i = beside.size(); i-- > 0;) {
            const qreal limit =
                i + 1 < beside.size() ? beside[i + 1].y - pitch : plot.bottom() - pitch / 2;
            beside[i].y = std::min(beside[i].y, limit);
        }
        const qreal swatch = metrics.height() * 0.6;
        const qreal labelX = barRight + metrics.height() * 1.2;
        for (const Beside& b : beside) {
            auto* leader =
                new QGraphicsLineItem(QLineF(barRight, b.anchorY, labelX - 2, b.y), chart);
            leader->setPen(figurePen(palette::kGrey, 0.8));
            leader->setZValue(10);
            items_.push_back(leader);
            auto* box =
                new QGraphicsRectItem(QRectF(labelX, b.y - swatch / 2, swatch, swatch), chart);
            box->setBrush(b.colour);
            box->setPen(figurePen(palette::kGrey, 0.5));
            box->setZValue(10);
            items_.push_back(box);
            text(b.text, QPointF(labelX + swatch + 3, b.y - metrics.height() / 2),
                 toColor(palette::kText));
            ++beside_;
        }
    }
}

} // namespace podscope::ui
