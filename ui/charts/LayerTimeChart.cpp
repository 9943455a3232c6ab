#include "charts/LayerTimeChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/StackedBarLabels.hpp"
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

namespace podscope::ui {
namespace {

// Layers a bar's tooltip lists by name; the rest are counted.
constexpr std::size_t kTooltipLayers = 10;

} // namespace

LayerTimeChart::LayerTimeChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , series_(new QStackedBarSeries)
    , categories_(new QBarCategoryAxis)
    , time_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Linear, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    series_->setBarWidth(0.6);
    // Forward in the model's colour, backward in the second one (as compute and its gradient).
    auto* forward = new QBarSet(tr("forward"));
    forward->setColor(toColor(palette::kSkyBlue));
    auto* backward = new QBarSet(tr("backward (input and weight gradients)"));
    backward->setColor(toColor(palette::kBlue));
    for (QBarSet* set : {forward, backward}) {
        set->setBorderColor(Qt::white);
        series_->append(set);
    }
    chart->addSeries(series_);
    styleAxis(categories_);
    categories_->setGridLineVisible(false);
    categories_->setTruncateLabels(false);
    categories_->setTitleText(tr("layer group"));
    chart->addAxis(categories_, Qt::AlignBottom);
    frame_->addAxis(time_, Qt::AlignLeft);
    series_->attachAxis(categories_);
    series_->attachAxis(time_->axis());
    labels_ = new StackedBarLabels(frame_, series_, threeDigits, threeDigits);
    labels_->setCompact(true);
    setChart(chart);
    styleChartView(this);
    connect(series_, &QStackedBarSeries::hovered, this, [this](bool status, int index, QBarSet*) {
        if (status) {
            QToolTip::showText(QCursor::pos(), tooltip(index));
        } else {
            QToolTip::hideText();
        }
    });
    setFigure({});
}

void LayerTimeChart::setAnalysis(const TrainingAnalysis& analysis) {
    setFigure(layersFigure(analysis));
}

void LayerTimeChart::setFigure(const LayersFigure& figure) {
    figure_ = figure;
    bars_ = layerBars(figure, kLayerBars);
    double top = 0;
    for (const LayerGroup& bar : bars_.bars) {
        top = std::max(top, bar.seconds());
    }
    const TimeUnit unit = timeUnitFor(top);
    secondsPerUnit_ = 1 / unit.perSecond;
    unit_ = QString::fromUtf8(unit.symbol);
    const auto sets = series_->barSets();
    QStringList names;
    for (QBarSet* set : sets) {
        set->remove(0, set->count());
    }
    for (const LayerGroup& bar : bars_.bars) {
        sets[0]->append(bar.forwardS * unit.perSecond);
        sets[1]->append(bar.backwardS * unit.perSecond);
        names << QString::fromStdString(bar.name);
    }
    categories_->clear();
    categories_->append(names);
    time_->setTitle(tr("time per step (%1)").arg(unit_));
    // Headroom for the totals on top of the bars.
    time_->setData(0, top > 0 ? top * unit.perSecond * 1.12 : 1);
    labels_->setFormat(threeDigits, threeDigits);
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.layers.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

QString LayerTimeChart::tooltip(int bar) const {
    if (bar < 0 || bar >= static_cast<int>(bars_.bars.size())) {
        return {};
    }
    const LayerGroup& group = bars_.bars[static_cast<std::size_t>(bar)];
    const double perUnit = 1 / secondsPerUnit_;
    const std::size_t groups = bars_.groupsPerBar[static_cast<std::size_t>(bar)];
    QStringList lines{
        tr("%1: %2 %3 (forward %4, backward %5), %6 layers in %7 groups")
            .arg(QString::fromStdString(group.name), threeDigits(group.seconds() * perUnit), unit_,
                 threeDigits(group.forwardS * perUnit), threeDigits(group.backwardS * perUnit))
            .arg(group.layers.size())
            .arg(groups)};
    std::vector<std::size_t> slowest = group.layers;
    std::stable_sort(slowest.begin(), slowest.end(), [this](std::size_t a, std::size_t b) {
        return figure_.layers[a].seconds() > figure_.layers[b].seconds();
    });
    for (std::size_t i = 0; i < slowest.size() && i < kTooltipLayers; ++i) {
        const LayerRow& row = figure_.layers[slowest[i]];
        lines << tr("  %1 (%2): %3 %4, bound by %5")
                     .arg(QString::fromStdString(row.name), QString::fromStdString(row.type),
                          threeDigits(row.seconds() * perUnit), unit_,
                          QString::fromLatin1(toString(row.bound)));
    }
    if (slowest.size() > kTooltipLayers) {
        lines << tr("  ... and %1 more (podscope-cli layers lists them all)")
                     .arg(slowest.size() - kTooltipLayers);
    }
    return lines.join('\n');
}

} // namespace podscope::ui
