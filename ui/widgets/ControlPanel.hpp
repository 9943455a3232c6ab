#pragma once

#include "training/Scenario.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QWidget>
#include <array>
#include <optional>

class QCheckBox;
class QFrame;
class QPushButton;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace podscope::ui {

class MemoryBar;

// The configuration controls, grouped as the paper presents its techniques. Every edit emits
// the whole new scenario; the panel never changes the document itself. A refused
// configuration is explained right below the control just edited (or the one the model
// names), in the panel's words, with a valid value to use; it is never silently corrected.
class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(QWidget* parent = nullptr);

    // Shows a scenario (after an edit, undo, open or preset) without emitting edited().
    void setScenario(const Scenario& scenario);
    // Offers the global batches that divide evenly over the analysed configuration's replicas.
    void setAnalysis(const TrainingAnalysis& analysis);
    // Explains the model's refusal ("field: problem") of the configuration shown; an empty
    // message clears it.
    void showProblem(const QString& message);
    QString problemShown() const;
    // The box with the explanation and the suggestion's button, and the control it sits below.
    QFrame* problemBox() const { return problemBox_; }
    QPushButton* suggestionButton() const { return suggestion_; }
    QWidget* problemControl() const { return problemControl_; }
    QComboBox* modelParallelBox() const { return modelParallel_; }
    QComboBox* sliceBox() const { return topology_; }
    QLineEdit* customGridEdit() const { return customDims_; }

    QComboBox* globalBatchBox() const { return globalBatch_; }
    QComboBox* workloadBox() const { return workload_; }
    QComboBox* overlapBox() const { return overlap_; }
    QDoubleSpinBox* bucketBox() const { return bucket_; }
    QComboBox* batchNormGroupBox() const { return batchNormGroup_; }
    QSpinBox* sequenceLengthBox() const { return sequenceLength_; }
    // One core's HBM, under the parallelism settings that decide it (the explorer feeds it).
    MemoryBar* memoryBar() const { return memory_; }

signals:
    void edited(const podscope::Scenario& scenario, const QString& what);

private:
    void build();
    void emitEdit(QWidget* control, const QString& what);
    Scenario read() const;
    QWidget* controlFor(const std::string& field) const;
    void placeProblemBelow(QWidget* control);

    Scenario shown_;
    bool updating_ = false;
    bool editing_ = false;          // an edit of ours is being applied
    QWidget* lastEdited_ = nullptr; // the control the user changed last
    QFrame* problemBox_ = nullptr;
    QLabel* problemText_ = nullptr;
    QPushButton* suggestion_ = nullptr;
    QWidget* problemControl_ = nullptr;
    std::optional<Scenario> suggested_;
    int shownSlice_ = -1; // the slice entry that matches shown_
    QComboBox* workload_ = nullptr;
    QComboBox* framework_ = nullptr;
    QComboBox* topology_ = nullptr;
    QDoubleSpinBox* linkBandwidth_ = nullptr;
    QLineEdit* customDims_ = nullptr;
    QLineEdit* customWrap_ = nullptr;
    QDoubleSpinBox* latency_ = nullptr;
    QDoubleSpinBox* crossPodBandwidth_ = nullptr;
    QComboBox* dimOrder_ = nullptr;
    QDoubleSpinBox* evalEvery_ = nullptr;
    std::array<QDoubleSpinBox*, 4> stageCosts_{}; // read, decode, augment, batch; ms per example
    QComboBox* globalBatch_ = nullptr;
    QComboBox* modelParallel_ = nullptr;
    QComboBox* modelParallelKind_ = nullptr;
    QCheckBox* weightUpdateSharding_ = nullptr;
    QComboBox* precision_ = nullptr;
    QComboBox* algorithm_ = nullptr;
    QSpinBox* chunks_ = nullptr;
    QComboBox* evalMode_ = nullptr;
    QDoubleSpinBox* hostCores_ = nullptr;
    QCheckBox* decodedCache_ = nullptr;
    QComboBox* overlap_ = nullptr;
    QDoubleSpinBox* bucket_ = nullptr;
    QComboBox* batchNormGroup_ = nullptr;
    QSpinBox* sequenceLength_ = nullptr;
    MemoryBar* memory_ = nullptr;
    // The analysed workload's sequence length (its default) and whether it has batch norm.
    std::string analysedWorkload_;
    std::optional<int> defaultSequenceLength_;
};

} // namespace podscope::ui
