#include "charts/FigureLegend.hpp"

#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

// Rows a little more than a line apart.
constexpr qreal kRowSpacing = 1.2;
constexpr const char* kShortName = "podscopeShortLegendName";

QString shortNameOf(const QObject& object) {
    return object.property(kShortName).toString();
}

bool anyNonZero(const QBarSet& set) {
    for (int i = 0; i < set.count(); ++i) {
        if (set.at(i) != 0) {
            return true;
        }
    }
    return false;
}

} // namespace

FigureLegend::FigureLegend(QGraphicsItem* parent)
    : QGraphicsObject(parent)
    , font_(figureFont(FigureFont::Legend)) {}

std::vector<LegendEntry> FigureLegend::entriesOf(const QChart& chart) {
    std::vector<LegendEntry> entries;
    for (QAbstractSeries* series : chart.series()) {
        if (!series->isVisible()) {
            continue;
        }
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : bars->barSets()) {
                if (!set->label().isEmpty() && anyNonZero(*set)) {
                    entries.push_back({set->label(),
                                       shortNameOf(*set),
                                       LegendEntry::Symbol::Box,
                                       set->pen(),
                                       set->brush(),
                                       {},
                                       0});
                }
            }
            continue;
        }
        if (series->name().isEmpty()) {
            continue;
        }
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            if (scatter->count() > 0) {
                entries.push_back({scatter->name(), shortNameOf(*scatter),
                                   LegendEntry::Symbol::Marker, scatter->pen(), scatter->brush(),
                                   scatter->markerShape(), scatter->markerSize()});
            }
        } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
            if (line->count() > 0) {
                entries.push_back({line->name(), shortNameOf(*line),
                                   line->pointsVisible() ? LegendEntry::Symbol::LineAndMarker
                                                         : LegendEntry::Symbol::Line,
                                   line->pen(), QBrush(line->pen().color()),
                                   QScatterSeries::MarkerShapeCircle, line->markerSize()});
            }
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            entries.push_back({area->name(),
                               shortNameOf(*area),
                               LegendEntry::Symbol::Box,
                               area->pen(),
                               area->brush(),
                               {},
                               0});
        }
    }
    return entries;
}

void FigureLegend::setShortLegendName(QObject* seriesOrSet, const QString& name) {
    seriesOrSet->setProperty(kShortName, name);
}

void FigureLegend::setCompact(bool compact) {
    if (compact != compact_) {
        prepareGeometryChange();
        compact_ = compact;
        positions_.clear();
        update();
    }
}

bool FigureLegend::hasShortLabels() const {
    return std::ranges::any_of(entries_, [](const LegendEntry& e) {
        return !e.shortLabel.isEmpty() && e.shortLabel != e.label;
    });
}

const QString& FigureLegend::labelOf(const LegendEntry& entry) const {
    return compact_ && !entry.shortLabel.isEmpty() ? entry.shortLabel : entry.label;
}

void FigureLegend::setEntries(std::vector<LegendEntry> entries) {
    entries_ = std::move(entries);
    positions_.clear();
    update();
}

void FigureLegend::setFont(const QFont& font) {
    if (font != font_) {
        prepareGeometryChange();
        font_ = font;
        positions_.clear();
        update();
    }
}

QSizeF FigureLegend::layOutColumn() {
    prepareGeometryChange();
    const QFontMetricsF metrics(font_);
    const qreal rowHeight = metrics.height() * kRowSpacing;
    positions_.assign(entries_.size(), QPointF());
    qreal widest = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        positions_[i] = QPointF(0, static_cast<qreal>(i) * rowHeight);
        widest = std::max(widest, entryWidth(entries_[i]));
    }
    size_ = QSizeF(widest, static_cast<qreal>(entries_.size()) * rowHeight);
    update();
    return size_;
}

qreal FigureLegend::symbolWidth() const {
    // A compact legend's line samples are shorter, still long enough for a dash to show.
    return QFontMetricsF(font_).height() * (compact_ ? 1.6 : 2);
}

qreal FigureLegend::entryWidth(const LegendEntry& entry) const {
    const QFontMetricsF metrics(font_);
    return symbolWidth() + metrics.horizontalAdvance(QStringLiteral(" ")) +
           metrics.horizontalAdvance(labelOf(entry));
}

qreal FigureLegend::layOut(qreal width) {
    prepareGeometryChange();
    positions_.assign(entries_.size(), QPointF());
    const QFontMetricsF metrics(font_);
    const qreal spacing = metrics.horizontalAdvance(QStringLiteral("M")) * (compact_ ? 0.8 : 1.5);
    const qreal rowHeight = metrics.height() * kRowSpacing;
    // Greedy rows, then each row centred in the width.
    std::vector<std::pair<std::size_t, std::size_t>> rows; // [first, last)
    qreal used = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        const qreal w = entryWidth(entries_[i]);
        if (i > first && used + spacing + w > width) {
            rows.push_back({first, i});
            first = i;
            used = 0;
        }
        used += (i > first ? spacing : 0) + w;
    }
    if (first < entries_.size()) {
        rows.push_back({first, entries_.size()});
    }
    qreal widest = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        qreal rowWidth = 0;
        for (std::size_t i = rows[r].first; i < rows[r].second; ++i) {
            rowWidth += (i > rows[r].first ? spacing : 0) + entryWidth(entries_[i]);
        }
        widest = std::max(widest, rowWidth);
        qreal x = std::max<qreal>(0, (width - rowWidth) / 2);
        for (std::size_t i = rows[r].first; i < rows[r].second; ++i) {
            positions_[i] = QPointF(x, static_cast<qreal>(r) * rowHeight);
            x += entryWidth(entries_[i]) + spacing;
        }
    }
    size_ = QSizeF(std::max(width, widest), static_cast<qreal>(rows.size()) * rowHeight);
    update();
    return size_.height();
}

QRectF FigureLegend::boundingRect() const {
    return QRectF(QPointF(0, 0), size_);
}

void FigureLegend::paintSymbol(QPainter& painter, const LegendEntry& entry, QRectF box) const {
    const QPointF centre = box.center();
    auto marker = [&](qreal size) {
        const qreal r = size / 2;
        painter.setPen(entry.symbol == LegendEntry::Symbol::Marker ? entry.pen : Qt::NoPen);
        painter.setBrush(entry.brush);
        switch (entry.shape) {
        case QScatterSeries::MarkerShapeRectangle:
            painter.drawRect(QRectF(centre.x() - r, centre.y() - r, size, size));
            break;
        case QScatterSeries::MarkerShapeRotatedRectangle: {
            QPainterPath diamond;
            diamond.moveTo(centre.x(), centre.y() - r * 1.25);
            diamond.lineTo(centre.x() + r * 1.25, centre.y());
            diamond.lineTo(centre.x(), centre.y() + r * 1.25);
            diamond.lineTo(centre.x() - r * 1.25, centre.y());
            diamond.closeSubpath();
            painter.drawPath(diamond);
            break;
        }
        case QScatterSeries::MarkerShapeTriangle: {
            QPainterPath triangle;
            triangle.moveTo(centre.x(), centre.y() - r);
            triangle.lineTo(centre.x() + r, centre.y() + r);
            triangle.lineTo(centre.x() - r, centre.y() + r);
            triangle.closeSubpath();
            painter.drawPath(triangle);
            break;
        }
        case QScatterSeries::MarkerShapePentagon:
        case QScatterSeries::MarkerShapeStar: {
            // Five corners from the top; a star alternates them with inner ones.
            const bool star = entry.shape == QScatterSeries::MarkerShapeStar;
            const int corners = star ? 10 : 5;
            QPainterPath shape;
            for (int i = 0; i < corners; ++i) {
                const qreal radius = star && i % 2 ? r * 0.45 : r * 1.1;
                const qreal angle = -M_PI / 2 + 2 * M_PI * i / corners;
                const QPointF corner(centre.x() + radius * std::cos(angle),
                                     centre.y() + radius * std::sin(angle));
                i == 0 ? shape.moveTo(corner) : shape.lineTo(corner);
            }
            shape.closeSubpath();
            painter.drawPath(shape);
            break;
        }
        default:
            painter.drawEllipse(centre, r, r);
        }
    };
    switch (entry.symbol) {
    case LegendEntry::Symbol::Line:
    case LegendEntry::Symbol::LineAndMarker:
        painter.setPen(entry.pen);
        painter.drawLine(QPointF(box.left(), centre.y()), QPointF(box.right(), centre.y()));
        if (entry.symbol == LegendEntry::Symbol::LineAndMarker) {
            marker(std::min(entry.markerSize, box.height() * 0.7));
        }
        break;
    case LegendEntry::Symbol::Marker:
        marker(std::min(entry.markerSize, box.height() * 0.8));
        break;
    case LegendEntry::Symbol::Box: {
        const qreal side = box.height() * 0.75;
        painter.setPen(QPen(toColor(palette::kGrey), 0.5));
        painter.setBrush(entry.brush);
        painter.drawRect(QRectF(centre.x() - side / 2, centre.y() - side / 2, side, side));
        break;
    }
    }
}

void FigureLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (positions_.size() != entries_.size()) {
        return;
    }
    const QFontMetricsF metrics(font_);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(font_);
    const qreal symbol = symbolWidth();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        const QPointF at = positions_[i];
        paintSymbol(*painter, entries_[i], QRectF(at.x(), at.y(), symbol, metrics.height()));
        painter->setPen(toColor(palette::kText));
        painter->drawText(
            QPointF(at.x() + symbol + metrics.horizontalAdvance(' '), at.y() + metrics.ascent()),
            labelOf(entries_[i]));
    }
    painter->restore();
}

} // namespace podscope::ui
