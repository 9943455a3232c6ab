#include "charts/BreakdownChart.hpp"

#include "charts/ChartStyle.hpp"
#include "color/ColorScale.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCursor>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace podscope::ui {

BreakdownChart::BreakdownChart(QWidget* parent)
    : QChartView(parent)
    , series_(new QStackedBarSeries)
    , categories_(new QBarCategoryAxis)
    , milliseconds_(new QValueAxis) {
    auto* chart = new QChart;
    styleChart(chart, tr("Step time breakdown"));
    chart->addSeries(series_);
    milliseconds_->setTitleText(tr("ms per step"));
    milliseconds_->setLabelFormat("%.1f");
    chart->addAxis(categories_, Qt::AlignBottom);
    chart->addAxis(milliseconds_, Qt::AlignLeft);
    series_->attachAxis(categories_);
    series_->attachAxis(milliseconds_);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    connect(series_, &QStackedBarSeries::hovered, this, [](bool status, int index, QBarSet* set) {
        if (status) {
            QToolTip::showText(QCursor::pos(), QString("%1: %2 ms").arg(set->label()).arg(set->at(index), 0, 'f', 3));
        } else {
            QToolTip::hideText();
        }
    });
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
    return milliseconds_->max();
}

void BreakdownChart::rebuild() {
    series_->clear();
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
    double top = 0;
    for (std::size_t i = 0; i < std::size(kBreakdownParts); ++i) {
        auto* set = new QBarSet(tr(kBreakdownParts[i].label));
        const Rgb color = categoryColor(static_cast<int>(i));
        set->setColor(QColor(color.r, color.g, color.b));
        for (const StepBreakdown* b : shown) {
            set->append(b->*kBreakdownParts[i].seconds * 1e3);
        }
        series_->append(set);
    }
    for (const StepBreakdown* b : shown) {
        top = std::max(top, b->total() * 1e3);
    }
    categories_->clear();
    categories_->append(columns);
    top = std::max(top, heldMs_);
    milliseconds_->setRange(0, top > 0 ? top * 1.1 : 1);
}

} // namespace podscope::ui
