#include "charts/LinkUseChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "figure/FigureData.hpp"
#include "figure/Palette.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QCursor>
#include <QFontMetricsF>
#include <QToolTip>
#include <algorithm>

namespace podscope::ui {
namespace {

constexpr int kBands = 10;

} // namespace

LinkUseChart::LinkUseChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , histogram_(new QBarSeries)
    , bands_(new QBarCategoryAxis)
    , links_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Linear, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    chart->addSeries(histogram_);
    styleAxis(bands_);
    bands_->setGridLineVisible(false);
    labelBands();
    connect(frame_, &FigureFrame::plotAreaFitted, this, &LinkUseChart::labelBands);
    links_->setTitle(tr("links"));
    chart->addAxis(bands_, Qt::AlignBottom);
    frame_->addAxis(links_, Qt::AlignLeft);
    histogram_->attachAxis(bands_);
    histogram_->attachAxis(links_->axis());
    frame_->setTitle(tr("Link utilisation over the collective"));
    setChart(chart);
    styleChartView(this);
    connect(histogram_, &QBarSeries::hovered, this, [](bool status, int index, QBarSet* set) {
        if (status) {
            QToolTip::showText(
                QCursor::pos(),
                QString("%1: %2 links").arg(set->label()).arg(set->at(index), 0, 'f', 0));
        } else {
            QToolTip::hideText();
        }
    });
}

void LinkUseChart::labelBands() {
    const qreal pitch = frame_->chart()->plotArea().width() / kBands;
    const QFontMetricsF metrics(bands_->labelsFont());
    const bool ranges =
        pitch <= 0 || metrics.horizontalAdvance(QStringLiteral("90-100  ")) <= pitch;
    QStringList labels;
    for (int b = 0; b < kBands; ++b) {
        labels << (ranges ? QString("%1-%2").arg(b * 100 / kBands).arg((b + 1) * 100 / kBands)
                          : QString::number(b * 100 / kBands));
    }
    if (bands_->categories() == labels) {
        return;
    }
    bands_->clear();
    bands_->append(labels);
    bands_->setTitleText(ranges ? tr("link utilisation over the collective (%)")
                                : tr("link utilisation over the collective (%, from)"));
}

void LinkUseChart::setRun(const ScenarioRun& run) {
    // One set per dimension, so the bars also show where each dimension's links sit.
    histogram_->clear();
    const Topology& t = run.topology;
    const auto& usage = run.simulation.links;
    static const char* names = "XYZW";
    double tallest = 0;
    QStringList means;
    for (int d = 0; d < t.rank(); ++d) {
        std::vector<double> counts(kBands, 0);
        double sum = 0, used = 0;
        for (LinkId l = 0; l < t.linkSlotCount(); ++l) {
            if (t.linkDim(l) != d || !t.linkExists(l)) {
                continue;
            }
            const double u = std::clamp(usage.utilization(l), 0.0, 1.0);
            counts[static_cast<std::size_t>(std::min(kBands - 1, static_cast<int>(u * kBands)))] +=
                1;
            sum += u;
            used += 1;
        }
        auto* set = new QBarSet(tr("%1 links").arg(QChar(names[d % 4])));
        set->setColor(toColor(palette::dimensionColor(d)));
        set->setBorderColor(Qt::white);
        for (double c : counts) {
            set->append(c);
            tallest = std::max(tallest, c);
        }
        histogram_->append(set);
        means << tr("%1 %2 %")
                     .arg(QChar(names[d % 4]))
                     .arg(used > 0 ? 100 * sum / used : 0, 0, 'f', 1);
    }
    links_->setData(0, tallest > 0 ? tallest * 1.05 : 1);
    frame_->setTitle(tr("Link utilisation over the collective"),
                     tr("%1 chips; mean utilisation per dimension: %2")
                         .arg(QString::fromStdString(groupDigits(double(t.chipCount()))))
                         .arg(means.join(", ")));
    frame_->refresh();
}

} // namespace podscope::ui
