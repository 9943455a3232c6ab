#include "widgets/MainWindow.hpp"

#include "collective/Schedule.hpp"
#include "common/NumberFormat.hpp"
#include "session/ScenarioDocument.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/StepModel.hpp"
#include "view/SelectionDetails.hpp"
#include "view/TrainingAnalysis.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/DemoPlayer.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/ExportMenu.hpp"
#include "widgets/LatestOnlyRunner.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/LinkKeyWidget.hpp"
#include "widgets/ReplayClock.hpp"
#include "widgets/TimelinePanel.hpp"
#include "widgets/TuneDialog.hpp"
#include "widgets/UnsavedChangesPrompt.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

constexpr int kScrubberSteps = 2000;
// At 1x a whole collective replays in this many seconds of wall time, whatever its length.
constexpr double kReplaySeconds = 6.0;
// At 1x a whole training step replays in this many seconds: it has many more phases to see.
constexpr double kStepReplaySeconds = 20.0;
// In the step replay, link utilisation is taken at the replay time (a window would blur the
// short exchanges of a step into dark links).
constexpr double kStepWindowFraction = 0.0;
// Link colours average utilisation over this fraction of the collective.
constexpr double kWindowFraction = 1.0 / 80.0;

// The 3-D view starts on the scenario's gradient sync; a scenario the model refuses still
// opens, on the default collective of the multipod, and the explorer says what is wrong.
ViewScenario initialView(const Scenario& training) {
    try {
        return gradientSyncView(training, simulateTraining(training));
    } catch (const std::exception&) {
        return ViewScenario{};
    }
}

// Status lines write durations as the CLI does.
QString durationText(double seconds) {
    return QString::fromStdString(readableDuration(seconds));
}

} // namespace

MainWindow::MainWindow(const Scenario& training, bool withView, QWidget* parent)
    : QMainWindow(parent)
    , scenario_(initialView(training))
    , training_(training) {
    setWindowTitle(QStringLiteral("PodScope"));
    clock_ = new ReplayClock(this);
    runner_ = new LatestOnlyRunner<ScenarioRun>(this);
    stepRunner_ = new LatestOnlyRunner<StepRun>(this);
    if (withView) {
        view_ = new VtkView(this);
        view_->setMinimumSize(320, 120); // the step replay's timeline panel shares the column
    } else {
        placeholder_ = new QLabel(tr("3-D view unavailable on this display platform"), this);
        placeholder_->setAlignment(Qt::AlignCenter);
        placeholder_->setMinimumSize(320, 240);
    }
    buildControls();
    explorer_ = new Explorer(*this, training);
    new ExportMenu(*explorer_, *this, explorer_->fileMenu(), explorer_->exportSlot());
    connect(explorer_, &Explorer::replayRequested, this,
            [this](const ViewScenario& collective, const Scenario& step) {
                showScenario(collective);
                showTraining(step);
            });
    connect(explorer_, &Explorer::headlineChanged, this, &MainWindow::setHeadline);
    connect(explorer_, &Explorer::staleChanged, this, &MainWindow::setStale);
    connect(explorer_, &Explorer::statusMessage, this, [this](const QString& text, int timeoutMs) {
        statusBar()->showMessage(text, timeoutMs);
    });
    connect(explorer_, &Explorer::titleChanged, this, &MainWindow::setWindowTitle);
    connect(this, &MainWindow::runShown, explorer_, [this] {
        if (run_) {
            explorer_->showLinkUse(*run_); // the link chart shows the 3-D view's simulation
        }
    });
    demos_ = new DemoPlayer(*this, *explorer_);
    demos_->addMenu(menuBar());
    buildViewMenu();
    buildToolsMenu();
    connect(clock_, &ReplayClock::timeChanged, this, &MainWindow::renderFrame);
    connect(clock_, &ReplayClock::playingChanged, this,
            [this](bool playing) { play_->setText(playing ? tr("Pause") : tr("Play")); });
    connect(runner_, &LatestOnlyRunnerBase::started, this, [this] {
        progress_->setVisible(true);
        cancel_->setVisible(true);
        status_->setText(tr("Simulating %1 ...").arg(QString::fromStdString(scenario_.topology)));
    });
    connect(runner_, &LatestOnlyRunnerBase::finished, this, [this] {
        progress_->setVisible(false);
        cancel_->setVisible(false);
        showRun(runner_->result());
    });
    connect(runner_, &LatestOnlyRunnerBase::failed, this, [this](const QString& message) {
        progress_->setVisible(false);
        cancel_->setVisible(false);
        // The message whole in the note above the view; the one-line status only points to it.
        status_->setText(tr("Simulation failed (see the note above the view)"));
        collectiveFailure_ = tr("The view shows the previous result: this configuration's "
                                "collective could not be simulated: %1")
                                 .arg(message);
        updateStaleMark();
        emit runFailed(message);
    });
    connect(runner_, &LatestOnlyRunnerBase::cancelled, this, [this] {
        progress_->setVisible(false);
        cancel_->setVisible(false);
        status_->setText(tr("Simulation cancelled; showing the previous result"));
    });
    connect(stepRunner_, &LatestOnlyRunnerBase::started, this, [this] {
        progress_->setVisible(true);
        cancel_->setVisible(true);
        status_->setText(tr("Simulating the training step on every chip ..."));
    });
    connect(stepRunner_, &LatestOnlyRunnerBase::finished, this, [this] {
        progress_->setVisible(runner_->busy());
        cancel_->setVisible(runner_->busy());
        showStepRun(stepRunner_->result());
    });
    connect(stepRunner_, &LatestOnlyRunnerBase::failed, this, [this](const QString& message) {
        progress_->setVisible(runner_->busy());
        cancel_->setVisible(runner_->busy());
        status_->setText(tr("Step simulation failed (see the note above the view)"));
        showStepFailure(message);
        emit stepRunFailed(message);
        emit runFailed(message);
    });
    connect(stepRunner_, &LatestOnlyRunnerBase::cancelled, this, [this] {
        progress_->setVisible(runner_->busy());
        cancel_->setVisible(runner_->busy());
        status_->setText(stepRun_ ? tr("Step simulation cancelled; showing the previous step")
                                  : tr("Step simulation cancelled"));
    });
    requestRun();
    explorer_->start();
}

MainWindow::~MainWindow() = default;

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!closeConfirmed_ && explorer_->document().isModified()) {
        event->ignore(); // asked without blocking; the answer closes the window again
        const QString path = explorer_->document().path();
        const QString name = path.isEmpty() ? tr("this configuration") : QFileInfo(path).fileName();
        askAboutUnsavedChanges(*this, name, [this](UnsavedAnswer answer) {
            if (answer == UnsavedAnswer::Cancel ||
                (answer == UnsavedAnswer::Save && !explorer_->save())) {
                return;
            }
            closeConfirmed_ = true;
            close();
        });
        return;
    }
    setPresentation(false); // remember the working layout, not the classroom one
    setFullScreen(false);
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    Explorer::removeAutosave(); // a clean exit: nothing to restore next time
    QMainWindow::closeEvent(event);
}

void MainWindow::buildControls() {
    auto* toolbar = addToolBar(tr("Scenario"));
    toolbar_ = toolbar;
    toolbar->setObjectName("scenarioToolbar");
    toolbar->setMovable(false);

    layoutBox_ = new QComboBox(this);
    for (auto l : allLayouts()) {
        layoutBox_->addItem(QString::fromStdString(toString(l)));
    }
    layoutBox_->setToolTip(
        tr("torus: wrapped dimensions bent into circles; grid: flat, wrap links as arcs; "
           "physical: chips grouped by tray, host and pod; unrolled: the grid from above, small "
           "chips, long links (with View > links by utilisation, a heat map)"));
    toolbar->addWidget(new QLabel(tr(" Layout "), this));
    toolbar->addWidget(layoutBox_);

    colorBox_ = new QComboBox(this);
    for (auto mode : allColorModes()) {
        colorBox_->addItem(QString::fromStdString(toString(mode)));
    }
    colorBox_->setToolTip(
        tr("What chips are coloured by: their state (in the step replay, what each chip does) "
           "or the replica, data-parallel group, host or pod they belong to"));
    toolbar->addWidget(new QLabel(tr(" Colour chips by "), this));
    toolbar->addWidget(colorBox_);

    replayBox_ = new QComboBox(this);
    replayBox_->addItem(tr("whole step"), QString::fromStdString(toString(ReplayKind::Step)));
    replayBox_->addItem(tr("gradient sync"),
                        QString::fromStdString(toString(ReplayKind::Collective)));
    replayBox_->addItem(tr("step + evaluation"),
                        QString::fromStdString(toString(ReplayKind::StepWithEvaluation)));
    // The program opens on the whole step (its --replay default); a window built without it
    // starts on the collective until told otherwise.
    replayBox_->setCurrentIndex(
        replayBox_->findData(QString::fromStdString(toString(replayKind_))));
    replayBox_->setToolTip(tr("What the 3-D view replays: the whole training step (every chip "
                              "coloured by what it does, with the timeline panel under the "
                              "view), or the gradient all-reduce alone on the links"));
    toolbar->addWidget(new QLabel(tr(" Replay "), this));
    toolbar->addWidget(replayBox_);

    toolbar->addSeparator();
    struct CameraButton {
        const char* label;
        const char* key;
        VtkView::CameraPreset preset;
    };
    for (const auto& button : {CameraButton{"Reset", "R", VtkView::CameraPreset::Reset},
                               CameraButton{"Top", "T", VtkView::CameraPreset::Top},
                               CameraButton{"Side", "S", VtkView::CameraPreset::Side},
                               CameraButton{"Isometric", "I", VtkView::CameraPreset::Isometric}}) {
        auto* action = toolbar->addAction(tr(button.label));
        action->setShortcut(QKeySequence(QString::fromLatin1(button.key)));
        action->setToolTip(
            tr("%1 view (%2)").arg(tr(button.label), QString::fromLatin1(button.key)));
        const auto preset = button.preset;
        connect(action, &QAction::triggered, this, [this, preset] {
            if (view_) {
                view_->setCamera(preset);
            }
        });
    }

    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    caption_ = new QLabel(this);
    QFont captionFont = caption_->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 1.25);
    captionFont.setBold(true);
    caption_->setFont(captionFont);
    // Phase captions are long; they wrap rather than widen the window.
    caption_->setWordWrap(true);
    column->addWidget(caption_);
    staleView_ = staleMarkLabel();
    column->addWidget(staleView_);
    timelinePanel_ = new TimelinePanel(this);
    timelinePanel_->setVisible(false);
    // Its height is known once a step's tracks arrive: grow it then (never shrink what the
    // user dragged).
    connect(timelinePanel_, &TimelinePanel::neededHeightChanged, this,
            [this] { fitTimelinePanel(/*grow only=*/true); });
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName("viewSplitter");
    split->setChildrenCollapsible(false);
    split->addWidget(view_ ? static_cast<QWidget*>(view_) : placeholder_);
    split->addWidget(timelinePanel_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    // The splitter keeps its proportions when the docks take room (a demo, F5, a small
    // window): the timeline then gets back the rows and the axis it needs.
    split->installEventFilter(this);
    column->addWidget(split, 1);

    auto* playback = new QHBoxLayout();
    play_ = new QToolButton(this);
    play_->setText(tr("Play"));
    play_->setShortcut(QKeySequence(Qt::Key_Space));
    play_->setToolTip(tr("Play or pause the replay (Space)"));
    auto* step = new QToolButton(this);
    step->setText(tr("Step"));
    step->setShortcut(QKeySequence(Qt::Key_Period));
    step->setToolTip(tr("Advance by 1/200 of the collective (.)"));
    speedBox_ = new QComboBox(this);
    for (const char* s : {"0.25x", "0.5x", "1x", "2x", "4x"}) {
        speedBox_->addItem(QString::fromLatin1(s));
    }
    speedBox_->setCurrentText("1x");
    speedBox_->setToolTip(
        tr("Replay speed; at 1x a whole collective takes %1 s").arg(kReplaySeconds));
    scrubber_ = new QSlider(Qt::Horizontal, this);
    scrubber_->setRange(0, kScrubberSteps);
    scrubber_->setToolTip(tr("Simulated time"));
    timeLabel_ = new QLabel(this);
    playback->addWidget(play_);
    playback->addWidget(step);
    playback->addWidget(speedBox_);
    playback->addWidget(scrubber_, 1);
    playback->addWidget(timeLabel_);
    column->addLayout(playback);
    setCentralWidget(central);

    auto* side = new QWidget(this);
    auto* sideColumn = new QVBoxLayout(side);
    linkLegend_ = new LegendWidget(side);
    linkKey_ = new LinkKeyWidget(side);
    chipLegend_ = new LegendWidget(side);
    details_ = new QLabel(tr("Click a chip for its details."), side);
    details_->setWordWrap(true);
    details_->setTextFormat(Qt::RichText);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setMinimumWidth(120);
    sideColumn->addWidget(linkLegend_);
    sideColumn->addWidget(linkKey_);
    sideColumn->addWidget(chipLegend_);
    sideColumn->addWidget(details_, 1);
    auto* dock = new QDockWidget(tr("Legend and details"), this);
    dock->setObjectName("legendDock");
    dock->setWidget(side);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    status_ = new QLabel(this);
    // What was simulated: informative, but never worth widening the window for.
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    status_->setMinimumWidth(0);
    headline_ = new QLabel(this);
    headline_->setObjectName("headline");
    QFont headlineFont = headline_->font();
    headlineFont.setBold(true);
    headline_->setFont(headlineFont);
    headline_->setToolTip(
        tr("Time to train, step time, throughput and bottleneck of the configuration"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0); // busy: the engine reports no fraction
    progress_->setMaximumWidth(140);
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setVisible(false);
    statusBar()->addWidget(status_, 1);
    // A temporary message (hover, a demo step) takes the place of what was simulated; the
    // status bar hides it only when the window is already shown, so this says it outright.
    connect(statusBar(), &QStatusBar::messageChanged, status_,
            [this](const QString& message) { status_->setVisible(message.isEmpty()); });
    statusBar()->addPermanentWidget(headline_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);

    connect(cancel_, &QPushButton::clicked, runner_, &LatestOnlyRunnerBase::cancel);
    connect(cancel_, &QPushButton::clicked, stepRunner_, &LatestOnlyRunnerBase::cancel);
    connect(replayBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        setReplayKind(parseReplayKind(replayBox_->itemData(index).toString().toStdString()));
    });
    connect(timelinePanel_, &TimelinePanel::timeRequested, this, [this](double t) {
        setPlaying(false);
        setTimeUs(t * 1e6);
    });
    connect(layoutBox_, &QComboBox::currentTextChanged, this,
            [this](const QString& text) { setLayoutKind(parseLayout(text.toStdString())); });
    connect(colorBox_, &QComboBox::currentTextChanged, this,
            [this](const QString& text) { setColorMode(parseColorMode(text.toStdString())); });
    connect(speedBox_, &QComboBox::currentTextChanged, this,
            [this](const QString& text) { clock_->setSpeed(text.chopped(1).toDouble()); });
    connect(play_, &QToolButton::clicked, this, [this] { setPlaying(!clock_->playing()); });
    connect(step, &QToolButton::clicked, this, [this] {
        setPlaying(false);
        clock_->setTimeS(clock_->timeS() + clock_->durationS() / 200);
    });
    connect(scrubber_, &QSlider::valueChanged, this,
            [this](int value) { clock_->setTimeS(clock_->durationS() * value / kScrubberSteps); });
    if (view_) {
        connect(view_, &VtkView::chipClicked, this, &MainWindow::selectChip);
        connect(view_, &VtkView::linkClicked, this, &MainWindow::selectLink);
        connect(view_, &VtkView::chipHovered, this, [this](int chip) {
            if (chip >= 0 && run_) {
                const Topology& t = run_->topology;
                QString where;
                for (int d = 0; d < t.rank(); ++d) {
                    where += (d ? "," : "") + QString::number(t.coord(chip, d));
                }
                statusBar()->showMessage(tr("chip %1 (%2), host %3, pod %4")
                                             .arg(chip)
                                             .arg(where)
                                             .arg(t.hostOf(chip))
                                             .arg(t.podOf(chip)),
                                         2000);
            }
        });
    }
}

void MainWindow::buildToolsMenu() {
    QMenu* menu = menuBar()->addMenu(tr("&Tools"));
    QAction* tune = menu->addAction(tr("&Find the fastest..."), this, [this] { showTuneDialog(); });
    tune->setStatusTip(tr("Search the batch, split, sharding and gradient settings for the "
                          "fastest configuration (podscope-cli tune)"));
}

TuneDialog* MainWindow::showTuneDialog() {
    if (!tuneDialog_) {
        tuneDialog_ = new TuneDialog(explorer_->document(), this);
    }
    tuneDialog_->show();
    tuneDialog_->raise();
    tuneDialog_->activateWindow();
    return tuneDialog_;
}

void MainWindow::buildViewMenu() {
    QMenu* menu = menuBar()->addMenu(tr("&View"));
    linkHeatAction_ = menu->addAction(tr("Step replay: links by &utilisation"));
    linkHeatAction_->setCheckable(true);
    linkHeatAction_->setToolTip(tr("In the whole-step replay, colour links by their utilisation "
                                   "(a heat map) instead of by the kind of traffic they carry"));
    connect(linkHeatAction_, &QAction::toggled, this, [this](bool on) {
        if ((stepLinkColors_ == StepLinkColors::Utilisation) != on) {
            setStepLinkColors(on ? StepLinkColors::Utilisation : StepLinkColors::TrafficKind);
        }
    });
    wrapArcsAction_ = menu->addAction(tr("&Wrap-around arcs"));
    wrapArcsAction_->setCheckable(true);
    wrapArcsAction_->setChecked(true);
    wrapArcsAction_->setToolTip(tr("Draw the wrap-around links as arcs in the grid and physical "
                                   "layouts (off: the chips under them show)"));
    connect(wrapArcsAction_, &QAction::toggled, this, &MainWindow::setWrapArcs);
    menu->addSeparator();
    QAction* presentation = menu->addAction(tr("&Presentation layout"), this, [this] {
        const bool on = !presentation_;
        setPresentation(on);
        setFullScreen(on);
    });
    presentation->setShortcut(QKeySequence(Qt::Key_F5));
    presentation->setToolTip(
        tr("Classroom mode: the 3-D view, the chart in front and the demo caption in a large "
           "font, full screen (F5; Esc leaves)"));
    QAction* fullScreen =
        menu->addAction(tr("&Full screen"), this, [this] { setFullScreen(!isFullScreen()); });
    fullScreen->setShortcut(QKeySequence(Qt::Key_F11));
    leaveAction_ = menu->addAction(tr("&Leave presentation and full screen"), this, [this] {
        setPresentation(false);
        setFullScreen(false);
    });
    leaveAction_->setShortcut(QKeySequence(Qt::Key_Escape));
    leaveAction_->setEnabled(false);
    // Window-wide, so that they work with the menu bar hidden.
    addActions({presentation, fullScreen, leaveAction_});
}

void MainWindow::setFullScreen(bool on) {
    if (on == isFullScreen()) {
        return;
    }
    if (on) {
        maximizedBeforeFullScreen_ = isMaximized();
        showFullScreen();
    } else if (maximizedBeforeFullScreen_) {
        showMaximized();
    } else {
        showNormal();
    }
    leaveAction_->setEnabled(on || presentation_);
}

void MainWindow::setPresentation(bool on) {
    if (on == presentation_) {
        return;
    }
    presentation_ = on;
    leaveAction_->setEnabled(on || isFullScreen());
    auto* configuration = findChild<QDockWidget*>("configurationDock");
    auto* charts = findChild<QDockWidget*>("chartDock");
    auto* demo = findChild<QDockWidget*>("demoDock");
    QFont captionFont = font();
    captionFont.setBold(true);
    captionFont.setPointSizeF(captionFont.pointSizeF() * (on ? 1.6 : 1.25));
    caption_->setFont(captionFont);
    explorer_->chartTabs()->tabBar()->setVisible(!on); // one chart: the one in front
    details_->setVisible(!on);
    demos_->setPresentation(on);
    menuBar()->setVisible(!on);
    statusBar()->setVisible(!on);
    if (on) {
        stateBeforePresentation_ = saveState();
        toolbar_->hide();
        configuration->hide();
        charts->show();
        // Once laid out (and full screen): the 3-D view large, the chart and the caption beside it.
        QTimer::singleShot(0, this, [this, charts, demo] {
            if (!presentation_) {
                return;
            }
            resizeDocks({charts}, {height() * 2 / 5}, Qt::Vertical);
            if (demo->isVisible()) {
                resizeDocks({demo}, {width() / 3}, Qt::Horizontal);
            }
        });
    } else {
        restoreState(stateBeforePresentation_);
        demo->setVisible(demos_->active()); // a demo may have started or ended meanwhile
    }
}

QString MainWindow::clockText() const {
    return timeLabel_->text();
}

QString MainWindow::clockTotalText() const {
    return clock_->spanReading();
}

void MainWindow::setSpacePlays(bool plays) {
    play_->setShortcut(plays ? QKeySequence(Qt::Key_Space) : QKeySequence());
    play_->setToolTip(plays ? tr("Play or pause the replay (Space)")
                            : tr("Play or pause the replay"));
}

void MainWindow::setHeadline(const QString& text, const QString& why) {
    headline_->setText(text);
    headline_->setToolTip(
        why.isEmpty()
            ? tr("Time to train, step time, throughput and bottleneck of the configuration")
            : why);
}

int MainWindow::legendDockHeight() const {
    const int title = fontMetrics().height() + 8;
    const int margins = 2 * style()->pixelMetric(QStyle::PM_LayoutTopMargin) + 2 * 6;
    // The key of link kinds, where shown, with the column's spacing above it.
    const int key = linkKey_->isHidden()
                        ? 0
                        : linkKey_->heightForWidth(std::max(linkKey_->width(), 200)) + 6;
    return title + margins + linkLegend_->sizeHint().height() + key +
           chipLegend_->sizeHint().height() + fontMetrics().height() * 3;
}

QString MainWindow::staleMarkLabelText() {
    return tr("Showing the last valid result: this configuration is refused (see Configuration)");
}

QLabel* MainWindow::staleMarkLabel() {
    auto* label = new QLabel(staleMarkLabelText());
    label->setObjectName("staleMark");
    label->setWordWrap(true);
    label->setStyleSheet(
        "QLabel#staleMark { background: #fdebd0; color: #7e3c00; border: 1px solid #e59866; "
        "padding: 3px; font-weight: bold; }");
    label->setVisible(false);
    return label;
}

void MainWindow::setStale(bool stale) {
    refusedStale_ = stale;
    updateStaleMark();
}

void MainWindow::showStepFailure(const QString& message) {
    stepFailure_ = message.isEmpty() ? QString()
                                     : tr("The replay shows the previous step: this "
                                          "configuration's step could not be simulated: %1")
                                           .arg(message);
    updateStaleMark();
}

void MainWindow::updateStaleMark() {
    if (refusedStale_) {
        staleView_->setText(staleMarkLabelText());
    } else if (!stepFailure_.isEmpty() || !collectiveFailure_.isEmpty()) {
        staleView_->setText(stepFailure_.isEmpty() ? collectiveFailure_ : stepFailure_);
    }
    staleView_->setVisible(refusedStale_ || !stepFailure_.isEmpty() ||
                           !collectiveFailure_.isEmpty());
}

bool MainWindow::showsStaleMark() const {
    return !staleView_->isHidden();
}

QString MainWindow::staleMarkText() const {
    return staleView_->text();
}

void MainWindow::showScenario(const ViewScenario& scenario) {
    if (run_ && sameView(scenario, scenario_)) {
        return;
    }
    scenario_ = scenario;
    requestRun();
}

void MainWindow::requestRun() {
    runner_->request(
        [scenario = scenario_](const StopFlag& stop) { return runScenario(scenario, &stop); });
}

void MainWindow::showRun(std::shared_ptr<const ScenarioRun> run) {
    const auto previous = std::exchange(run_, std::move(run)); // kept alive until recoloured
    collectiveFailure_.clear();
    updateStaleMark();
    const auto& result = run_->simulation.results.front();
    status_->setText(tr("%1: %2 chips, %3 of %4 MiB, %5 chunks: %6 (simulated in %7 ms)")
                         .arg(QString::fromStdString(run_->topology.spec().name))
                         .arg(run_->topology.chipCount())
                         .arg(QString::fromStdString(toString(run_->scenario.collective.op)))
                         .arg(run_->scenario.collective.bytesPerChip / 1048576.0, 0, 'f', 0)
                         .arg(run_->scenario.collective.chunks)
                         .arg(durationText(result.timeS))
                         .arg(run_->wallS * 1e3, 0, 'f', 0));
    if (!replaysStep()) {
        clock_->setSpan(run_->replay->durationS(), kReplaySeconds);
        if (clock_->timeS() <= 0) {
            clock_->place(clock_->durationS() * 0.25);
        }
    }
    // Same grid (only the collective changed): keep the geometry and the camera, recolour only.
    const auto& was = previous ? previous->topology.spec() : TopologySpec{};
    const auto& now = run_->topology.spec();
    if (previous && scene_ && was.dims == now.dims && was.wrap == now.wrap &&
        was.podDims == now.podDims && was.hostBlock == now.hostBlock) {
        rebuildColorings();
        renderFrame();
    } else {
        rebuildScene();
    }
    emit runShown();
}

// Multislice: the scenario's slices, drawn apart with the DCN between them.
int MainWindow::sceneSlices() const {
    return training_ ? std::max(training_->slices, 1) : 1;
}

void MainWindow::rebuildScene() {
    if (!run_) {
        return;
    }
    coloring_.reset();
    stepColoring_.reset();
    SceneOptions options = sceneOptions_;
    options.slices = sceneSlices();
    scene_ = std::make_unique<SceneGeometry>(buildScene(*sceneTopology(), layout_, options));
    linkKey_->setKey(ui::linkKey(*scene_, bundledMachine(run_->scenario.hardware).opticalCube));
    rebuildColorings();
    if (view_) {
        view_->setScene(*scene_);
        if (layout_ == LayoutKind::Unrolled) {
            view_->setCamera(VtkView::CameraPreset::Top);
        }
    }
    renderFrame();
}

void MainWindow::setLayoutKind(LayoutKind layout) {
    layout_ = layout;
    layoutBox_->blockSignals(true);
    layoutBox_->setCurrentText(QString::fromStdString(toString(layout)));
    layoutBox_->blockSignals(false);
    // Where chips go, nothing else: the link and chip colours stay as the user chose them.
    rebuildScene();
}

void MainWindow::setWrapArcs(bool shown) {
    wrapArcsAction_->setChecked(shown);
    if (sceneOptions_.wrapArcs != shown) {
        sceneOptions_.wrapArcs = shown;
        rebuildScene();
    }
}

void MainWindow::setColorMode(ColorMode mode) {
    colorMode_ = mode;
    colorBox_->blockSignals(true);
    colorBox_->setCurrentText(QString::fromStdString(toString(mode)));
    colorBox_->blockSignals(false);
    renderFrame();
}

// Same chips in the same places: a scene built for one serves the other.
static bool sameGrid(const Topology& a, const Topology& b) {
    return a.spec().dims == b.spec().dims && a.spec().wrap == b.spec().wrap &&
           a.spec().podDims == b.spec().podDims && a.spec().hostBlock == b.spec().hostBlock;
}

const Topology* MainWindow::sceneTopology() const {
    if (replaysStep() && stepRun_) {
        return &stepRun_->topology();
    }
    return run_ ? &run_->topology : nullptr;
}

void MainWindow::rebuildColorings() {
    coloring_.reset();
    stepColoring_.reset();
    if (!scene_) {
        return;
    }
    // Each colouring only where the scene has its topology's chips.
    if (run_ && sameGrid(run_->topology, *sceneTopology())) {
        coloring_ = std::make_unique<FrameColoring>(run_->topology, *scene_, *run_->replay,
                                                    run_->scenario.modelParallelTile,
                                                    run_->scenario.replicasPerChip);
        coloring_->setDcnStage(run_->dcnStartS, run_->dcnEndS, run_->dcnLinkUse);
    }
    if (stepRun_ && sameGrid(stepRun_->topology(), *sceneTopology())) {
        stepColoring_ = std::make_unique<StepColoring>(*stepRun_, *scene_);
    }
}

void MainWindow::showTraining(const Scenario& training) {
    if (training_ && sameScenario(*training_, training) && (stepRun_ || simulatingStep())) {
        return;
    }
    training_ = training;
    if (replaysStep()) {
        requestStepRun();
    }
}

bool MainWindow::simulatingStep() const {
    return stepRunner_->busy();
}

void MainWindow::cancelStep() {
    stepRunner_->cancel();
}

void MainWindow::requestStepRun() {
    if (!training_) {
        return;
    }
    stepRunner_->request([training = *training_, kind = replayKind_](const StopFlag& stop) {
        return runStep(training, kind, &stop);
    });
}

void MainWindow::showStepRun(std::shared_ptr<const StepRun> run) {
    const double fraction = clock_->fraction(0.3);
    const auto previous = std::exchange(stepRun_, std::move(run)); // alive until recoloured
    showStepFailure({});
    timelinePanel_->setRun(stepRun_);
    timelinePanel_->setChip(std::max<ChipId>(selected_, 0));
    status_->setText(tr("Training step of %1 chips simulated in %2 ms: %3 per step")
                         .arg(stepRun_->timeline.chips)
                         .arg(stepRun_->wallS * 1e3, 0, 'f', 0)
                         .arg(durationText(stepRun_->timeline.stepS)));
    if (replaysStep()) {
        clock_->setSpan(stepRun_->timeline.stepS, kStepReplaySeconds);
        clock_->place(std::clamp(fraction, 0.0, 1.0) * stepRun_->timeline.stepS);
        if (!scene_ || !run_ || !sameGrid(stepRun_->topology(), *sceneTopology()) ||
            scene_->slices != sceneSlices() ||
            static_cast<std::int64_t>(scene_->chipPositions.size()) !=
                stepRun_->timeline.chips * scene_->slices) {
            rebuildScene();
        } else {
            rebuildColorings();
            renderFrame();
        }
    } else {
        rebuildColorings();
    }
    emit stepRunShown();
}

void MainWindow::setReplayKind(ReplayKind kind) {
    const bool kindChanged = kind != replayKind_;
    const double fraction = clock_->fraction();
    replayKind_ = kind;
    replayBox_->blockSignals(true);
    replayBox_->setCurrentIndex(replayBox_->findData(QString::fromStdString(toString(kind))));
    replayBox_->blockSignals(false);
    const bool panelWasShown = !timelinePanel_->isHidden();
    timelinePanel_->setVisible(replaysStep());
    if (replaysStep() && !panelWasShown) {
        // Once laid out, so that the splitter's height is the window's.
        QTimer::singleShot(0, this, [this] { fitTimelinePanel(/*grow only=*/false); });
    }
    if (replaysStep() && (!stepRun_ || stepRun_->kind != kind ||
                          (training_ && !sameScenario(stepRun_->scenario, *training_)))) {
        requestStepRun();
    }
    if (!kindChanged) {
        return;
    }
    updateClockSpan();
    clock_->place(std::clamp(fraction, 0.0, 1.0) * clock_->durationS());
    const Topology* topology = sceneTopology();
    if (scene_ && topology && scene_->slices == sceneSlices() &&
        static_cast<std::int64_t>(scene_->chipPositions.size()) ==
            topology->chipCount() * scene_->slices &&
        (!run_ || !stepRun_ || sameGrid(run_->topology, stepRun_->topology()))) {
        rebuildColorings();
        renderFrame();
    } else {
        rebuildScene();
    }
}

void MainWindow::setStepLinkColors(StepLinkColors colors) {
    stepLinkColors_ = colors;
    linkHeatAction_->setChecked(colors == StepLinkColors::Utilisation);
    renderFrame();
}

bool MainWindow::setTimeAtActivity(podscope::ChipActivity activity) {
    if (!replaysStep() || !stepRun_) {
        return false;
    }
    const StepTimeline& timeline = stepRun_->timeline;
    double bestS = -1, at = 0;
    for (const int index : timeline.foreground) {
        const TimelineItem& item = timeline.items[static_cast<std::size_t>(index)];
        const ChipSpan& span = item.spanOf(0);
        if (item.activity == activity && span.endS - span.startS > bestS) {
            bestS = span.endS - span.startS;
            at = (span.startS + span.endS) / 2;
        }
    }
    if (bestS < 0) {
        return false;
    }
    setTimeUs(at * 1e6);
    return true;
}

void MainWindow::setTimeFraction(double fraction) {
    setTimeUs(std::clamp(fraction, 0.0, 1.0) * durationUs());
}

void MainWindow::updateClockSpan() {
    if (replaysStep()) {
        clock_->setSpan(stepRun_ ? stepRun_->timeline.stepS : 0, kStepReplaySeconds);
    } else {
        clock_->setSpan(run_ ? run_->replay->durationS() : 0, kReplaySeconds);
    }
}

double MainWindow::durationUs() const {
    return clock_->durationS() * 1e6;
}

double MainWindow::timeUs() const {
    return clock_->timeS() * 1e6;
}

void MainWindow::setTimeUs(double microsecondsValue) {
    clock_->setTimeS(microsecondsValue * 1e-6);
}

void MainWindow::setPlaying(bool playing) {
    clock_->setPlaying(playing);
}

void MainWindow::advanceFrame(double wallSeconds) {
    clock_->advance(wallSeconds);
}

void MainWindow::renderFrame() {
    const double timeS = clock_->timeS();
    const double duration = clock_->durationS();
    if (replaysStep()) {
        if (!stepColoring_) {
            return;
        }
        stepColoring_->compute(timeS, selected_, stepLinkColors_,
                               stepRun_->timeline.stepS * kStepWindowFraction, frame_, colorMode_);
        timelinePanel_->setCursorS(timeS);
    } else {
        if (!coloring_) {
            return;
        }
        coloring_->compute(timeS, duration * kWindowFraction, colorMode_, frame_);
    }
    if (view_) {
        view_->setChipColors(frame_.chips);
        view_->setLinkColors(frame_.links);
        view_->setDcnLinkColor(frame_.dcnLink);
        view_->setMarkers(frame_.markers);
    }
    // Under software OpenGL every repainted widget is re-uploaded and composed with the view,
    // so widgets are touched only when what they show has changed.
    const QString caption = QString::fromStdString(frame_.caption);
    if (caption_->text() != caption) {
        caption_->setText(caption);
    }
    if (!(linkLegend_->legend() == frame_.linkLegend)) {
        linkLegend_->setLegend(frame_.linkLegend);
    }
    if (!(chipLegend_->legend() == frame_.chipLegend)) {
        chipLegend_->setLegend(frame_.chipLegend);
    }
    const QString time = clock_->reading();
    if (timeLabel_->text() != time) {
        timeLabel_->setText(time);
    }
    const int position =
        duration > 0 ? static_cast<int>(std::lround(timeS / duration * kScrubberSteps)) : 0;
    if (scrubber_->value() != position) {
        scrubber_->blockSignals(true);
        scrubber_->setValue(position);
        scrubber_->blockSignals(false);
    }
}

QString MainWindow::caption() const {
    return caption_->text();
}

QString MainWindow::details() const {
    return details_->text();
}

void MainWindow::selectLink(int link) {
    if (!run_ || !scene_ || link < 0 || static_cast<std::size_t>(link) >= scene_->links.size()) {
        selectChip(-1);
        return;
    }
    const LinkDetails d = linkDetails(*run_, scene_->links[static_cast<std::size_t>(link)],
                                      clock_->timeS(), run_->replay->durationS() * kWindowFraction);
    static const char* dims = "XYZW";
    details_->setText(
        tr("<b>Link %1 → %2</b> (%3%4)<br>%5<br>carried %6 MiB<br>busy %7 % of the collective<br>"
           "current utilisation %8 %<br>peak bandwidth %9 GB/s per direction")
            .arg(d.from)
            .arg(d.to)
            .arg(d.direction == Direction::Plus ? '+' : '-')
            .arg(dims[d.dim])
            .arg(d.crossesPods ? tr("between pods") : tr("inside a pod"))
            .arg(d.carriedBytes / 1048576.0, 0, 'f', 2)
            .arg(d.utilization * 100, 0, 'f', 1)
            .arg(d.currentUtilization * 100, 0, 'f', 1)
            .arg(d.bandwidthBps / 1e9, 0, 'f', 1));
    if (view_) {
        view_->setHighlighted({d.from, d.to});
    }
}

void MainWindow::selectChip(ChipId chip) {
    selected_ = chip;
    if (!run_ || chip < 0 || chip >= run_->topology.chipCount()) {
        details_->setText(tr("Click a chip for its details."));
        if (view_) {
            view_->setHighlighted({});
        }
        return;
    }
    if (replaysStep()) {
        timelinePanel_->setChip(chip);
        renderFrame(); // the caption follows the selected chip
    }
    const ChipDetails d = chipDetails(*run_, chip);
    QString coords;
    for (std::size_t k = 0; k < d.coords.size(); ++k) {
        coords += (k ? ", " : "") + QString::number(d.coords[k]);
    }
    const QString replicas = d.replicasOnChip == 1
                                 ? tr("replica %1").arg(d.firstReplica)
                                 : tr("replicas %1-%2 (one per core)")
                                       .arg(d.firstReplica)
                                       .arg(d.firstReplica + d.replicasOnChip - 1);
    details_->setText(tr("<b>Chip %1</b><br>coordinates (%2)<br>cores %3-%4<br>host %5, pod %6<br>"
                         "%7, data-parallel group %8<br>sent %9 MiB, received %10 MiB<br>"
                         "busiest outgoing link %11 % busy")
                          .arg(chip)
                          .arg(coords)
                          .arg(d.firstCore)
                          .arg(d.lastCore)
                          .arg(d.host)
                          .arg(d.pod)
                          .arg(replicas)
                          .arg(d.dataParallelGroup)
                          .arg(d.sentBytes / 1048576.0, 0, 'f', 2)
                          .arg(d.receivedBytes / 1048576.0, 0, 'f', 2)
                          .arg(d.busiestOutgoingUtilization * 100, 0, 'f', 1));
    if (view_) {
        view_->setHighlighted(replaysStep() ? std::vector<ChipId>{chip}
                                            : ringMembers(*run_, chip, clock_->timeS()));
    }
}

// The panel whole (its tracks, counts and axis) up to 3/5 of the splitter, the 3-D view the rest.
bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == findChild<QSplitter*>("viewSplitter")) {
        QTimer::singleShot(0, this, [this] { fitTimelinePanel(/*grow only=*/true); });
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::fitTimelinePanel(bool growOnly) {
    auto* split = findChild<QSplitter*>("viewSplitter");
    if (!split || timelinePanel_->isHidden()) {
        return;
    }
    // Short of the least the view and the panel need whole (a demo at 1280x720: the charts took
    // 2/5 of the height and the caption three lines): the charts dock gives up the difference,
    // down to its own least.
    const int shortfall = split->minimumSizeHint().height() - split->height();
    auto* charts = findChild<QDockWidget*>("chartDock");
    if (shortfall > 0 && charts && charts->isVisible() && !charts->isFloating() &&
        dockWidgetArea(charts) == Qt::BottomDockWidgetArea) {
        const int room = charts->height() - charts->minimumSizeHint().height();
        if (room > 0) {
            resizeDocks({charts}, {charts->height() - std::min(room, shortfall)}, Qt::Vertical);
            return; // the splitter's resize comes back here
        }
    }
    const int total = std::max(split->height() - split->handleWidth(), 1);
    // Its whole height up to 3/5 of the column; in a short window (1280x720 with a demo) at
    // least every track and the axis, the counts a strip, as long as the view keeps a third.
    const int compact = std::min(timelinePanel_->compactHeight(), total * 2 / 3);
    const int panel =
        std::min(timelinePanel_->sizeHint().height(), std::max(total * 3 / 5, compact));
    if (growOnly && timelinePanel_->height() >= panel) {
        return;
    }
    split->setSizes({total - panel, panel});
}

} // namespace podscope::ui
