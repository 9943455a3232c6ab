#pragma once

#include "training/WhatIf.hpp"

#include <QGroupBox>
#include <vector>

class QGridLayout;
class QLabel;
class QPushButton;

namespace podscope::ui {

// The what-ifs of the configuration shown (twice the link bandwidth, the decoded-example cache
// and weight-update sharding toggled): the change in time to train and step time, and a button
// that applies the change as an undoable edit.
class WhatIfPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    // `now`: the configuration's own result, which the deltas are against.
    void setWhatIfs(const std::vector<WhatIf>& whatIfs, const TrainingResult& now);
    // One line per what-if, as shown ("twice the link bandwidth: time to train -3.1 % ...").
    QStringList lines() const;

signals:
    void tryRequested(const podscope::Scenario& scenario, const QString& what);

private:
    struct Row {
        QLabel* label = nullptr;
        QPushButton* button = nullptr;
    };
    QGridLayout* grid_ = nullptr;
    std::vector<Row> rows_;
    std::vector<WhatIf> shown_;
};

} // namespace podscope::ui
