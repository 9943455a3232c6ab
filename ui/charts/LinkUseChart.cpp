#include "charts/LinkUseChart.hpp"

#include "charts/ChartStyle.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCursor>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace podscope::ui {
namespace {

constexpr int kBands = 10;

} // namespace

LinkUseChart::LinkUseChart(QWidget* parent)
    : QChartView(parent)
    , histogram_(new QBarSeries)
    , perDimension_(new QBarSeries)
    , bands_(new QBarCategoryAxis)
    , links_(new QValueAxis) {
    auto* chart = new QChart;
    styleChart(chart, tr("Link utilisation over the collective"));
    chart->addSeries(histogram_);
    QStringList labels;
    for (int b = 0; b < kBands; ++b) {
        labels << QString("%1-%2").arg(b * 100 / kBands).arg((b + 1) * 100 / kBands);
    }
    bands_->append(labels);
    bands_->setTitleText(tr("utilisation (%)"));
    links_->setTitleText(tr("links"));
    links_->setLabelFormat("%.0f");
    chart->addAxis(bands_, Qt::AlignBottom);
    chart->addAxis(links_, Qt::AlignLeft);
    histogram_->attachAxis(bands_);
    histogram_->attachAxis(links_);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    connect(histogram_, &QBarSeries::hovered, this, [](bool status, int index, QBarSet* set) {
        if (status) {
            QToolTip::showText(QCursor::pos(), QString("%1: %2 links").arg(set->label()).arg(set->at(index), 0, 'f', 0));
        } else {
            QToolTip::hideText();
        }
    });
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
            counts[static_cast<std::size_t>(std::min(kBands - 1, static_cast<int>(u * kBands)))] += 1;
            sum += u;
            used += 1;
        }
        auto* set = new QBarSet(tr("%1 links").arg(QChar(names[d])));
        for (double c : counts) {
            set->append(c);
            tallest = std::max(tallest, c);
        }
        histogram_->append(set);
        means << tr("%1 %2 %").arg(QChar(names[d])).arg(used > 0 ? 100 * sum / used : 0, 0, 'f', 1);
    }
    links_->setRange(0, tallest * 1.1 + 1);
    chart()->setTitle(tr("Link utilisation over the collective (mean per dimension: %1)").arg(means.join(", ")));
}

} // namespace podscope::ui
