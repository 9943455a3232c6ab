#include "widgets/WhatIfPanel.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QLayoutItem>
#include <QPushButton>

namespace podscope::ui {
namespace {

// "-3.1 %" with a true minus sign, as the charts print it.
QString percentChange(double now, double before) {
    if (!(before > 0)) {
        return QStringLiteral("-");
    }
    const double change = 100.0 * (now - before) / before;
    const QString number = QString::number(std::abs(change), 'f', std::abs(change) < 10 ? 1 : 0);
    return (change < -0.05  ? QStringLiteral("\u2212")
            : change > 0.05 ? QStringLiteral("+")
                            : QString()) +
           number + QStringLiteral("\u00a0%"); // a no-break space: never "5.5" and "%" on two lines
}

QString capitalised(QString text) {
    if (!text.isEmpty()) {
        text[0] = text[0].toUpper();
    }
    return text;
}

} // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent)
    : QGroupBox(tr("What if: time to train"), parent) {
    grid_ = new QGridLayout(this);
    grid_->setColumnStretch(0, 1);
    grid_->setVerticalSpacing(2);
    grid_->setContentsMargins(6, 2, 6, 2);
    setToolTip(tr("The model's answer for one change to this configuration; Try applies it (Edit > "
                  "Undo takes it back)"));
}

void WhatIfPanel::setWhatIfs(const std::vector<WhatIf>& whatIfs, const TrainingResult& now) {
    while (QLayoutItem* item = grid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    labels_.clear();
    int row = 0;
    for (const WhatIf& w : whatIfs) {
        const TrainingResult& r = w.result;
        auto* label = new QLabel(tr("%1: %2")
                                     .arg(capitalised(QString::fromStdString(w.label)))
                                     .arg(percentChange(r.timeToTrainS, now.timeToTrainS)));
        label->setWordWrap(true);
        label->setToolTip(tr("%1 s to train (%2), %3 ms per step (%4), bottleneck %5")
                              .arg(r.timeToTrainS, 0, 'f', 1)
                              .arg(percentChange(r.timeToTrainS, now.timeToTrainS))
                              .arg(r.stepTimeS * 1e3, 0, 'f', 2)
                              .arg(percentChange(r.stepTimeS, now.stepTimeS))
                              .arg(QString::fromStdString(r.bottleneck)));
        auto* button = new QPushButton(tr("Try"));
        button->setFlat(false);
        button->setMaximumHeight(button->fontMetrics().height() + 8);
        button->setToolTip(tr("Apply: %1").arg(QString::fromStdString(w.label)));
        connect(button, &QPushButton::clicked, this,
                [this, scenario = w.scenario, what = QString::fromStdString(w.label)] {
                    emit tryRequested(scenario, what);
                });
        grid_->addWidget(label, row, 0);
        grid_->addWidget(button, row, 1, Qt::AlignTop);
        labels_.push_back(label);
        ++row;
    }
}

QStringList WhatIfPanel::lines() const {
    QStringList list;
    for (const QLabel* label : labels_) {
        list << label->text();
    }
    return list;
}

} // namespace podscope::ui
