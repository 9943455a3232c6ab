#include "charts/ThroughputChart.hpp"

#include "charts/ChartStyle.hpp"

#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>

#include <algorithm>

namespace podscope::ui {

ThroughputChart::ThroughputChart(QWidget* parent)
    : QChartView(parent)
    , model_(new QLineSeries)
    , ideal_(new QLineSeries)
    , measured_(new QScatterSeries)
    , chipsAxis_(new QLogValueAxis)
    , throughputAxis_(new QLogValueAxis) {
    auto* chart = new QChart;
    styleChart(chart, tr("Throughput against chips"));
    model_->setName(tr("model"));
    model_->setPointsVisible(true);
    ideal_->setName(tr("ideal linear scaling"));
    QPen dashed(Qt::gray);
    dashed.setStyle(Qt::DashLine);
    dashed.setWidth(2);
    ideal_->setPen(dashed);
    measured_->setName(tr("measured, MLPerf v0.7 (at their own batch)"));
    measured_->setMarkerSize(11);
    for (auto* series : std::initializer_list<QAbstractSeries*>{ideal_, model_, measured_}) {
        chart->addSeries(series);
    }
    chipsAxis_->setBase(2);
    chipsAxis_->setLabelFormat("%g");
    chipsAxis_->setTitleText(tr("chips"));
    throughputAxis_->setBase(10);
    throughputAxis_->setLabelFormat("%.0e");
    throughputAxis_->setTitleText(tr("examples/s"));
    chart->addAxis(chipsAxis_, Qt::AlignBottom);
    chart->addAxis(throughputAxis_, Qt::AlignLeft);
    for (auto* series : std::initializer_list<QAbstractSeries*>{ideal_, model_, measured_}) {
        series->attachAxis(chipsAxis_);
        series->attachAxis(throughputAxis_);
    }
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    showValuesOnHover(model_, this, tr("chips"), tr("examples/s"));
    showValuesOnHover(measured_, this, tr("chips"), tr("examples/s"));
}

void ThroughputChart::setAnalysis(const TrainingAnalysis& analysis) {
    QList<QPointF> model, ideal, measured;
    for (const auto& p : analysis.byChips) {
        model.append({p.x, p.throughputExamplesPerS});
    }
    if (!analysis.byChips.empty()) {
        const auto& first = analysis.byChips.front();
        for (const auto& p : analysis.byChips) {
            ideal.append({p.x, first.throughputExamplesPerS * p.x / first.x});
        }
    }
    // Measured runs at their own global batch: the gap to the curve shows what batch costs.
    for (const auto& m : analysis.measured) {
        measured.append({m.chips, m.throughputExamplesPerS});
    }
    model_->replace(model);
    ideal_->replace(ideal);
    measured_->replace(measured);
    double low = 1e300, high = 0;
    for (const auto* list : {&model, &ideal, &measured}) {
        for (const auto& p : *list) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
    }
    if (high > 0) {
        throughputAxis_->setRange(low / 1.5, high * 1.5);
    }
    chipsAxis_->setRange(8, 8192);
    chart()->setTitle(tr("Throughput against chips (global batch %1, %2)")
                          .arg(analysis.scenario.globalBatch)
                          .arg(QString::fromStdString(analysis.scenario.workload)));
}

} // namespace podscope::ui
