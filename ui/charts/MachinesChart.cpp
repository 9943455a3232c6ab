#include "charts/MachinesChart.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureStyle.hpp"
#include "common/NumberFormat.hpp"
#include "figure/Palette.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QCursor>
#include <QToolTip>
#include <algorithm>
#include <array>

namespace podscope::ui {
namespace {

// Colour and fill pattern per measure, so that the bars are told apart in grey too.
constexpr std::array<Rgb, 3> kColors{palette::kBlue, palette::kOrange, palette::kBluishGreen};
constexpr std::array<Qt::BrushStyle, 3> kPatterns{Qt::SolidPattern, Qt::BDiagPattern,
                                                  Qt::Dense4Pattern};

QString valueText(const MachinesFigure::Machine& m, MachineMeasure measure) {
    switch (measure) {
    case MachineMeasure::StepTime:
        return QString::fromStdString(readableDuration(m.stepTimeS));
    case MachineMeasure::TimeToTrain:
        return m.timeToTrainS > 0 ? QString::fromStdString(readableDuration(m.timeToTrainS))
                                  : QObject::tr("unknown");
    case MachineMeasure::ChipSeconds:
        return m.chipSeconds > 0
                   ? QObject::tr("%1 chip-hours").arg(threeDigits(m.chipSeconds / 3600))
                   : QObject::tr("unknown");
    }
    return {};
}

// What every machine's name starts with, up to and including its last '-', so that the
// columns can be labelled by the rest (a whole name is cut at a single column's width); empty
// when the names share no such prefix.
std::string sharedPrefix(const MachinesFigure& figure) {
    if (figure.machines.empty()) {
        return {};
    }
    std::string prefix = figure.machines.front().name;
    for (const auto& m : figure.machines) {
        std::size_t n = 0;
        while (n < prefix.size() && n < m.name.size() && prefix[n] == m.name[n]) {
            ++n;
        }
        prefix.resize(n);
    }
    const std::size_t dash = prefix.rfind('-');
    prefix.resize(dash == std::string::npos ? 0 : dash + 1);
    for (const auto& m : figure.machines) {
        if (m.name.size() == prefix.size()) {
            return {};
        }
    }
    return prefix;
}

} // namespace

MachinesChart::MachinesChart(QWidget* parent)
    : QChartView(parent)
    , frame_(new FigureFrame(new QChart))
    , series_(new QBarSeries)
    , categories_(new QBarCategoryAxis)
    , relative_(new FigureAxis(Qt::Vertical, FigureAxis::Scale::Linear, NumberStyle::Decimal)) {
    QChart* chart = frame_->chart();
    for (std::size_t i = 0; i < std::size(kMachineMeasures); ++i) {
        auto* set = new QBarSet(QString::fromStdString(label(kMachineMeasures[i])));
        QBrush brush(toColor(kColors[i]), kPatterns[i]);
        set->setBrush(brush);
        set->setBorderColor(toColor(kColors[i]));
        series_->append(set);
    }
    chart->addSeries(series_);
    styleAxis(categories_);
    categories_->setGridLineVisible(false);
    chart->addAxis(categories_, Qt::AlignBottom);
    frame_->addAxis(relative_, Qt::AlignLeft);
    series_->attachAxis(categories_);
    series_->attachAxis(relative_->axis());
    frame_->setTitle(tr("Machines"));
    setChart(chart);
    styleChartView(this);
    connect(series_, &QBarSeries::hovered, this, [this](bool status, int index, QBarSet* set) {
        const int measure = static_cast<int>(series_->barSets().indexOf(set));
        if (!status || measure < 0 || index < 0 ||
            index >= static_cast<int>(figure_.machines.size())) {
            QToolTip::hideText();
            return;
        }
        const auto& m = figure_.machines[static_cast<std::size_t>(index)];
        if (!m.refusal.empty()) {
            QToolTip::showText(QCursor::pos(), tr("%1 cannot run it: %2")
                                                   .arg(QString::fromStdString(m.name),
                                                        QString::fromStdString(m.refusal)));
            return;
        }
        const MachineMeasure which = kMachineMeasures[measure];
        const QString machine =
            m.slices > 1 ? tr("%1 as %2 slices of %3")
                               .arg(QString::fromStdString(m.name), QString::number(m.slices),
                                    QString::fromStdString(m.slice))
                         : QString::fromStdString(m.name);
        QToolTip::showText(QCursor::pos(),
                           tr("%1, %2: %3 (%4x %5)")
                               .arg(machine, set->label(),
                                    valueText(m, which), threeDigits(set->at(index)),
                                    QString::fromStdString(figure_.ownMachine)));
    });
}

void MachinesChart::setAnalysis(const TrainingAnalysis& analysis) {
    setFigure(machinesFigure(analysis));
}

void MachinesChart::setFigure(const MachinesFigure& figure) {
    figure_ = figure;
    QStringList columns;
    double top = 1;
    const auto sets = series_->barSets();
    for (QBarSet* set : sets) {
        set->remove(0, set->count());
    }
    const std::string prefix = sharedPrefix(figure_);
    bool multislice = false;
    for (const auto& m : figure_.machines) {
        // A machine that cannot run it has no bars; the caption and its tooltip say why (a
        // longer label would be cut at a column's width). Copies of a slice over the DCN are
        // starred, "v5e*" ("v5e ×16" is cut at a column's width in print); the tooltip and the
        // caption say how many slices of which shape.
        QString column = QString::fromStdString(m.name.substr(prefix.size()));
        if (m.refusal.empty() && m.slices > 1) {
            column += QStringLiteral("*");
            multislice = true;
        }
        columns << column;
        for (std::size_t i = 0; i < std::size(kMachineMeasures); ++i) {
            const double v = relativeValue(figure_, m, kMachineMeasures[i]);
            sets[static_cast<qsizetype>(i)]->append(v);
            top = std::max(top, v);
        }
    }
    categories_->clear();
    categories_->append(columns);
    QString axis =
        prefix.empty() ? tr("machine") : tr("machine (%1NAME)").arg(QString::fromStdString(prefix));
    if (multislice) {
        axis += tr("; * multislice over the DCN");
    }
    categories_->setTitleText(axis);
    relative_->setTitle(tr("relative to %1 (x)").arg(QString::fromStdString(figure_.ownMachine)));
    relative_->setData(0, top * 1.05);
    frame_->setTitle(QString::fromStdString(title(figure_)),
                     QString::fromStdString(subtitle(figure_)));
    frame_->refresh();
}

} // namespace podscope::ui
