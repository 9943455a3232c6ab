#include "charts/LayerTimeChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/StackedBarLabels.hpp"
#include "figure/Palette.hpp"
#include "figure/TimeUnit.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QBarSet>
#include <QCategoryAxis>
#include <QCursor>
#include <QFontMetricsF>
#include <QStackedBarSeries>
#include <QToolTip>
#include <algorithm>
#include <cctype>
#include <set>

namespace podscope::ui {
namespace {

// Layers a bar's tooltip lists by name; the rest are counted.
constexpr std::size_t kTooltipLayers = 10;

// "layer07" -> "07" when the name ends in digits after other text, else empty.
QString numberOf(const QString& name) {
    qsizetype digits = name.size();
    while (digits > 0 && name[digits - 1].isDigit()) {
        --digits;
    }
    return digits > 0 && digits < name.size() ? name.mid(digits) : QString();
}

// The name without its number: "layer07" -> "layer".
QString stemOf(const QString& name) {
    return name.left(name.size() - numberOf(name).size());
}

} // namespace

LayerTimeChart::LayerTimeChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , series_(new QStackedBarSeries)
    , categories_(new QCategoryAxis)
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
    categories_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    categories_->setTitleText(tr("layer group"));
    chart->addAxis(categories_, Qt::AlignBottom);
    frame_->addAxis(time_, Qt::AlignLeft);
    series_->attachAxis(categories_);
    series_->attachAxis(time_->axis());
    labels_ = new StackedBarLabels(frame_, series_, threeDigits, threeDigits);
    labels_->setCompact(true);
    connect(frame_, &FigureFrame::plotAreaFitted, this, &LayerTimeChart::labelBars);
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
    shownNames_.clear();
    for (const QString& label : categories_->categoriesLabels()) {
        categories_->remove(label);
    }
    // Bar i stands at x = i.
    categories_->setStartValue(-0.5);
    categories_->setRange(-0.5, std::max<double>(0.5, double(names.size()) - 0.5));
    time_->setTitle(tr("time per step (%1)").arg(unit_));
    // Headroom for the totals on top of the bars.
    time_->setData(0, top > 0 ? top * unit.perSecond * 1.12 : 1);
    labels_->setFormat(threeDigits, threeDigits);
    frame_->setTitle(QString::fromStdString(title(figure)),
                     figure.layers.empty() ? QString() : QString::fromStdString(subtitle(figure)));
    frame_->refresh();
}

void LayerTimeChart::labelBars() {
    const QRectF plot = frame_->chart()->plotArea();
    const int count = static_cast<int>(bars_.bars.size());
    if (plot.isEmpty() || count == 0) {
        return;
    }
    const QFontMetricsF metrics(categories_->labelsFont());
    const qreal pitch = plot.width() / count;
    const qreal gap = metrics.horizontalAdvance(QStringLiteral("  "));
    std::vector<QString> names;
    for (const LayerGroup& bar : bars_.bars) {
        names.push_back(QString::fromStdString(bar.name));
    }
    // Every name, when each fits under its bar; else a run of numbered groups (layer00 ...
    // layer23) by its numbers at every step-th bar, the largest step needed, and the other names
    // where they leave room.
    const bool allFit = std::ranges::all_of(
        names, [&](const QString& name) { return metrics.horizontalAdvance(name) + gap <= pitch; });
    std::vector<std::pair<int, QString>> shown;
    if (allFit) {
        for (int i = 0; i < count; ++i) {
            shown.push_back({i, names[static_cast<std::size_t>(i)]});
        }
    } else {
        // Runs: consecutive names with one stem and a number.
        std::vector<int> runStart(static_cast<std::size_t>(count), -1);
        for (int i = 0; i < count; ++i) {
            const QString& name = names[static_cast<std::size_t>(i)];
            if (numberOf(name).isEmpty()) {
                continue;
            }
            const bool continues = i > 0 && runStart[static_cast<std::size_t>(i - 1)] >= 0 &&
                                   stemOf(names[static_cast<std::size_t>(i - 1)]) == stemOf(name);
            runStart[static_cast<std::size_t>(i)] =
                continues ? runStart[static_cast<std::size_t>(i - 1)] : i;
        }
        qreal widestNumber = 0;
        for (int i = 0; i < count; ++i) {
            if (runStart[static_cast<std::size_t>(i)] >= 0) {
                widestNumber = std::max(widestNumber, metrics.horizontalAdvance(numberOf(
                                                          names[static_cast<std::size_t>(i)])));
            }
        }
        int step = 1;
        for (int candidate : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32}) {
            step = candidate;
            if (widestNumber + gap <= pitch * candidate) {
                break;
            }
        }
        // Candidates: the runs' numbers first (regular, so they read as an axis), then the other
        // names; each only where it overlaps no label placed before it.
        std::vector<std::pair<int, QString>> candidates;
        for (int i = 0; i < count; ++i) {
            const int start = runStart[static_cast<std::size_t>(i)];
            if (start >= 0 && (i - start) % step == 0) {
                candidates.push_back({i, numberOf(names[static_cast<std::size_t>(i)])});
            }
        }
        for (int i = 0; i < count; ++i) {
            if (runStart[static_cast<std::size_t>(i)] < 0) {
                candidates.push_back({i, names[static_cast<std::size_t>(i)]});
            }
        }
        std::vector<std::pair<qreal, qreal>> taken; // extents, in plot x
        for (const auto& [index, text] : candidates) {
            const qreal centre = (index + 0.5) * pitch;
            const qreal half = metrics.horizontalAdvance(text) / 2 + gap / 2;
            // Within the plot's width: past its left edge lie the time axis' labels.
            const bool inside = centre - half >= 0 && centre + half <= plot.width();
            const bool free = std::ranges::none_of(taken, [&](const auto& extent) {
                return centre - half < extent.second && centre + half > extent.first;
            });
            if (inside && free) {
                taken.push_back({centre - half, centre + half});
                shown.push_back({index, text});
            }
        }
        std::ranges::sort(shown);
    }
    if (shown == shownNames_) {
        return;
    }
    shownNames_ = shown;
    for (const QString& label : categories_->categoriesLabels()) {
        categories_->remove(label);
    }
    categories_->setStartValue(-0.5);
    std::set<QString> used; // the axis keeps one label per text
    for (const auto& [index, text] : shown) {
        if (used.insert(text).second) {
            categories_->append(text, index);
        }
    }
    categories_->setRange(-0.5, double(count) - 0.5);
    // Numbers alone need the axis to say what they count.
    const bool numbered = std::ranges::any_of(shown, [&](const auto& label) {
        return label.second != names[static_cast<std::size_t>(label.first)];
    });
    QString title = tr("layer group");
    if (numbered) {
        // "07" under a bar of layer07: the title names the pattern, "layer group (layerNN)".
        QStringList stems;
        for (const auto& [index, text] : shown) {
            const QString& name = names[static_cast<std::size_t>(index)];
            if (text != name && !stems.contains(stemOf(name) + "NN")) {
                stems << stemOf(name) + "NN";
            }
        }
        title = tr("layer group (%1)").arg(stems.join(", "));
    }
    if (categories_->titleText() != title.toHtmlEscaped()) {
        categories_->setTitleText(title.toHtmlEscaped());
    }
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
