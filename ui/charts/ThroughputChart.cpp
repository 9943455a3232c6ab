#include "charts/ThroughputChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QScatterSeries>
#include <algorithm>
#include <optional>
#include <vector>

namespace podscope::ui {

ThroughputChart::ThroughputChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , model_(new QLineSeries)
    , ideal_(new QLineSeries)
    , measured_(new QScatterSeries)
    , current_(new QScatterSeries)
    , chips_(new FigureAxis(Qt::Horizontal, FigureAxis::Scale::Log2, NumberStyle::Decimal))
    , throughput_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Log10, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    // The ideal line first and thin, so the model's line is drawn over it where they meet.
    ideal_->setPen(figurePen(palette::kReference, 1.5, Qt::DashLine));
    model_->setName(tr("model"));
    model_->setPen(figurePen(palette::kModel, 2.5));
    model_->setPointsVisible(true);
    model_->setMarkerSize(4);
    measured_->setName(tr("measured, MLPerf v0.7 (at its own global batch)"));
    FigureLegend::setShortLegendName(measured_, tr("measured"));
    FigureLegend::setShortLegendName(ideal_, tr("ideal"));
    measured_->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    measured_->setMarkerSize(11);
    measured_->setColor(toColor(palette::kMeasured));
    measured_->setBorderColor(Qt::white);
    // A square ring in the text colour, drawn last: around the model's point, and around a
    // measured point at the same chips without hiding it.
    current_->setName(tr("this configuration"));
    FigureLegend::setShortLegendName(current_, tr("current"));
    current_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    current_->setMarkerSize(15);
    current_->setColor(Qt::transparent);
    current_->setPen(figurePen(palette::kText, 2));
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{ideal_, model_, measured_, current_}) {
        chart->addSeries(series);
    }
    chips_->setTitle(tr("chips"));
    throughput_->setTitle(tr("throughput (examples/s)"));
    frame_->addAxis(chips_, Qt::AlignBottom);
    frame_->addAxis(throughput_, Qt::AlignLeft);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{ideal_, model_, measured_, current_}) {
        series->attachAxis(chips_->axis());
        series->attachAxis(throughput_->axis());
    }
    setChart(chart);
    styleChartView(this);
    showValuesOnHover(model_, this, *chips_, tr("chips"), *throughput_, tr("examples/s"));
    showValuesOnHover(measured_, this, *chips_, tr("chips"), *throughput_, tr("examples/s"));
    showValuesOnHover(current_, this, *chips_, tr("chips"), *throughput_, tr("examples/s"));
    connect(frame_, &FigureFrame::plotAreaFitted, this, &ThroughputChart::placeCurrentLabel);
    setFigure({});
}

void ThroughputChart::setAnalysis(const TrainingAnalysis& analysis) {
    setFigure(scalingFigure(analysis));
}

void ThroughputChart::setFigure(const ScalingFigure& figure) {
    figure_ = figure;
    const auto ideal = idealScaling(figure);
    double lowChips = 16, highChips = 4096, low = 1e300, high = 0;
    const std::vector<FigurePoint> current =
        figure.current ? std::vector<FigurePoint>{*figure.current} : std::vector<FigurePoint>{};
    for (const auto* points : {&figure.model, &ideal, &figure.measured, &current}) {
        for (const FigurePoint& p : *points) {
            lowChips = std::min(lowChips, p.x);
            highChips = std::max(highChips, p.x);
            low = std::min(low, p.y);
            high = std::max(high, p.y);
        }
    }
    if (!(high > 0)) {
        low = 1;
        high = 10;
    }
    chips_->setData(lowChips, highChips);
    throughput_->setData(low, high);
    auto toAxes = [this](const std::vector<FigurePoint>& points) {
        QList<QPointF> list;
        for (const FigurePoint& p : points) {
            list.append({chips_->toAxis(p.x), throughput_->toAxis(p.y)});
        }
        return list;
    };
    model_->replace(toAxes(figure.model));
    ideal_->replace(toAxes(ideal));
    measured_->replace(toAxes(figure.measured));
    current_->replace(toAxes(current));
    ideal_->setName(figure.model.empty()
                        ? QString()
                        : tr("ideal: linear from %1 chips").arg(figure.model.front().x));
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.model.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

// Beside the marker, where the label crosses no line and no other marker: below it and right
// of it first (throughput rises with chips and the curve bends below ideal, so that space is
// usually free), then left of it, above it, then further away; always inside the plot.
void ThroughputChart::placeCurrentLabel() {
    delete currentLabel_;
    currentLabel_ = nullptr;
    QChart* chart = frame_->chart();
    const QRectF plot = chart->plotArea();
    if (!figure_.current || plot.isEmpty() || current_->count() == 0) {
        return;
    }
    const QString text =
        tr("%1 chips: %2 examples/s")
            .arg(readableNumber(figure_.current->x), readableNumber(figure_.current->y));
    const QFont font = frame_->font(FigureFont::ValueLabel);
    const QFontMetricsF metrics(font);
    const QPointF at = chart->mapToPosition(current_->at(0), current_);
    const qreal gap = current_->markerSize() / 2 + 3;
    const QSizeF size(metrics.horizontalAdvance(text), metrics.height());
    // What the label must not cover: the lines (sampled along each segment) and the markers.
    std::vector<QPointF> taken;
    for (QXYSeries* series : std::initializer_list<QXYSeries*>{model_, ideal_}) {
        const QList<QPointF> points = series->points();
        for (qsizetype i = 0; i + 1 < points.size(); ++i) {
            const QPointF a = chart->mapToPosition(points[i], series);
            const QPointF b = chart->mapToPosition(points[i + 1], series);
            for (int k = 0; k <= 32; ++k) {
                taken.push_back(a + (b - a) * (k / 32.0));
            }
        }
    }
    for (const QPointF& p : measured_->points()) {
        taken.push_back(chart->mapToPosition(p, measured_));
    }
    const auto crosses = [&](const QRectF& box) {
        const QRectF grown = box.adjusted(-2, -2, 2, 2);
        return std::any_of(taken.begin(), taken.end(),
                           [&](const QPointF& p) { return grown.contains(p); });
    };
    // Nearest first: just below or above the marker, then a line and a half further each
    // time (a steep curve runs under a label beside its end point).
    std::vector<QRectF> candidates;
    for (int k = 0; k <= 8; ++k) {
        for (const qreal dy :
             {gap + k * 1.5 * size.height(), -gap - (1 + k * 1.5) * size.height()}) {
            for (const qreal dx : {gap, -gap - size.width()}) {
                candidates.emplace_back(QPointF(at.x() + dx, at.y() + dy), size);
            }
        }
    }
    const QRectF inside = plot.adjusted(2, 2, -2, -2);
    std::optional<QRectF> chosen, free;
    for (const QRectF& box : candidates) {
        if (inside.contains(box)) {
            chosen = chosen.value_or(box);
            if (!crosses(box)) {
                free = box;
                break;
            }
        }
    }
    if (free) {
        chosen = free;
    } else if (!chosen) {
        chosen = candidates.front();
        chosen->moveLeft(std::clamp(chosen->left(), inside.left(),
                                    std::max(inside.left(), inside.right() - size.width())));
        chosen->moveTop(std::clamp(chosen->top(), inside.top(),
                                   std::max(inside.top(), inside.bottom() - size.height())));
    }
    const qreal x = chosen->left();
    const qreal y = chosen->top();
    currentLabel_ = new QGraphicsSimpleTextItem(text, chart);
    currentLabel_->setFont(font);
    currentLabel_->setBrush(toColor(palette::kText));
    currentLabel_->setPos(x, y);
    currentLabel_->setZValue(10);
}

} // namespace podscope::ui
