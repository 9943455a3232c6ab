#include "widgets/ControlPanel.hpp"

#include "common/InputError.hpp"
#include "settings/ScenarioSettings.hpp"
#include "view/ConfigurationProblem.hpp"
#include "widgets/MemoryBar.hpp"
#include "widgets/SettingControl.hpp"
#include "widgets/SliceControl.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace podscope::ui {

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent) {
    build();
}

void ControlPanel::build() {
    auto* column = new QVBoxLayout(this);
    buildProblemBox();
    for (const SettingGroup& group : settingGroups()) {
        auto* box = new QGroupBox(tr(std::string(group.title).c_str()), this);
        box->setObjectName(
            QString::fromUtf8(group.key.data(), static_cast<qsizetype>(group.key.size())));
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        // Labels above their fields when the panel is narrow, so that no field is cut.
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
        column->addWidget(box);
        for (const Setting& setting : scenarioSettings()) {
            if (setting.panel.group != group.key || setting.panel.control == PanelControl::None) {
                continue;
            }
            SettingControl* control = makeSettingControl(setting, box);
            controls_.push_back(control);
            if (control->labelled()) {
                form->addRow(tr(std::string(setting.panel.label).c_str()), control->widget());
            } else {
                form->addRow(control->widget());
            }
            connect(control, &SettingControl::edited, this, [this, control] { emitEdit(control); });
        }
        if (group.key == "parallelism") {
            // In the panel's column, right under the settings that fill it, scrolling with them:
            // the panel keeps its height for the controls on a small screen.
            memory_ = new MemoryBar(this);
            column->addWidget(memory_);
        }
    }
    column->addStretch(1);
    // Long entries ("4096 chips (128x32, wrap y)") are elided rather than widening the panel:
    // the window fits a 1024-pixel screen.
    for (auto* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
}

void ControlPanel::buildProblemBox() {
    problemBox_ = new QFrame(this);
    problemBox_->setObjectName("problem");
    problemBox_->setStyleSheet(
        "QFrame#problem { border-left: 3px solid #c0392b; background: rgba(192, 57, 43, 0.08); }");
    auto* problemColumn = new QVBoxLayout(problemBox_);
    problemColumn->setContentsMargins(8, 4, 4, 4);
    problemText_ = new QLabel(problemBox_);
    problemText_->setWordWrap(true);
    problemText_->setStyleSheet("color: #a93226;");
    problemText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    suggestion_ = new QPushButton(problemBox_);
    suggestion_->setToolTip(tr("Apply this value (Edit > Undo takes it back)"));
    problemColumn->addWidget(problemText_);
    problemColumn->addWidget(suggestion_, 0, Qt::AlignLeft);
    problemBox_->setVisible(false);
    connect(suggestion_, &QPushButton::clicked, this, [this] {
        if (suggested_) {
            // The button hides once the fix is valid; the focus would then move to the panel's
            // first control and scroll the panel to the top. Keep it at the control fixed.
            if (problemControl_) {
                problemControl_->setFocus(Qt::OtherFocusReason);
            }
            emit edited(*suggested_, suggestion_->text().replace(tr("Use "), tr("use ")));
        }
    });
}

SettingControl* ControlPanel::settingControl(std::string_view key) const {
    const auto it = std::find_if(controls_.begin(), controls_.end(),
                                 [&](const SettingControl* c) { return c->setting().key == key; });
    return it == controls_.end() ? nullptr : *it;
}

QWidget* ControlPanel::control(std::string_view key) const {
    const SettingControl* c = settingControl(key);
    return c ? c->widget() : nullptr;
}

QComboBox* ControlPanel::modelParallelBox() const {
    return qobject_cast<QComboBox*>(control("model_parallel.degree"));
}
QComboBox* ControlPanel::sliceBox() const {
    return qobject_cast<QComboBox*>(control("chips"));
}
QLineEdit* ControlPanel::customGridEdit() const {
    return qobject_cast<QLineEdit*>(control("topology"));
}
QComboBox* ControlPanel::globalBatchBox() const {
    return qobject_cast<QComboBox*>(control("global_batch"));
}
QComboBox* ControlPanel::workloadBox() const {
    return qobject_cast<QComboBox*>(control("workload"));
}
QComboBox* ControlPanel::overlapBox() const {
    return qobject_cast<QComboBox*>(control("gradient.overlap"));
}
QDoubleSpinBox* ControlPanel::bucketBox() const {
    return qobject_cast<QDoubleSpinBox*>(control("gradient.bucket_MiB"));
}
QComboBox* ControlPanel::batchNormGroupBox() const {
    return qobject_cast<QComboBox*>(control("batch_norm_group"));
}
QSpinBox* ControlPanel::sequenceLengthBox() const {
    return qobject_cast<QSpinBox*>(control("sequence_length"));
}

void ControlPanel::emitEdit(SettingControl* control) {
    if (updating_) {
        return;
    }
    lastEdited_ = control->widget();
    Scenario s = shown_;
    try {
        control->apply(s);
    } catch (const InputError& e) {
        showProblem(QString::fromStdString(e.what())); // refused as typed: nothing changes
        return;
    }
    editing_ = true;
    emit edited(s, control->editText());
    editing_ = false;
}

void ControlPanel::setScenario(const Scenario& s) {
    if (!editing_) {
        lastEdited_ = nullptr; // undo, a file, a preset or a demo: no control was edited
    }
    updating_ = true;
    shown_ = s;
    for (SettingControl* control : controls_) {
        control->show(s);
        if (const auto enabledWhen = control->setting().panel.enabledWhen) {
            control->widget()->setEnabled(enabledWhen(s));
        }
    }
    updating_ = false;
}

void ControlPanel::setAnalysis(const TrainingAnalysis& analysis) {
    updating_ = true;
    if (auto* batch = static_cast<ChoiceControl*>(settingControl("global_batch"))) {
        std::vector<ChoiceControl::Offer> offers;
        for (const auto& point : analysis.byBatch) {
            if (!point.result && !point.exceedsHbm) {
                continue; // refused for another reason: not on offer
            }
            const auto examples = static_cast<qlonglong>(point.globalBatch);
            // Batches that do not fit stay on offer, marked: picking one explains the refusal.
            offers.push_back(
                {point.exceedsHbm ? tr("%1 (does not fit in HBM)").arg(examples)
                                  : QString::number(examples),
                 QVariant::fromValue(examples),
                 point.exceedsHbm
                     ? tr("Needs %1 GiB of HBM per core, has %2 GiB")
                           .arg(point.exceedsHbm->total() / (1024.0 * 1024 * 1024), 0, 'f', 1)
                           .arg(point.exceedsHbm->capacity / (1024.0 * 1024 * 1024), 0, 'f', 1)
                     : QString()});
        }
        batch->setOffers(offers);
    }
    if (auto* group = static_cast<ChoiceControl*>(settingControl("batch_norm_group"))) {
        // Powers of two up to the replicas, where the model has batch norm.
        const Setting& setting = group->setting();
        std::vector<ChoiceControl::Offer> offers = {
            {QString::fromUtf8(setting.unset.data(), static_cast<qsizetype>(setting.unset.size())),
             QVariant(),
             {}}};
        for (std::int64_t replicas = 2; replicas <= analysis.replicas; replicas *= 2) {
            offers.push_back({tr("%1 replicas").arg(replicas), static_cast<int>(replicas), {}});
        }
        group->setOffers(offers);
        group->widget()->setEnabled(analysis.hasBatchNorm);
        if (!analysis.hasBatchNorm) {
            group->widget()->setToolTip(
                tr("%1 has no batch norm").arg(QString::fromStdString(analysis.scenario.workload)));
        }
    }
    if (auto* length = static_cast<SpinControl*>(settingControl("sequence_length"))) {
        if (analysis.sequenceLength) {
            const ShapeVariable& variable = *analysis.sequenceLength;
            length->box()->setSpecialValueText({});
            length->setLimits(static_cast<int>(std::min(variable.min, 1e9)),
                              static_cast<int>(std::min(variable.max, 1e9)),
                              static_cast<int>(variable.value));
            length->show(shown_);
        } else {
            length->setLimits(0, 0, std::nullopt);
            length->box()->setRange(0, 0);
            length->box()->setSpecialValueText(tr("none"));
        }
        length->widget()->setEnabled(analysis.sequenceLength.has_value());
    }
    updating_ = false;
}

QWidget* ControlPanel::controlFor(const std::string& field) const {
    QWidget* fallback = control("workload");
    const Setting* setting = settingOfField(field);
    const SettingControl* c = setting ? settingControl(setting->key) : nullptr;
    if (!c) {
        return fallback;
    }
    // A grid field that shows nothing: the grid is a standard slice, named by the slice list.
    if (auto* edit = qobject_cast<QLineEdit*>(c->widget()); edit && edit->text().isEmpty()) {
        return control("chips") ? control("chips") : fallback;
    }
    return c->widget();
}

void ControlPanel::placeProblemBelow(QWidget* control) {
    if (auto* form = problemBox_->parentWidget()
                         ? qobject_cast<QFormLayout*>(problemBox_->parentWidget()->layout())
                         : nullptr) {
        int row = -1;
        QFormLayout::ItemRole role{};
        form->getWidgetPosition(problemBox_, &row, &role);
        if (row >= 0) {
            const auto taken = form->takeRow(row); // the layout items, not the widget
            delete taken.labelItem;
            delete taken.fieldItem;
        }
    }
    auto* form = qobject_cast<QFormLayout*>(control->parentWidget()->layout());
    int row = -1;
    QFormLayout::ItemRole role{};
    if (form) {
        form->getWidgetPosition(control, &row, &role);
    }
    if (!form || row < 0) {
        return;
    }
    form->insertRow(row + 1, problemBox_);
    problemControl_ = control;
}

void ControlPanel::showProblem(const QString& message) {
    if (message.isEmpty()) {
        problemBox_->setVisible(false);
        problemText_->clear();
        suggested_.reset();
        problemControl_ = nullptr;
        return;
    }
    const ConfigurationProblem problem = explainProblem(shown_, message.toStdString());
    QString text = QString::fromStdString(problem.explanation);
    if (problem.suggestion) {
        text += " " + QString::fromStdString(problem.suggestion->text);
        suggested_ = problem.suggestion->scenario;
        suggestion_->setText(QString::fromStdString(problem.suggestion->action));
    } else {
        suggested_.reset();
    }
    suggestion_->setVisible(problem.suggestion.has_value());
    problemText_->setText(text);
    // Below the control just changed; otherwise (undo, a file, a demo) below the one named.
    QWidget* control =
        lastEdited_ && lastEdited_->isVisibleTo(this) ? lastEdited_ : controlFor(problem.field);
    placeProblemBelow(control);
    problemBox_->setVisible(true);
    // In sight: the panel scrolls to the explanation once it is laid out.
    QTimer::singleShot(0, this, [this] {
        for (QWidget* w = parentWidget(); w; w = w->parentWidget()) {
            if (auto* area = qobject_cast<QScrollArea*>(w)) {
                if (problemControl_) {
                    area->ensureWidgetVisible(problemControl_, 10, 10);
                }
                area->ensureWidgetVisible(problemBox_, 10, 10);
                break;
            }
        }
    });
}

QString ControlPanel::problemShown() const {
    return problemBox_->isHidden() ? QString() : problemText_->text();
}

} // namespace podscope::ui
