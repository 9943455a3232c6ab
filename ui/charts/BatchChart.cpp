#include "charts/BatchChart.hpp"

#include "charts/ChartStyle.hpp"

#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace podscope::ui {

BatchChart::BatchChart(QWidget* parent)
    : QChartView(parent)
    , time_(new QLineSeries)
    , epochs_(new QLineSeries)
    , fastest_(new QScatterSeries)
    , current_(new QScatterSeries)
    , batchAxis_(new QLogValueAxis)
    , timeAxis_(new QValueAxis)
    , epochsAxis_(new QValueAxis) {
    auto* chart = new QChart;
    styleChart(chart, tr("Time to train against global batch"));
    time_->setName(tr("time to train"));
    time_->setPointsVisible(true);
    epochs_->setName(tr("epochs to converge"));
    QPen dashed(QColor(120, 120, 120));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidth(2);
    epochs_->setPen(dashed);
    fastest_->setName(tr("fastest"));
    fastest_->setMarkerSize(14);
    fastest_->setColor(QColor(213, 94, 0));
    current_->setName(tr("current"));
    current_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    current_->setMarkerSize(10);
    current_->setColor(QColor(0, 114, 178));
    for (auto* series : std::initializer_list<QAbstractSeries*>{time_, epochs_, fastest_, current_}) {
        chart->addSeries(series);
    }
    batchAxis_->setBase(2);
    batchAxis_->setLabelFormat("%g");
    batchAxis_->setTitleText(tr("global batch (examples)"));
    timeAxis_->setTitleText(tr("time to train (s)"));
    timeAxis_->setLabelFormat("%.0f");
    epochsAxis_->setTitleText(tr("epochs"));
    epochsAxis_->setLabelFormat("%.3g"); // BERT converges in a few hundredths of an epoch
    chart->addAxis(batchAxis_, Qt::AlignBottom);
    chart->addAxis(timeAxis_, Qt::AlignLeft);
    chart->addAxis(epochsAxis_, Qt::AlignRight);
    for (auto* series : std::initializer_list<QAbstractSeries*>{time_, fastest_, current_}) {
        series->attachAxis(batchAxis_);
        series->attachAxis(timeAxis_);
    }
    epochs_->attachAxis(batchAxis_);
    epochs_->attachAxis(epochsAxis_);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    showValuesOnHover(time_, this, tr("examples per step"), tr("s to train"));
    showValuesOnHover(epochs_, this, tr("examples per step"), tr("epochs"));
}

void BatchChart::setAnalysis(const TrainingAnalysis& analysis) {
    QList<QPointF> time, epochs, fastest, current;
    double slowest = 0, mostEpochs = 0;
    for (const auto& p : analysis.byBatch) {
        time.append({p.x, p.timeToTrainS});
        epochs.append({p.x, p.epochs});
        slowest = std::max(slowest, p.timeToTrainS);
        mostEpochs = std::max(mostEpochs, p.epochs);
        if (p.x == static_cast<double>(analysis.scenario.globalBatch)) {
            current.append({p.x, p.timeToTrainS});
        }
    }
    if (analysis.fastestBatch) {
        const auto& best = analysis.byBatch[*analysis.fastestBatch];
        fastest.append({best.x, best.timeToTrainS});
    }
    time_->replace(time);
    epochs_->replace(epochs);
    fastest_->replace(fastest);
    current_->replace(current);
    if (!time.isEmpty()) {
        batchAxis_->setRange(time.front().x() / 1.5, time.back().x() * 1.5);
        timeAxis_->setRange(0, slowest * 1.1);
        epochsAxis_->setRange(0, mostEpochs * 1.1);
    }
    chart()->setTitle(tr("Time to train against global batch (%1 chips)").arg(analysis.result.chips));
}

} // namespace podscope::ui
