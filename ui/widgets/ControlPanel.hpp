#pragma once

#include "training/Scenario.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QWidget>
#include <optional>
#include <string_view>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace podscope::ui {

class MemoryBar;
class SettingControl;

// The configuration controls, one per setting of the settings table that names a panel row
// (settings/ScenarioSettings.cpp), in its groups and order. Every edit emits the whole new
// scenario; the panel never changes the document itself. A refused configuration is explained
// right below the control just edited (or the one the model names), in the panel's words, with
// a valid value to use; it is never silently corrected.
class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(QWidget* parent = nullptr);

    // Shows a scenario (after an edit, undo, open or preset) without emitting edited().
    void setScenario(const Scenario& scenario);
    // Offers the global batches that divide evenly over the analysed configuration's replicas,
    // the batch-norm groups and the sequence lengths the analysed model takes.
    void setAnalysis(const TrainingAnalysis& analysis);
    // Explains the model's refusal ("field: problem") of the configuration shown; an empty
    // message clears it.
    void showProblem(const QString& message);
    QString problemShown() const;
    // The box with the explanation and the suggestion's button, and the control it sits below.
    QFrame* problemBox() const { return problemBox_; }
    QPushButton* suggestionButton() const { return suggestion_; }
    QWidget* problemControl() const { return problemControl_; }

    // The control of a setting ("gradient.chunks"); nullptr when the panel shows none.
    QWidget* control(std::string_view key) const;
    QComboBox* modelParallelBox() const;
    QComboBox* sliceBox() const;
    QLineEdit* customGridEdit() const;
    QComboBox* globalBatchBox() const;
    QComboBox* workloadBox() const;
    QComboBox* overlapBox() const;
    QDoubleSpinBox* bucketBox() const;
    QComboBox* batchNormGroupBox() const;
    QSpinBox* sequenceLengthBox() const;
    // One core's HBM, under the parallelism settings that decide it (the explorer feeds it).
    MemoryBar* memoryBar() const { return memory_; }

signals:
    void edited(const podscope::Scenario& scenario, const QString& what);

private:
    void build();
    void buildProblemBox();
    void emitEdit(SettingControl* control);
    SettingControl* settingControl(std::string_view key) const;
    QWidget* controlFor(const std::string& field) const;
    void placeProblemBelow(QWidget* control);

    Scenario shown_;
    std::vector<SettingControl*> controls_; // in the table's order
    bool updating_ = false;
    bool editing_ = false;          // an edit of ours is being applied
    QWidget* lastEdited_ = nullptr; // the control the user changed last
    QFrame* problemBox_ = nullptr;
    QLabel* problemText_ = nullptr;
    QPushButton* suggestion_ = nullptr;
    QWidget* problemControl_ = nullptr;
    std::optional<Scenario> suggested_;
    MemoryBar* memory_ = nullptr;
};

} // namespace podscope::ui
