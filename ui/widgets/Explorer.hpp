#pragma once

#include "figure/ChartKind.hpp"
#include "session/ScenarioDocument.hpp"
#include "view/ScenarioRun.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QObject>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QMainWindow;
class QTimer;
class QMenu;
class QTabWidget;

namespace podscope::ui {

class BatchChart;
class BreakdownChart;
class ControlPanel;
template <class Result> class LatestOnlyRunner;
class LayerTimeChart;
class LinkUseChart;
class MemoryBar;
class MachinesChart;
class RooflineChart;
class ThroughputChart;
class WhatIfPanel;

// The exploring half of the main window: the configuration document with its controls, menus
// (file, edit, presets), charts and baseline, docked into `window`. Every change is analysed
// off the UI thread; the result updates the charts, and signals tell the window what to replay
// and what to headline (the explorer never calls the window's replay).
class Explorer : public QObject {
    Q_OBJECT
public:
    Explorer(QMainWindow& window, const Scenario& initial);
    // Runs the first analysis and restores the window layout; call once the window is built.
    void start();

    ScenarioDocument& document() { return *document_; }
    ControlPanel* controls() const { return controls_; }
    ThroughputChart* throughputChart() const { return throughput_; }
    BreakdownChart* breakdownChart() const { return breakdown_; }
    BatchChart* batchChart() const { return batch_; }
    LinkUseChart* linkChart() const { return links_; }
    LayerTimeChart* layerTimeChart() const { return layerTimes_; }
    RooflineChart* rooflineChart() const { return roofline_; }
    MachinesChart* machinesChart() const { return machines_; }
    MemoryBar* memoryBar() const { return memory_; }
    const TrainingAnalysis* analysis() const { return analysis_.get(); }
    // The chart tab in front (the layer times and the roofline share the Layers tab).
    void showChart(ChartKind chart);
    ChartKind currentChart() const;
    const std::optional<TrainingResult>& baseline() const { return baseline_; }
    WhatIfPanel* whatIfPanel() const { return whatIfs_; }
    QTabWidget* chartTabs() const { return chartTabs_; }
    // Shown above the charts while the configuration is refused.
    QLabel* staleMark() const { return stale_; }
    bool showingStaleResult() const;

    // Returns the problem, or an empty string; a failed open changes nothing.
    QString openFile(const QString& path);
    // File > Open model...: the workload becomes the file (a workload document, a Hugging Face
    // config or an ONNX model) as one undoable edit; returns the problem, or an empty string.
    QString openModel(const QString& path);
    QString saveFile(const QString& path);
    // File > Save: to the document's file, or one the user picks; false when nothing was saved
    // (cancelled, or the write failed and the user was told why).
    bool save();
    void loadPreset(const std::string& name);
    void pinBaseline();
    // Pins a result as the baseline under a name of its own ("step 1"); `currentLabel` names
    // the current column ("step 2").
    void pinBaseline(const TrainingResult& result, const QString& label,
                     const QString& currentLabel);
    void clearBaseline();
    QString deltas() const;

    // Crash safety: the configuration is written to this file shortly after every change and
    // the file is removed on a clean exit, so finding it at start means the last session died.
    static QString autosavePath();
    static bool hasUnsavedSession();
    // Loads the autosaved configuration as an undoable change; returns the problem, if any.
    QString restoreAutosave();
    // Writes the autosave now (normally done by a timer); removeAutosave() on clean exit.
    void writeAutosave();
    static void removeAutosave();

    // The File menu, and the separator above Quit where File > Export goes.
    QMenu* fileMenu() const { return fileMenu_; }
    QAction* exportSlot() const { return exportSlot_; }
    // The 3-D view's simulation, for the link chart.
    void showLinkUse(const ScenarioRun& run);

signals:
    void analysisShown();
    void analysisFailed(const QString& message);
    // An analysed configuration: the collective to replay (its gradient sync) and the training
    // step to simulate.
    void replayRequested(const ViewScenario& collective, const Scenario& training);
    // The headline numbers; `why`, when not empty, is the whole sentence the text shortens.
    void headlineChanged(const QString& text, const QString& why);
    // The configuration is refused and the views show the last valid result (or no longer do).
    void staleChanged(bool stale);
    void statusMessage(const QString& text, int timeoutMs);
    void titleChanged(const QString& title);

private:
    void buildMenus();
    void buildDocks();
    void requestAnalysis();
    void showAnalysis(std::shared_ptr<const TrainingAnalysis> analysis);
    void rememberRecent(const QString& path);
    void refreshRecentMenu();
    void updateTitle();
    void showHeadline();
    void setStale(bool stale);

    QMainWindow& window_;
    QMenu* fileMenu_ = nullptr;
    QAction* exportSlot_ = nullptr;
    ScenarioDocument* document_;
    LatestOnlyRunner<TrainingAnalysis>* runner_;
    ControlPanel* controls_ = nullptr;
    ThroughputChart* throughput_ = nullptr;
    BreakdownChart* breakdown_ = nullptr;
    BatchChart* batch_ = nullptr;
    LinkUseChart* links_ = nullptr;
    LayerTimeChart* layerTimes_ = nullptr;
    RooflineChart* roofline_ = nullptr;
    MachinesChart* machines_ = nullptr;
    MemoryBar* memory_ = nullptr;
    QLabel* deltas_ = nullptr;
    QLabel* stale_ = nullptr;
    WhatIfPanel* whatIfs_ = nullptr;
    QTabWidget* chartTabs_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    std::shared_ptr<const TrainingAnalysis> analysis_;
    std::optional<TrainingResult> baseline_;
    QTimer* autosave_ = nullptr;
};

} // namespace podscope::ui
