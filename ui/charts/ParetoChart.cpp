#include "charts/ParetoChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"
#include "search/TuneReport.hpp"

#include <QCategoryAxis>
#include <QCursor>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <algorithm>

namespace podscope::ui {
namespace {

constexpr double kMinutesFromS = 600;

} // namespace

ParetoChart::ParetoChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , front_(new QLineSeries)
    , listed_(new QScatterSeries)
    , ring_(new QScatterSeries)
    , cost_(new FigureAxis(Qt::Horizontal, FigureAxis::Scale::Log2, NumberStyle::Decimal))
    , time_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Auto, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    front_->setName(tr("Pareto front: fastest for its cost or less"));
    FigureLegend::setShortLegendName(front_, tr("Pareto front"));
    front_->setPen(figurePen(palette::kModel, 2.5));
    front_->setPointsVisible(true);
    front_->setMarkerSize(6);
    listed_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    listed_->setMarkerSize(9);
    listed_->setColor(toColor(palette::kSecondModel));
    listed_->setBorderColor(Qt::white);
    // A ring, not a disc: the marker under it stays visible.
    ring_->setName(tr("selected row"));
    FigureLegend::setShortLegendName(ring_, tr("selected"));
    ring_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    ring_->setMarkerSize(20);
    ring_->setColor(Qt::transparent);
    ring_->setPen(figurePen(palette::kHighlight, 3));
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{front_, listed_, ring_}) {
        // The table's rows over the front's line: several may share its point.
        chart->addSeries(series);
    }
    cost_->setTitle(tr("chips"));
    frame_->addAxis(cost_, Qt::AlignBottom);
    frame_->addAxis(time_, Qt::AlignLeft);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{front_, listed_, ring_}) {
        series->attachAxis(cost_->axis());
        series->attachAxis(time_->axis());
    }
    setChart(chart);
    styleChartView(this);
    for (QXYSeries* series : {static_cast<QXYSeries*>(front_), static_cast<QXYSeries*>(listed_)}) {
        const bool listedOnly = series == listed_;
        connect(
            series, &QXYSeries::hovered, this,
            [this, listedOnly](const QPointF& position, bool entered) {
                const ParetoFigure::Point* point =
                    entered ? nearest(position, listedOnly) : nullptr;
                if (!point) {
                    QToolTip::hideText();
                    return;
                }
                QToolTip::showText(
                    QCursor::pos(),
                    tr("configuration #%1\n%2\ntime to train %3")
                        .arg(point->index)
                        .arg(QString::fromStdString(point->label).replace(", ", "\n"))
                        .arg(QString::fromStdString(search::formatSeconds(point->timeToTrainS))));
            });
    }
    for (QXYSeries* series : {static_cast<QXYSeries*>(front_), static_cast<QXYSeries*>(listed_)}) {
        const bool listedOnly = series == listed_;
        connect(series, &QXYSeries::clicked, this, [this, listedOnly](const QPointF& position) {
            if (const ParetoFigure::Point* point = nearest(position, listedOnly)) {
                emit configurationClicked(point->index);
            }
        });
    }
    setFigure({});
}

QPointF ParetoChart::toAxes(const ParetoFigure::Point& point) const {
    return {cost_->toAxis(point.cost), time_->toAxis(point.timeToTrainS / secondsPerTimeUnit_)};
}

const ParetoFigure::Point* ParetoChart::nearest(const QPointF& position, bool listedOnly) const {
    const ParetoFigure::Point* best = nullptr;
    double bestDistance = 0;
    for (const auto* points : {&figure_.listed, &figure_.front}) {
        if (listedOnly && points == &figure_.front) {
            continue;
        }
        for (const ParetoFigure::Point& p : *points) {
            const double distance = QLineF(toAxes(p), position).length();
            if (!best || distance < bestDistance) {
                best = &p;
                bestDistance = distance;
            }
        }
    }
    return best;
}

void ParetoChart::setFigure(const ParetoFigure& figure) {
    figure_ = figure;
    double lowCost = 0, highCost = 0, low = 0, high = 0;
    bool any = false;
    for (const auto* points : {&figure.front, &figure.listed}) {
        for (const ParetoFigure::Point& p : *points) {
            lowCost = any ? std::min(lowCost, p.cost) : p.cost;
            highCost = any ? std::max(highCost, p.cost) : p.cost;
            low = any ? std::min(low, p.timeToTrainS) : p.timeToTrainS;
            high = any ? std::max(high, p.timeToTrainS) : p.timeToTrainS;
            any = true;
        }
    }
    if (!any) {
        lowCost = 16;
        highCost = 4096;
        low = 1;
        high = 10;
    }
    // A cost axis of one chip count still needs a span to draw on.
    if (figure.cost == ParetoFigure::Cost::Chips && highCost < 2 * lowCost) {
        lowCost /= 2;
        highCost *= 2;
    }
    // Chips are powers of two; chip-seconds are not, and rarely span a decade on a front.
    cost_->setScale(figure.cost == ParetoFigure::Cost::Chips ? FigureAxis::Scale::Log2
                                                             : FigureAxis::Scale::Auto);
    cost_->setTitle(QString::fromStdString(costAxisTitle(figure)));
    cost_->setData(lowCost, highCost);
    // Minutes once runs take more than ten (as MLPerf reports them), seconds below.
    secondsPerTimeUnit_ = high >= kMinutesFromS ? 60 : 1;
    time_->setTitle(secondsPerTimeUnit_ == 60 ? tr("time to train (min)")
                                              : tr("time to train (s)"));
    time_->setData(low / secondsPerTimeUnit_, high / secondsPerTimeUnit_);
    auto toList = [this](const std::vector<ParetoFigure::Point>& points) {
        QList<QPointF> list;
        for (const ParetoFigure::Point& p : points) {
            list.append(toAxes(p));
        }
        return list;
    };
    front_->replace(toList(figure.front));
    listed_->replace(toList(figure.listed));
    listed_->setName(figure.listed.empty()
                         ? QString()
                         : tr("the %1 best by %2, as listed")
                               .arg(figure.listed.size())
                               .arg(QString::fromStdString(figure.objective).replace('-', ' ')));
    FigureLegend::setShortLegendName(listed_, tr("%1 best").arg(figure.listed.size()));
    frame_->setTitle(QString::fromStdString(title(figure)),
                     QString::fromStdString(subtitle(figure)));
    // What the front says (where it stops paying), for a pointer resting off the markers.
    setToolTip(figure.front.empty() ? QString() : QString::fromStdString(caption(figure)));
    // An index of the previous search names another configuration in this one.
    setSelected(std::nullopt);
}

void ParetoChart::setSelected(std::optional<std::uint64_t> index) {
    selected_ = index;
    QList<QPointF> ring;
    if (index) {
        for (const auto* points : {&figure_.listed, &figure_.front}) {
            const auto it = std::ranges::find(*points, *index, &ParetoFigure::Point::index);
            if (it != points->end()) {
                ring.append(toAxes(*it));
                break;
            }
        }
    }
    ring_->replace(ring);
    frame_->refresh();
}

} // namespace podscope::ui
