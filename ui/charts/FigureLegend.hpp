#pragma once

#include <QBrush>
#include <QFont>
#include <QGraphicsObject>
#include <QPen>
#include <QScatterSeries>
#include <QString>
#include <vector>

class QChart;

namespace podscope::ui {

// One entry of a figure's legend: a sample of the series' line, marker or fill, and its name.
struct LegendEntry {
    enum class Symbol { Line, LineAndMarker, Marker, Box };
    QString label;
    // The name a small figure's legend shows where the full one would take too many rows
    // ("measured" for "measured, MLPerf v0.7"); the caption says the rest. Empty: the label.
    QString shortLabel;
    Symbol symbol = Symbol::Line;
    QPen pen;
    QBrush brush;
    QScatterSeries::MarkerShape shape = QScatterSeries::MarkerShapeCircle;
    qreal markerSize = 8;
};

// A legend that wraps its entries into as many centred rows as the width needs and never
// shortens a name: Qt's own legend puts every entry on one row and cuts long names
// ("gradient sync (ex..."). FigureFrame places it under the plot.
class FigureLegend : public QGraphicsObject {
    Q_OBJECT
public:
    explicit FigureLegend(QGraphicsItem* parent = nullptr);

    // The chart's named series that have points, in the chart's order; of a bar series, the sets
    // with a value other than zero. A series' short name is its setShortLegendName().
    static std::vector<LegendEntry> entriesOf(const QChart& chart);
    // The name the legend of a small figure may show for the series (or bar set) instead.
    static void setShortLegendName(QObject* seriesOrSet, const QString& name);

    void setEntries(std::vector<LegendEntry> entries);
    const std::vector<LegendEntry>& entries() const { return entries_; }
    void setFont(const QFont& font);
    // Whether the entries show their short labels.
    void setCompact(bool compact);
    bool compact() const { return compact_; }
    bool hasShortLabels() const;
    const QString& labelOf(const LegendEntry& entry) const;
    // Lays the entries out in rows no wider than `width`; returns the height they take.
    qreal layOut(qreal width);
    // Lays the entries out one under another (for a legend beside the plot); returns the size
    // they take.
    QSizeF layOutColumn();

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    qreal entryWidth(const LegendEntry& entry) const;
    qreal symbolWidth() const;
    void paintSymbol(QPainter& painter, const LegendEntry& entry, QRectF box) const;

    std::vector<LegendEntry> entries_;
    std::vector<QPointF> positions_; // of each entry's top left
    QFont font_;
    QSizeF size_;
    bool compact_ = false;
};

} // namespace podscope::ui
