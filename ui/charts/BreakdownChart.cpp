#include "charts/BreakdownChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/StackedBarLabels.hpp"
#include "figure/FigureData.hpp"
#include "figure/Palette.hpp"
#include "figure/TimeUnit.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QCursor>
#include <QStackedBarSeries>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
BreakdownChart::BreakdownChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , series_(new QStackedBarSeries)
    , categories_(new QBarCategoryAxis)
    , time_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Linear, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    series_->setBarWidth(0.4); // room beside each bar for the values of small parts
    for (std::size_t i = 0; i < std::size(kBreakdownParts); ++i) {
        auto* set = new QBarSet(tr(kBreakdownParts[i].label));
        set->setColor(toColor(palette::breakdownPartColor(static_cast<int>(i))));
        set->setBorderColor(Qt::white);
        series_->append(set);
    }
    chart->addSeries(series_);
    styleAxis(categories_);
    categories_->setGridLineVisible(false);
    chart->addAxis(categories_, Qt::AlignBottom);
    frame_->addAxis(time_, Qt::AlignLeft);
    series_->attachAxis(categories_);
    series_->attachAxis(time_->axis());
    labels_ = new StackedBarLabels(frame_, series_, threeDigits, threeDigits);
    frame_->setTitle(tr("Step time breakdown"));
    setChart(chart);
    styleChartView(this);
    connect(series_, &QStackedBarSeries::hovered, this,
            [this](bool status, int index, QBarSet* set) {
                if (status) {
                    QToolTip::showText(
                        QCursor::pos(),
                        QString("%1: %2 %3").arg(set->label(), threeDigits(set->at(index)), unit_));
                } else {
                    QToolTip::hideText();
                }
            });
}

void BreakdownChart::setAnalysis(const TrainingAnalysis& analysis) {
    setSubtitle(
        tr("%1 on %2 chips, global batch %3")
            .arg(QString::fromStdString(analysis.scenario.workload),
                 QString::fromStdString(groupDigits(double(analysis.result.chips))),
                 QString::fromStdString(groupDigits(double(analysis.scenario.globalBatch)))));
    setCurrent(analysis.result.breakdown);
}

void BreakdownChart::setCurrent(const StepBreakdown& breakdown) {
    current_ = breakdown;
    rebuild();
}

void BreakdownChart::setBaseline(const std::optional<StepBreakdown>& baseline,
                                 const QString& baselineLabel, const QString& currentLabel) {
    baseline_ = baseline;
    baselineLabel_ = baselineLabel;
    currentLabel_ = currentLabel;
    rebuild();
}

void BreakdownChart::holdScale(double milliseconds) {
    heldMs_ = milliseconds > 0 ? milliseconds : 0;
    rebuild();
}

double BreakdownChart::scaleTop() const {
    return topMs_;
}

void BreakdownChart::setSubtitle(const QString& subtitle) {
    subtitle_ = subtitle;
    frame_->setTitle(tr("Step time breakdown"), subtitle_);
}

void BreakdownChart::rebuild() {
    QStringList columns;
    std::vector<const StepBreakdown*> shown;
    // Before, then after.
    if (baseline_) {
        columns << (baselineLabel_.isEmpty() ? tr("baseline") : baselineLabel_);
        shown.push_back(&*baseline_);
    }
    if (current_) {
        columns << (baselineLabel_.isEmpty() || currentLabel_.isEmpty() ? tr("current")
                                                                        : currentLabel_);
        shown.push_back(&*current_);
    }
    double top = heldMs_ / 1e3; // seconds
    for (const StepBreakdown* b : shown) {
        top = std::max(top, b->total());
    }
    // One unit for the axis and every label, chosen by the taller bar.
    const TimeUnit unit = timeUnitFor(top);
    const QString symbol = QString::fromUtf8(unit.symbol);
    unit_ = symbol;
    const auto sets = series_->barSets();
    for (std::size_t i = 0; i < std::size(kBreakdownParts); ++i) {
        QBarSet* set = sets[static_cast<qsizetype>(i)];
        set->remove(0, set->count());
        for (const StepBreakdown* b : shown) {
            set->append(b->*kBreakdownParts[i].seconds * unit.perSecond);
        }
    }
    categories_->clear();
    categories_->append(columns);
    // One bar alone is narrower: a quarter of the plot is wide enough to read its parts.
    series_->setBarWidth(shown.size() > 1 ? 0.4 : 0.25);
    time_->setTitle(tr("time per step (%1)").arg(symbol));
    // Headroom for the totals printed on top of the bars.
    const double axisTop = top > 0 ? top * unit.perSecond * 1.12 : 1;
    time_->setData(0, axisTop);
    topMs_ = axisTop / unit.perSecond * 1e3;
    labels_->setFormat(threeDigits, [symbol](double v) { return threeDigits(v) + " " + symbol; });
    frame_->refresh();
}

} // namespace podscope::ui
