#include "widgets/WhatIfPanel.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
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
    // Rows are made once and reused: the panel changes with every analysis, and building
    // widgets each time would cost the event loop.
    while (rows_.size() < whatIfs.size()) {
        Row row;
        row.label = new QLabel;
        row.label->setWordWrap(true);
        row.button = new QPushButton(tr("Try"));
        row.button->setMaximumHeight(row.button->fontMetrics().height() + 8);
        const std::size_t index = rows_.size();
        connect(row.button, &QPushButton::clicked, this, [this, index] {
            if (index < shown_.size()) {
                emit tryRequested(shown_[index].scenario,
                                  QString::fromStdString(shown_[index].label));
            }
        });
        grid_->addWidget(row.label, static_cast<int>(index), 0);
        grid_->addWidget(row.button, static_cast<int>(index), 1, Qt::AlignTop);
        rows_.push_back(row);
    }
    shown_ = whatIfs;
    // Without a time to train (no convergence data, no run length) the changes compare by step
    // time, as podscope-cli's "What if" does.
    const bool byStep = !now.timeToTrainKnown;
    setTitle(byStep ? tr("What if: step time") : tr("What if: time to train"));
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const bool used = i < whatIfs.size();
        rows_[i].label->setVisible(used);
        rows_[i].button->setVisible(used);
        if (!used) {
            continue;
        }
        const WhatIf& w = whatIfs[i];
        const TrainingResult& r = w.result;
        rows_[i].label->setText(tr("%1: %2")
                                    .arg(capitalised(QString::fromStdString(w.label)))
                                    .arg(byStep ? percentChange(r.stepTimeS, now.stepTimeS)
                                                : percentChange(r.timeToTrainS, now.timeToTrainS)));
        rows_[i].label->setToolTip(
            byStep ? tr("%1 ms per step (%2), bottleneck %3")
                         .arg(QLocale().toString(r.stepTimeS * 1e3, 'f', 2))
                         .arg(percentChange(r.stepTimeS, now.stepTimeS))
                         .arg(QString::fromStdString(r.bottleneck))
                   : tr("%1 s to train (%2), %3 ms per step (%4), bottleneck %5")
                         .arg(QLocale().toString(r.timeToTrainS, 'f', 1))
                         .arg(percentChange(r.timeToTrainS, now.timeToTrainS))
                         .arg(QLocale().toString(r.stepTimeS * 1e3, 'f', 2))
                         .arg(percentChange(r.stepTimeS, now.stepTimeS))
                         .arg(QString::fromStdString(r.bottleneck)));
        rows_[i].button->setToolTip(tr("Apply: %1").arg(QString::fromStdString(w.label)));
    }
}

QStringList WhatIfPanel::lines() const {
    QStringList list;
    for (std::size_t i = 0; i < shown_.size(); ++i) {
        list << rows_[i].label->text();
    }
    return list;
}

} // namespace podscope::ui
