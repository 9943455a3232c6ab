#pragma once

#include "training/Scenario.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QWidget>

#include <array>
#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace podscope::ui {

// The configuration controls, grouped as the paper presents its techniques. Every edit emits
// the whole new scenario; the panel never changes the document itself. Problems are shown
// next to the group they concern, never silently corrected.
class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(QWidget* parent = nullptr);

    // Shows a scenario (after an edit, undo, open or preset) without emitting edited().
    void setScenario(const Scenario& scenario);
    // Offers the global batches that divide evenly over the analysed configuration's replicas.
    void setAnalysis(const TrainingAnalysis& analysis);
    // Shows a problem next to the group its field belongs to; an empty message clears all.
    void showProblem(const QString& message);
    QString problemShown() const;

    QComboBox* globalBatchBox() const { return globalBatch_; }
    QComboBox* workloadBox() const { return workload_; }

signals:
    void edited(const podscope::Scenario& scenario, const QString& what);

private:
    void build();
    void emitEdit(const QString& what);
    Scenario read() const;

    Scenario shown_;
    bool updating_ = false;
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
    std::map<QString, QLabel*> problems_; // by group
};

} // namespace podscope::ui
