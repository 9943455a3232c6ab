#include "charts/RooflineChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QCategoryAxis>
#include <QCursor>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

struct UnitStyle {
    const char* label;
    const char* shortLabel; // a small figure's legend
    Rgb colour;
    QScatterSeries::MarkerShape shape;
};
// CoreUnit order. Shapes differ as well as colours (the palette's rule).
constexpr UnitStyle kUnits[] = {
    {"bound by the MXUs", "MXU-bound", palette::kBlue, QScatterSeries::MarkerShapeCircle},
    {"bound by HBM", "HBM-bound", palette::kVermillion, QScatterSeries::MarkerShapeRectangle},
    {"bound by the vector unit", "vector-bound", palette::kBluishGreen,
     QScatterSeries::MarkerShapeTriangle},
    {"bound by the transcendental unit", "transcendental-bound", palette::kReddishPurple,
     QScatterSeries::MarkerShapeRotatedRectangle},
    {"bound by the permute unit (sorts)", "permute-bound", palette::kSkyBlue,
     QScatterSeries::MarkerShapePentagon},
    {"bound by the cost per kernel", "kernel-cost-bound", palette::kOrange,
     QScatterSeries::MarkerShapeStar},
};
static_assert(std::size(kUnits) == kCoreUnitCount, "one style per CoreUnit");

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , roof_(new QLineSeries)
    , peak_(new QLineSeries)
    , intensity_(new FigureAxis(Qt::Horizontal, FigureAxis::Scale::Log10, NumberStyle::Decimal))
    , flops_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Log10, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    roof_->setName(tr("roofs: HBM bandwidth, then the MXUs"));
    FigureLegend::setShortLegendName(roof_, tr("roofs"));
    roof_->setPen(figurePen(palette::kText, 2));
    peak_->setName(tr("nominal MXU peak"));
    FigureLegend::setShortLegendName(peak_, tr("MXU peak"));
    peak_->setPen(figurePen(palette::kGrey, 1.5, Qt::DashLine));
    chart->addSeries(peak_);
    chart->addSeries(roof_);
    for (std::size_t u = 0; u < layers_.size(); ++u) {
        auto* series = new QScatterSeries;
        series->setName(tr(kUnits[u].label));
        FigureLegend::setShortLegendName(series, tr(kUnits[u].shortLabel));
        series->setMarkerShape(kUnits[u].shape);
        // A star's arms are thin: it needs more room than the others to read as a star.
        series->setMarkerSize(kUnits[u].shape == QScatterSeries::MarkerShapeStar ? 14 : 9);
        series->setColor(toColor(kUnits[u].colour));
        series->setBorderColor(Qt::white);
        chart->addSeries(series);
        layers_[u] = series;
        connect(
            series, &QScatterSeries::hovered, this, [this, u](const QPointF& point, bool entered) {
                if (!entered) {
                    QToolTip::hideText();
                    return;
                }
                // The marker nearest the pointer (several layers may share a place).
                const QList<QPointF> points = layers_[u]->points();
                if (points.isEmpty()) {
                    return;
                }
                qsizetype nearest = 0;
                for (qsizetype i = 1; i < points.size(); ++i) {
                    if (QLineF(points[i], point).length() <
                        QLineF(points[nearest], point).length()) {
                        nearest = i;
                    }
                }
                const LayerRow& row = figure_.layers[shown_[u][static_cast<std::size_t>(nearest)]];
                QToolTip::showText(
                    QCursor::pos(),
                    tr("%1 (%2, %3)\n%4 FLOP/byte, %5 TFLOP/s achieved (%6 % of the roof)\n"
                       "%7 GFLOP, %8 MB of HBM traffic, %9 kernels")
                        .arg(QString::fromStdString(row.name), QString::fromStdString(row.group),
                             QString::fromStdString(row.type), threeDigits(row.arithmeticIntensity),
                             threeDigits(row.achievedFlops / 1e12),
                             threeDigits(100 * row.achievedFlops /
                                         figure_.roofAt(row.arithmeticIntensity)),
                             threeDigits(row.flops / 1e9), threeDigits(row.hbmBytes / 1e6))
                        .arg(row.kernels));
            });
    }
    intensity_->setTitle(tr("arithmetic intensity (FLOP per byte of HBM traffic)"));
    flops_->setTitle(tr("achieved (TFLOP/s)"));
    // A roofline reads in decades: each one labelled, at any size.
    intensity_->setEveryDecade(true);
    flops_->setEveryDecade(true);
    frame_->addAxis(intensity_, Qt::AlignBottom);
    frame_->addAxis(flops_, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(intensity_->axis());
        series->attachAxis(flops_->axis());
    }
    // The roofs run a decade past the data; cut at the plot's edges for every format.
    frame_->keepInPlot(roof_, intensity_, flops_, false);
    frame_->keepInPlot(peak_, intensity_, flops_, false);
    setChart(chart);
    styleChartView(this);
    setFigure({});
}

void RooflineChart::setAnalysis(const TrainingAnalysis& analysis) {
    setFigure(rooflineFigure(analysis));
}

void RooflineChart::setFigure(const RooflineFigure& figure) {
    figure_ = figure;
    double lowX = 1e300, highX = 0, lowY = 1e300;
    for (const LayerRow& row : figure.layers) {
        if (onRoofline(row)) {
            lowX = std::min(lowX, row.arithmeticIntensity);
            highX = std::max(highX, row.arithmeticIntensity);
            lowY = std::min(lowY, row.achievedFlops);
        }
    }
    const double ridge = figure.hbmBytesPerS > 0 ? figure.mxuRoofFlops() / figure.hbmBytesPerS : 0;
    if (highX <= 0 || ridge <= 0) {
        lowX = 1;
        highX = 1000;
        lowY = 1e11;
    }
    // The ridge in sight, and a decade either side of the points at most needed.
    lowX = std::min(lowX, ridge > 0 ? ridge : lowX) / 1.5;
    highX = std::max(highX, ridge > 0 ? ridge : highX) * 1.5;
    const double highY = std::max(figure.peakFlops, 1e12) * 1.3;
    lowY = std::min(lowY, figure.hbmBytesPerS > 0 ? figure.hbmBytesPerS * lowX : lowY) / 1.5;
    intensity_->setData(lowX, highX);
    flops_->setData(lowY / kFlopsPerUnit, highY / kFlopsPerUnit);
    auto at = [this](double intensity, double flops) {
        return QPointF(intensity_->toAxis(intensity), flops_->toAxis(flops / kFlopsPerUnit));
    };
    roof_->clear();
    peak_->clear();
    if (ridge > 0) {
        // The HBM roof is a straight line on log-log axes: its ends and the ridge suffice. The
        // ends lie a decade past the data, beyond whatever round ticks the axis picks; the plot
        // clips them at its edges.
        const double left = lowX / 10, right = highX * 10;
        roof_->append(at(left, figure.hbmBytesPerS * left));
        roof_->append(at(ridge, figure.mxuRoofFlops()));
        roof_->append(at(right, figure.mxuRoofFlops()));
        peak_->append(at(left, figure.peakFlops));
        peak_->append(at(right, figure.peakFlops));
    }
    for (std::size_t u = 0; u < layers_.size(); ++u) {
        QList<QPointF> points;
        shown_[u].clear();
        for (std::size_t i = 0; i < figure.layers.size(); ++i) {
            const LayerRow& row = figure.layers[i];
            if (onRoofline(row) && static_cast<std::size_t>(row.bound) == u) {
                points.append(at(row.arithmeticIntensity, row.achievedFlops));
                shown_[u].push_back(i);
            }
        }
        layers_[u]->replace(points);
    }
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.layers.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

} // namespace podscope::ui
