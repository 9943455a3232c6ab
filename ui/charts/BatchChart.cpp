#include "charts/BatchChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QCategoryAxis>
#include <QLineSeries>
#include <QScatterSeries>
#include <algorithm>

namespace podscope::ui {

BatchChart::BatchChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , time_(new QLineSeries)
    , epochs_(new QLineSeries)
    , fastest_(new QScatterSeries)
    , current_(new QScatterSeries)
    , measured_(new QScatterSeries)
    , batch_(new FigureAxis(Qt::Horizontal, FigureAxis::Scale::Log2, NumberStyle::Binary))
    , timeAxis_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Auto, NumberStyle::Decimal))
    , epochsAxis_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Auto, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    time_->setName(tr("time to train"));
    time_->setPen(figurePen(palette::kModel, 2.5));
    time_->setPointsVisible(true);
    time_->setMarkerSize(4);
    epochs_->setName(tr("epochs to converge"));
    epochs_->setPen(figurePen(palette::kSecondModel, 2, Qt::DashLine));
    fastest_->setName(tr("fastest"));
    fastest_->setMarkerSize(15);
    fastest_->setColor(toColor(palette::kHighlight));
    fastest_->setBorderColor(toColor(palette::kText));
    current_->setName(tr("this configuration"));
    current_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    current_->setMarkerSize(10);
    current_->setColor(Qt::white);
    current_->setBorderColor(toColor(palette::kText));
    measured_->setName(tr("measured, MLPerf v0.7"));
    measured_->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    measured_->setMarkerSize(11);
    measured_->setColor(toColor(palette::kMeasured));
    measured_->setBorderColor(Qt::white);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{epochs_, time_, measured_, fastest_, current_}) {
        chart->addSeries(series);
    }
    batch_->setTitle(tr("global batch (examples; k = 1024)"));
    timeAxis_->setTitle(tr("time to train (s)"));
    epochsAxis_->setTitle(tr("epochs to converge"));
    epochsAxis_->axis()->setGridLineVisible(false); // the time axis' grid is the figure's
    frame_->addAxis(batch_, Qt::AlignBottom);
    frame_->addAxis(timeAxis_, Qt::AlignLeft);
    frame_->addAxis(epochsAxis_, Qt::AlignRight);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{time_, fastest_, current_, measured_}) {
        series->attachAxis(batch_->axis());
        series->attachAxis(timeAxis_->axis());
    }
    epochs_->attachAxis(batch_->axis());
    epochs_->attachAxis(epochsAxis_->axis());
    setChart(chart);
    styleChartView(this);
    showValuesOnHover(time_, this, *batch_, tr("examples per step"), *timeAxis_, tr("s to train"));
    showValuesOnHover(epochs_, this, *batch_, tr("examples per step"), *epochsAxis_, tr("epochs"));
    setFigure({});
}

void BatchChart::setAnalysis(const TrainingAnalysis& analysis) {
    setFigure(batchFigure(analysis));
}

void BatchChart::setFigure(const BatchFigure& figure) {
    figure_ = figure;
    double lowBatch = 1e300, highBatch = 0, lowTime = 1e300, highTime = 0, lowEpochs = 1e300,
           highEpochs = 0;
    for (const auto& p : figure.points) {
        lowBatch = std::min(lowBatch, p.batch);
        highBatch = std::max(highBatch, p.batch);
        lowTime = std::min(lowTime, p.timeToTrainS);
        highTime = std::max(highTime, p.timeToTrainS);
        lowEpochs = std::min(lowEpochs, p.epochs);
        highEpochs = std::max(highEpochs, p.epochs);
    }
    for (const auto& m : figure.measured) {
        lowBatch = std::min(lowBatch, m.x);
        highBatch = std::max(highBatch, m.x);
        lowTime = std::min(lowTime, m.y);
        highTime = std::max(highTime, m.y);
    }
    if (!(highBatch > 0)) {
        lowBatch = 1024;
        highBatch = 65536;
        lowTime = lowEpochs = 0;
        highTime = highEpochs = 1;
    }
    batch_->setData(lowBatch, highBatch);
    timeAxis_->setData(lowTime, highTime * (spansDecade(lowTime, highTime) ? 1 : 1.05));
    epochsAxis_->setData(lowEpochs, highEpochs * (spansDecade(lowEpochs, highEpochs) ? 1 : 1.05));
    QList<QPointF> time, epochs, fastest, current, measured;
    for (const auto& p : figure.points) {
        const double x = batch_->toAxis(p.batch);
        time.append({x, timeAxis_->toAxis(p.timeToTrainS)});
        epochs.append({x, epochsAxis_->toAxis(p.epochs)});
        if (figure.currentBatch && p.batch == *figure.currentBatch) {
            current.append(time.back());
        }
    }
    if (figure.fastest && *figure.fastest < figure.points.size()) {
        fastest.append(time[static_cast<qsizetype>(*figure.fastest)]);
    }
    for (const auto& m : figure.measured) {
        measured.append({batch_->toAxis(m.x), timeAxis_->toAxis(m.y)});
    }
    time_->replace(time);
    epochs_->replace(epochs);
    fastest_->replace(fastest);
    current_->replace(current);
    measured_->replace(measured);
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.points.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

} // namespace podscope::ui
