#include "widgets/Explorer.hpp"

#include "charts/BatchChart.hpp"
#include "charts/BreakdownChart.hpp"
#include "charts/LayerTimeChart.hpp"
#include "charts/LinkUseChart.hpp"
#include "charts/MachinesChart.hpp"
#include "charts/RooflineChart.hpp"
#include "charts/ThroughputChart.hpp"
#include "common/InputError.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "widgets/ControlPanel.hpp"
#include "widgets/LatestOnlyRunner.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/MemoryBar.hpp"
#include "widgets/WhatIfPanel.hpp"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

namespace podscope::ui {
namespace {

constexpr int kRecentFiles = 8;
// The tab of each chart: the Layers tab (after Links) holds the layer times and the roofline;
// the Machines tab follows it.
constexpr int kLayersTab = 4;
constexpr int kMachinesTab = 5;

int tabOf(ChartKind chart) {
    switch (chart) {
    case ChartKind::Roofline:
        return kLayersTab;
    case ChartKind::Machines:
        return kMachinesTab;
    default:
        return static_cast<int>(chart);
    }
}

// "1.52 s", "43.1 ms", "812 µs", "25.4 min": three significant figures in a fitting unit.
QString formatSeconds(double seconds) {
    const auto figures = [](double value, const QString& unit) {
        const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
        return QLocale().toString(value, 'f', decimals) + QStringLiteral(" ") + unit;
    };
    if (seconds >= 7200) {
        return figures(seconds / 3600, QStringLiteral("h"));
    }
    if (seconds >= 600) {
        return figures(seconds / 60, QStringLiteral("min"));
    }
    if (seconds >= 1) {
        return figures(seconds, QStringLiteral("s"));
    }
    if (seconds >= 1e-3) {
        return figures(seconds * 1e3, QStringLiteral("ms"));
    }
    return figures(seconds * 1e6, QStringLiteral("µs"));
}

QString signedPercent(double now, double before) {
    if (before <= 0) {
        return "-";
    }
    return QString("%1%2 %")
        .arg(now >= before ? "+" : "")
        .arg(100.0 * (now - before) / before, 0, 'f', 1);
}

} // namespace

Explorer::Explorer(QMainWindow& window, const Scenario& initial)
    : QObject(&window)
    , window_(window)
    , document_(new ScenarioDocument(initial, this))
    , runner_(new LatestOnlyRunner<TrainingAnalysis>(this)) {
    buildDocks();
    buildMenus();
    autosave_ = new QTimer(this);
    autosave_->setSingleShot(true);
    autosave_->setInterval(500); // a burst of edits is written once
    connect(autosave_, &QTimer::timeout, this, &Explorer::writeAutosave);
    connect(document_, &ScenarioDocument::changed, this, [this] {
        controls_->setScenario(document_->scenario());
        updateTitle();
        requestAnalysis();
        autosave_->start();
    });
    connect(document_->undoStack(), &QUndoStack::cleanChanged, this, &Explorer::updateTitle);
    connect(
        controls_, &ControlPanel::edited, this,
        [this](const Scenario& scenario, const QString& what) { document_->edit(scenario, what); });
    connect(runner_, &LatestOnlyRunnerBase::finished, this,
            [this] { showAnalysis(runner_->result()); });
    connect(runner_, &LatestOnlyRunnerBase::failed, this, [this](const QString& message) {
        // The charts keep the last valid configuration, marked; the problem shows by its control,
        // and the memory bar what a configuration refused for HBM would need.
        controls_->showProblem(message);
        if (const auto needed = plannedMemory(document_->scenario()); needed && !needed->fits()) {
            memory_->setMemory(*needed, true);
        } else if (analysis_) {
            memory_->setMemory(analysis_->result.memory);
        }
        setStale(true);
        emit statusMessage(
            tr("Configuration refused: see the explanation in the Configuration panel"), 10000);
        emit analysisFailed(message);
    });
    connect(
        whatIfs_, &WhatIfPanel::tryRequested, this,
        [this](const Scenario& scenario, const QString& what) { document_->edit(scenario, what); });
}

void Explorer::showLinkUse(const ScenarioRun& run) {
    links_->setRun(run);
}

void Explorer::start() {
    controls_->setScenario(document_->scenario());
    QSettings settings;
    window_.restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!window_.restoreState(settings.value("window/state").toByteArray())) {
        // First start: the 3-D view is the centre of the window, the charts take a third of
        // its height. Once shown, so that the sizes apply.
        QTimer::singleShot(0, this, [this] {
            if (auto* charts = window_.findChild<QDockWidget*>("chartDock")) {
                window_.resizeDocks({charts}, {window_.height() / 3}, Qt::Vertical);
            }
        });
    }
    updateTitle();
    requestAnalysis();
}

void Explorer::buildDocks() {
    controls_ = new ControlPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(controls_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the form wraps its rows instead
    scroll->setMinimumWidth(200);
    auto* configuration = new QWidget;
    auto* configurationColumn = new QVBoxLayout(configuration);
    configurationColumn->setContentsMargins(0, 0, 0, 0);
    whatIfs_ = new WhatIfPanel;
    memory_ = controls_->memoryBar();
    configurationColumn->addWidget(scroll, 1);
    configurationColumn->addWidget(whatIfs_);
    auto* controlDock = new QDockWidget(tr("Configuration"), &window_);
    controlDock->setObjectName("configurationDock");
    controlDock->setWidget(configuration);
    window_.addDockWidget(Qt::LeftDockWidgetArea, controlDock);

    throughput_ = new ThroughputChart;
    breakdown_ = new BreakdownChart;
    batch_ = new BatchChart;
    links_ = new LinkUseChart;
    layerTimes_ = new LayerTimeChart;
    roofline_ = new RooflineChart;
    machines_ = new MachinesChart;
    auto* layers = new QSplitter(Qt::Horizontal);
    layers->setObjectName("layersSplitter");
    layers->addWidget(layerTimes_);
    layers->addWidget(roofline_);
    layers->setChildrenCollapsible(false);
    auto* tabs = new QTabWidget;
    chartTabs_ = tabs;
    auto* breakdownPage = new QWidget;
    auto* breakdownColumn = new QVBoxLayout(breakdownPage);
    breakdownColumn->setContentsMargins(0, 0, 0, 0);
    breakdownColumn->addWidget(breakdown_, 1);
    deltas_ = new QLabel(tr("Pin a baseline (Ctrl+B) to compare."));
    breakdownColumn->addWidget(deltas_);
    // In ChartKind order.
    tabs->addTab(throughput_, tr("Scaling"));
    tabs->addTab(breakdownPage, tr("Step breakdown"));
    tabs->addTab(batch_, tr("Batch size"));
    tabs->addTab(links_, tr("Links"));
    tabs->addTab(layers, tr("Layers"));
    tabs->addTab(machines_, tr("Machines"));
    tabs->setMinimumHeight(170);
    auto* charts = new QWidget;
    auto* chartColumn = new QVBoxLayout(charts);
    chartColumn->setContentsMargins(0, 0, 0, 0);
    stale_ = MainWindow::staleMarkLabel();
    chartColumn->addWidget(stale_);
    chartColumn->addWidget(tabs, 1);
    auto* chartDock = new QDockWidget(tr("Charts"), &window_);
    chartDock->setObjectName("chartDock");
    chartDock->setWidget(charts);
    window_.addDockWidget(Qt::BottomDockWidgetArea, chartDock);
}

void Explorer::buildMenus() {
    QMenuBar* bar = window_.menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open..."), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(&window_, tr("Open configuration"), {},
                                         tr("PodScope configurations (*.podscope.json *.json)"));
        if (!path.isEmpty()) {
            const QString problem = openFile(path);
            if (!problem.isEmpty()) {
                QMessageBox::warning(&window_, tr("Cannot open"), problem);
            }
        }
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &model..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            &window_, tr("Open model"), {},
            tr("Models (*.json *.onnx);;Workload documents and Hugging Face configs (*.json);;"
               "ONNX models (*.onnx)"));
        if (!path.isEmpty()) {
            const QString problem = openModel(path);
            if (!problem.isEmpty()) {
                QMessageBox::warning(&window_, tr("Cannot open model"), problem);
            }
        }
    });
    recentMenu_ = file->addMenu(tr("Open &recent"));
    QAction* save = file->addAction(tr("&Save"), this, [this] { this->save(); });
    save->setShortcut(QKeySequence::Save);
    QAction* saveAs = file->addAction(tr("Save &as..."), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(&window_, tr("Save configuration"), "config.podscope.json",
                                         tr("PodScope configurations (*.podscope.json)"));
        if (!path.isEmpty()) {
            const QString problem = saveFile(path);
            if (!problem.isEmpty()) {
                QMessageBox::warning(&window_, tr("Cannot save"), problem);
            }
        }
    });
    saveAs->setShortcut(QKeySequence::SaveAs);
    fileMenu_ = file;
    // File > Export (issue 6) goes here: the window adds it (it exports the 3-D view too).
    exportSlot_ = file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), &window_, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    refreshRecentMenu();

    QMenu* edit = bar->addMenu(tr("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* presets = bar->addMenu(tr("&Presets"));
    for (const std::string& name : presetNames()) {
        const Preset preset = podscope::loadPreset(name);
        QAction* action = presets->addAction(QString::fromStdString(preset.title), this,
                                             [this, name] { loadPreset(name); });
        action->setToolTip(QString::fromStdString(preset.description));
        action->setStatusTip(QString::fromStdString(preset.description));
    }

    QMenu* compare = bar->addMenu(tr("&Compare"));
    QAction* pin = compare->addAction(tr("&Pin as baseline"), this, [this] { pinBaseline(); });
    pin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    compare->addAction(tr("&Clear baseline"), this, &Explorer::clearBaseline);
    window_.addActions({open, save, saveAs, undo, redo, pin});
}

bool Explorer::save() {
    QString path = document_->path();
    if (path.isEmpty()) {
        path =
            QFileDialog::getSaveFileName(&window_, tr("Save configuration"), "config.podscope.json",
                                         tr("PodScope configurations (*.podscope.json)"));
    }
    if (path.isEmpty()) {
        return false;
    }
    const QString problem = saveFile(path);
    if (!problem.isEmpty()) {
        QMessageBox::warning(&window_, tr("Cannot save"), problem);
    }
    return problem.isEmpty();
}

QString Explorer::openModel(const QString& path) {
    // Through the settings table, as the Model box and --workload: the file is read and checked
    // once here, and the edit is one undo step.
    Scenario next = document_->scenario();
    try {
        writeSetting(*findSetting("workload"), next, nlohmann::json(path.toStdString()),
                     "workload");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    document_->edit(next, tr("model %1").arg(QFileInfo(path).fileName()));
    return {};
}

void Explorer::showChart(ChartKind chart) {
    chartTabs_->setCurrentIndex(tabOf(chart));
}

ChartKind Explorer::currentChart() const {
    const int tab = chartTabs_->currentIndex();
    if (tab == kMachinesTab) {
        return ChartKind::Machines;
    }
    return tab == kLayersTab ? ChartKind::Layers : static_cast<ChartKind>(tab);
}

void Explorer::requestAnalysis() {
    // The analytic model takes milliseconds: it runs to the end, not checking the flag.
    runner_->request([scenario = document_->scenario()](const StopFlag&) {
        return std::make_shared<const TrainingAnalysis>(analyzeTraining(scenario));
    });
}

void Explorer::showAnalysis(std::shared_ptr<const TrainingAnalysis> analysis) {
    analysis_ = std::move(analysis);
    controls_->showProblem({});
    controls_->setAnalysis(*analysis_);
    throughput_->setAnalysis(*analysis_);
    breakdown_->setAnalysis(*analysis_);
    batch_->setAnalysis(*analysis_);
    layerTimes_->setAnalysis(*analysis_);
    roofline_->setAnalysis(*analysis_);
    machines_->setAnalysis(*analysis_);
    memory_->setMemory(analysis_->result.memory);
    whatIfs_->setWhatIfs(analysis_->whatIfs, analysis_->result);
    deltas_->setText(deltas());
    setStale(false);
    emit replayRequested(gradientSyncView(analysis_->scenario, analysis_->result),
                         analysis_->scenario);
    emit analysisShown();
}

void Explorer::showHeadline() {
    if (!analysis_) {
        return;
    }
    const auto& r = analysis_->result;
    // The figures a class reads first, in the status bar's permanent area: hovering and
    // clicking write elsewhere (the temporary message area, the details panel).
    // A model without convergence data: what to set in place of the time, the whole reason in
    // the tooltip (the status bar has room for a few words, not the core's sentence).
    const QString timeToTrain = r.timeToTrainKnown
                                    ? tr("Time to train %1").arg(formatSeconds(r.timeToTrainS))
                                    : tr("Time to train unknown (set Train steps)");
    const QString why =
        r.timeToTrainKnown ? QString() : QString::fromStdString(r.timeToTrainMissing);
    const QString numbers =
        tr("%1   Step %2   %3   Bottleneck: %4")
            .arg(timeToTrain, formatSeconds(r.stepTimeS),
                 tr("%1 examples/s").arg(QLocale().toString(r.throughputExamplesPerS, 'f', 0)),
                 QString::fromStdString(r.bottleneck));
    emit headlineChanged(showingStaleResult() ? tr("Last valid result: %1").arg(numbers) : numbers,
                         why);
}

bool Explorer::showingStaleResult() const {
    return !stale_->isHidden();
}

void Explorer::setStale(bool stale) {
    stale_->setVisible(stale && analysis_);
    emit staleChanged(stale && analysis_);
    showHeadline();
}

QString Explorer::autosavePath() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    return folder + "/autosave.podscope.json";
}

bool Explorer::hasUnsavedSession() {
    return QFileInfo::exists(autosavePath());
}

void Explorer::writeAutosave() {
    QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
    try {
        saveScenarioFile(autosavePath().toStdString(), document_->scenario()); // temp file + rename
    } catch (const std::exception& e) {
        emit statusMessage(tr("Autosave failed: %1").arg(QString::fromStdString(e.what())), 0);
    }
}

void Explorer::removeAutosave() {
    QFile::remove(autosavePath());
}

QString Explorer::restoreAutosave() {
    try {
        document_->edit(loadScenarioFile(autosavePath().toStdString()),
                        tr("restore the last session"));
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QString Explorer::openFile(const QString& path) {
    const QString problem = document_->open(path);
    if (problem.isEmpty()) {
        rememberRecent(path);
    }
    return problem;
}

QString Explorer::saveFile(const QString& path) {
    const QString problem = document_->save(path);
    if (problem.isEmpty()) {
        rememberRecent(path);
        updateTitle();
    }
    return problem;
}

void Explorer::loadPreset(const std::string& name) {
    document_->edit(podscope::loadPreset(name).scenario,
                    tr("preset %1").arg(QString::fromStdString(name)));
}

void Explorer::pinBaseline() {
    if (!analysis_) {
        return;
    }
    baseline_ = analysis_->result;
    breakdown_->setBaseline(baseline_->breakdown);
    deltas_->setText(deltas());
}

void Explorer::pinBaseline(const TrainingResult& result, const QString& label,
                           const QString& currentLabel) {
    baseline_ = result;
    breakdown_->setBaseline(baseline_->breakdown, label, currentLabel);
    deltas_->setText(deltas());
}

void Explorer::clearBaseline() {
    baseline_.reset();
    breakdown_->setBaseline(std::nullopt);
    deltas_->setText(deltas());
}

QString Explorer::deltas() const {
    if (!baseline_ || !analysis_) {
        return tr("Pin a baseline (Ctrl+B) to compare.");
    }
    const auto& now = analysis_->result;
    return tr("Against the baseline: time to train %1, step time %2, throughput %3")
        .arg(signedPercent(now.timeToTrainS, baseline_->timeToTrainS))
        .arg(signedPercent(now.stepTimeS, baseline_->stepTimeS))
        .arg(signedPercent(now.throughputExamplesPerS, baseline_->throughputExamplesPerS));
}

void Explorer::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kRecentFiles) {
        recent.removeLast();
    }
    settings.setValue("recentFiles", recent);
    refreshRecentMenu();
}

void Explorer::refreshRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& path : recent) {
        recentMenu_->addAction(path, this, [this, path] {
            const QString problem = openFile(path);
            if (!problem.isEmpty()) {
                QMessageBox::warning(&window_, tr("Cannot open"), problem);
            }
        });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

void Explorer::updateTitle() {
    const QString name = document_->path().isEmpty() ? tr("untitled") : document_->path();
    emit titleChanged(QString("%1%2 - PodScope").arg(name, document_->isModified() ? "*" : ""));
}

} // namespace podscope::ui
