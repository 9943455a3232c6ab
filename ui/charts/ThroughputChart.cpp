#include "charts/ThroughputChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QCategoryAxis>
#include <QLineSeries>
#include <QScatterSeries>
#include <algorithm>

namespace podscope::ui {

ThroughputChart::ThroughputChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , model_(new QLineSeries)
    , ideal_(new QLineSeries)
    , measured_(new QScatterSeries)
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
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{ideal_, model_, measured_}) {
        chart->addSeries(series);
    }
    chips_->setTitle(tr("chips"));
    throughput_->setTitle(tr("throughput (examples/s)"));
    frame_->addAxis(chips_, Qt::AlignBottom);
    frame_->addAxis(throughput_, Qt::AlignLeft);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{ideal_, model_, measured_}) {
        series->attachAxis(chips_->axis());
        series->attachAxis(throughput_->axis());
    }
    setChart(chart);
    styleChartView(this);
    showValuesOnHover(model_, this, *chips_, tr("chips"), *throughput_, tr("examples/s"));
    showValuesOnHover(measured_, this, *chips_, tr("chips"), *throughput_, tr("examples/s"));
    setFigure({});
}

void ThroughputChart::setAnalysis(const TrainingAnalysis& analysis) {
    setFigure(scalingFigure(analysis));
}

void ThroughputChart::setFigure(const ScalingFigure& figure) {
    figure_ = figure;
    const auto ideal = idealScaling(figure);
    double lowChips = 16, highChips = 4096, low = 1e300, high = 0;
    for (const auto* points : {&figure.model, &ideal, &figure.measured}) {
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
    ideal_->setName(figure.model.empty()
                        ? QString()
                        : tr("ideal: linear from %1 chips").arg(figure.model.front().x));
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.model.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

} // namespace podscope::ui
