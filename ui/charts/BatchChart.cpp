#include "charts/BatchChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <algorithm>

namespace podscope::ui {
namespace {

QAreaSeries* regionSeries(const QBrush& brush) {
    auto* area = new QAreaSeries(new QLineSeries, new QLineSeries);
    area->setBrush(brush);
    area->setPen(Qt::NoPen);
    return area;
}

// A rectangle from x0 to x1 over the whole height (the plot clips it).
void setRegion(QAreaSeries* area, double x0, double x1, double yLow, double yHigh) {
    area->upperSeries()->replace({{x0, yHigh}, {x1, yHigh}});
    area->lowerSeries()->replace({{x0, yLow}, {x1, yLow}});
    area->setVisible(x1 > x0);
}

std::optional<std::pair<double, double>> regionOf(const QAreaSeries* area) {
    if (!area->isVisible() || area->upperSeries()->count() < 2) {
        return std::nullopt;
    }
    return std::make_pair(area->upperSeries()->at(0).x(), area->upperSeries()->at(1).x());
}

// Refused batches the axis reaches (see setFigure).
constexpr std::size_t kRefusedOnAxis = 2;

QString gib(double bytes) {
    return QString::number(bytes / (1024.0 * 1024.0 * 1024.0), 'f', 1) + " GiB";
}

} // namespace

BatchChart::BatchChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    // Grey washes: the extrapolated batches lightly, the refused ones hatched over it.
    , extrapolatedBelow_(regionSeries(QColor(0, 0, 0, 22)))
    , extrapolatedAbove_(regionSeries(QColor(0, 0, 0, 22)))
    , hbm_(regionSeries(QBrush(toColor(palette::kGrey), Qt::BDiagPattern)))
    , critical_(new QLineSeries)
    , time_(new QLineSeries)
    , epochs_(new QLineSeries)
    , fastest_(new QScatterSeries)
    , current_(new QScatterSeries)
    , measured_(new QScatterSeries)
    , batch_(new FigureAxis(Qt::Horizontal, FigureAxis::Scale::Log2, NumberStyle::Binary))
    , timeAxis_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Auto, NumberStyle::Decimal))
    , epochsAxis_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Auto, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    hbm_->setName(tr("does not fit in HBM"));
    FigureLegend::setShortLegendName(hbm_, tr("over HBM"));
    critical_->setName(tr("critical batch of the fit"));
    FigureLegend::setShortLegendName(critical_, tr("critical batch"));
    critical_->setPen(figurePen(palette::kText, 1.5, Qt::DotLine));
    time_->setName(tr("time to train"));
    FigureLegend::setShortLegendName(time_, tr("time"));
    time_->setPen(figurePen(palette::kModel, 2.5));
    time_->setPointsVisible(true);
    time_->setMarkerSize(4);
    epochs_->setName(tr("epochs to converge"));
    FigureLegend::setShortLegendName(epochs_, tr("epochs"));
    epochs_->setPen(figurePen(palette::kSecondModel, 2, Qt::DashLine));
    fastest_->setName(tr("fastest"));
    fastest_->setMarkerSize(15);
    fastest_->setColor(toColor(palette::kHighlight));
    fastest_->setBorderColor(toColor(palette::kText));
    current_->setName(tr("this configuration"));
    FigureLegend::setShortLegendName(current_, tr("current"));
    current_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    current_->setMarkerSize(10);
    current_->setColor(Qt::white);
    current_->setBorderColor(toColor(palette::kText));
    measured_->setName(tr("measured, MLPerf v0.7"));
    FigureLegend::setShortLegendName(measured_, tr("measured"));
    measured_->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    measured_->setMarkerSize(11);
    measured_->setColor(toColor(palette::kMeasured));
    measured_->setBorderColor(Qt::white);
    // Regions behind everything; the lines and markers in the legend's order.
    for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*>{
             extrapolatedBelow_, extrapolatedAbove_, hbm_, critical_, epochs_, time_, measured_,
             fastest_, current_}) {
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
         std::initializer_list<QAbstractSeries*>{extrapolatedBelow_, extrapolatedAbove_, hbm_,
                                                 critical_, time_, fastest_, current_, measured_}) {
        series->attachAxis(batch_->axis());
        series->attachAxis(timeAxis_->axis());
    }
    epochs_->attachAxis(batch_->axis());
    epochs_->attachAxis(epochsAxis_->axis());
    // Regions and the critical batch run past the plot's edges; cut there for every format.
    for (QAreaSeries* area : {extrapolatedBelow_, extrapolatedAbove_, hbm_}) {
        frame_->keepInPlot(area->upperSeries(), batch_, timeAxis_, true);
        frame_->keepInPlot(area->lowerSeries(), batch_, timeAxis_, true);
    }
    frame_->keepInPlot(critical_, batch_, timeAxis_, false);
    setChart(chart);
    styleChartView(this);
    showValuesOnHover(time_, this, *batch_, tr("examples per step"), *timeAxis_, tr("s to train"));
    showValuesOnHover(epochs_, this, *batch_, tr("examples per step"), *epochsAxis_, tr("epochs"));
    for (QAreaSeries* area : {extrapolatedBelow_, extrapolatedAbove_}) {
        connect(area, &QAreaSeries::hovered, this, [this](const QPointF&, bool entered) {
            if (!entered || !figure_.measuredRange) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(
                QCursor::pos(),
                tr("Extrapolated: outside the measured convergence points (global batch %1 to "
                   "%2); epochs to converge follow the fit")
                    .arg(QString::fromStdString(groupDigits(figure_.measuredRange->first)),
                         QString::fromStdString(groupDigits(figure_.measuredRange->second))));
        });
    }
    connect(hbm_, &QAreaSeries::hovered, this, [this](const QPointF&, bool entered) {
        if (!entered || figure_.refused.empty()) {
            QToolTip::hideText();
            return;
        }
        QStringList lines{
            tr("Does not fit in HBM (%1 per core):").arg(gib(figure_.hbmCapacityBytes))};
        for (const auto& r : figure_.refused) {
            lines << tr("global batch %1 needs %2")
                         .arg(QString::fromStdString(groupDigits(r.batch)), gib(r.needsBytes));
        }
        QToolTip::showText(QCursor::pos(), lines.join('\n'));
    });
    connect(critical_, &QLineSeries::hovered, this, [this](const QPointF&, bool entered) {
        if (!entered) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(
            QCursor::pos(),
            tr("Critical batch B_noise = %1 (examples to converge: E_min (1 + B / B_noise))")
                .arg(QString::fromStdString(groupDigits(figure_.criticalBatch))));
    });
    connect(frame_, &FigureFrame::plotAreaFitted, this, &BatchChart::placeRegionLabels);
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
    // Refused batches stay on the axis: the hatched region shows where HBM ends. The first two
    // are enough to show it; more (BERT's sweep refuses 256k to 16M) would squash the points
    // that fit into a corner. The caption and the tooltip name them all.
    for (std::size_t i = 0; i < figure.refused.size() && i < kRefusedOnAxis; ++i) {
        lowBatch = std::min(lowBatch, figure.refused[i].batch);
        highBatch = std::max(highBatch, figure.refused[i].batch);
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

    // Regions and the critical batch span the plot's height and run past its ends (the plot
    // clips them), so that they meet the axes whatever ticks the axes choose.
    const double left = batch_->toAxis(lowBatch) - 2, right = batch_->toAxis(highBatch) + 2;
    const double yLow = std::min(timeAxis_->toAxis(lowTime), 0.0);
    const double yHigh = timeAxis_->toAxis(highTime);
    const double yPad = (yHigh - yLow + 1) * 2;
    const double bottom = yLow - yPad, top = yHigh + yPad;
    if (figure.measuredRange) {
        setRegion(extrapolatedBelow_, left, batch_->toAxis(figure.measuredRange->first), bottom,
                  top);
        setRegion(extrapolatedAbove_, batch_->toAxis(figure.measuredRange->second), right, bottom,
                  top);
    } else {
        extrapolatedBelow_->setVisible(false);
        extrapolatedAbove_->setVisible(false);
    }
    // One legend entry for the shading, on whichever part is drawn.
    extrapolatedBelow_->setName(extrapolatedBelow_->isVisible() ? tr("extrapolated") : QString());
    extrapolatedAbove_->setName(!extrapolatedBelow_->isVisible() && extrapolatedAbove_->isVisible()
                                    ? tr("extrapolated")
                                    : QString());
    if (!figure.refused.empty()) {
        setRegion(hbm_, batch_->toAxis(figure.refused.front().batch), right, bottom, top);
    } else {
        hbm_->setVisible(false);
    }
    const double critical = figure.criticalBatch;
    if (critical >= lowBatch && critical <= highBatch) {
        const double x = batch_->toAxis(critical);
        critical_->replace({{x, bottom}, {x, top}});
    } else {
        critical_->clear();
    }
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.points.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

std::vector<std::pair<double, double>> BatchChart::extrapolatedRegions() const {
    std::vector<std::pair<double, double>> regions;
    for (const QAreaSeries* area : {extrapolatedBelow_, extrapolatedAbove_}) {
        if (auto region = regionOf(area)) {
            regions.push_back(*region);
        }
    }
    return regions;
}

std::optional<std::pair<double, double>> BatchChart::hbmRegion() const {
    return regionOf(hbm_);
}

void BatchChart::placeRegionLabels() {
    for (QGraphicsSimpleTextItem* item : regionLabels_) {
        delete item;
    }
    regionLabels_.clear();
    QChart* chart = frame_->chart();
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty()) {
        return;
    }
    const QFont font = frame_->font(FigureFont::ValueLabel);
    const QFontMetricsF metrics(font);
    // Inside the top of each region, where it is wide enough; a second region's label a line
    // lower, so that overlapping regions keep their labels apart.
    std::vector<QRectF> placed;
    auto label = [&](const QAreaSeries* area, const QString& text) {
        const auto region = regionOf(area);
        if (!region) {
            return;
        }
        const qreal x0 =
            std::max(plot.left(), chart->mapToPosition(QPointF(region->first, 0), time_).x());
        const qreal x1 =
            std::min(plot.right(), chart->mapToPosition(QPointF(region->second, 0), time_).x());
        const qreal width = metrics.horizontalAdvance(text);
        if (x1 - x0 < width + 8) {
            return; // the legend names it
        }
        QRectF box(x0 + 4, plot.top() + 3, width, metrics.height());
        for (const QRectF& other : placed) {
            if (box.intersects(other)) {
                box.moveTop(other.bottom() + 1);
            }
        }
        if (box.bottom() > plot.bottom()) {
            return;
        }
        auto* item = new QGraphicsSimpleTextItem(text, chart);
        item->setFont(font);
        item->setBrush(toColor(palette::kText));
        item->setPos(box.topLeft());
        item->setZValue(10);
        regionLabels_.push_back(item);
        placed.push_back(box);
    };
    label(extrapolatedBelow_, tr("extrapolated"));
    label(extrapolatedAbove_, tr("extrapolated"));
    label(hbm_, tr("does not fit in HBM"));
}

} // namespace podscope::ui
