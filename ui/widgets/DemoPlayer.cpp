#include "widgets/DemoPlayer.hpp"

#include "charts/BreakdownChart.hpp"
#include "common/InputError.hpp"
#include "session/ScenarioDocument.hpp"
#include "training/StepModel.hpp"
#include "view/ScenarioRun.hpp"
#include "widgets/DemoPanel.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/MainWindow.hpp"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace podscope::ui {

DemoPlayer::DemoPlayer(MainWindow& window, Explorer& explorer)
    : QObject(&window)
    , window_(window)
    , explorer_(explorer) {
    panel_ = new DemoPanel;
    dock_ = new QDockWidget(tr("Demo"), &window_);
    dock_->setObjectName("demoDock");
    dock_->setWidget(panel_);
    window_.addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();
    nextAction_ = new QAction(tr("Next demo step"), this);
    nextAction_->setShortcuts(
        {QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Space)});
    backAction_ = new QAction(tr("Previous demo step"), this);
    backAction_->setShortcuts({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_Left)});
    for (QAction* action : {nextAction_, backAction_}) {
        action->setEnabled(false);
        window_.addAction(action); // window-wide, menus and toolbars hidden or not
    }
    connect(nextAction_, &QAction::triggered, this, &DemoPlayer::next);
    connect(backAction_, &QAction::triggered, this, &DemoPlayer::back);
    connect(panel_, &DemoPanel::backClicked, this, &DemoPlayer::back);
    connect(panel_, &DemoPanel::nextClicked, this, &DemoPlayer::next);
    connect(panel_, &DemoPanel::leaveClicked, this, &DemoPlayer::leave);
    connect(panel_, &DemoPanel::nextDemoClicked, this, [this] {
        if (const DemoScript* demo = nextDemo()) {
            start(*demo);
        }
    });
    // Closing the dock is leaving the demo; the window hiding it for a while (restoring a
    // layout) is not.
    dock_->installEventFilter(this);
    connect(&explorer_, &Explorer::analysisShown, this, &DemoPlayer::checkReady);
    connect(&window_, &MainWindow::runShown, this, &DemoPlayer::checkReady);
    connect(&window_, &MainWindow::stepRunShown, this, &DemoPlayer::checkReady);
    auto fail = [this](const QString& message) {
        if (active() && waiting_) {
            waiting_ = false;
            superseded_ = true;
            panel_->setBusy(false);
            window_.statusBar()->showMessage(tr("Demo step not shown: %1").arg(message));
            emit stepFailed(message);
        }
    };
    connect(&explorer_, &Explorer::analysisFailed, this, fail);
    connect(&window_, &MainWindow::runFailed, this, fail);
    // The user may change the configuration before the step is on screen: it is theirs now.
    connect(&explorer_.document(), &ScenarioDocument::changed, this, [this] {
        if (active() && waiting_ &&
            !sameScenario(explorer_.document().scenario(), script_.steps[static_cast<std::size_t>(step_)].scenario)) {
            waiting_ = false;
            superseded_ = true;
            panel_->setBusy(false);
        }
    });
}

bool DemoPlayer::eventFilter(QObject* watched, QEvent* event) {
    if (watched == dock_ && event->type() == QEvent::Close && active()) {
        leave();
    }
    return QObject::eventFilter(watched, event);
}

QString DemoPlayer::userDemoFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/demos";
}

void DemoPlayer::addMenu(QMenuBar* bar) {
    bundled_ = bundledDemos();
    QMenu* menu = bar->addMenu(tr("&Demos"));
    // Rebuilt on opening, so that a script a teacher just saved is listed.
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { fillMenu(menu); });
    fillMenu(menu);
}

void DemoPlayer::fillMenu(QMenu* menu) {
    menu->clear();
    for (std::size_t i = 0; i < bundled_.size(); ++i) {
        const DemoScript& demo = bundled_[i];
        QAction* action = menu->addAction(QString("%1. %2").arg(demo.order).arg(QString::fromStdString(demo.title)),
                                          this, [this, i] { start(bundled_[i]); });
        action->setStatusTip(QString::fromStdString(demo.summary));
        action->setToolTip(QString::fromStdString(demo.summary));
    }
    const QDir folder(userDemoFolder());
    const QStringList own = folder.entryList({"*.json"}, QDir::Files, QDir::Name);
    if (!own.isEmpty()) {
        menu->addSeparator();
        for (const QString& file : own) {
            menu->addAction(file, this, [this, path = folder.filePath(file)] { openScript(path); });
        }
    }
    menu->addSeparator();
    menu->addAction(tr("Open demo script..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(&window_, tr("Open demo script"), userDemoFolder(),
                                                          tr("Demo scripts (*.json)"));
        if (!path.isEmpty()) {
            openScript(path);
        }
    });
}

void DemoPlayer::openScript(const QString& path) {
    try {
        start(loadDemo(path.toStdString()));
    } catch (const InputError& e) {
        // Names the step and the field; nothing changes.
        QMessageBox::warning(&window_, tr("Cannot open demo"), QString::fromStdString(e.what()));
    }
}

void DemoPlayer::setPresentation(bool on) {
    panel_->setPresentation(on);
}

const DemoScript* DemoPlayer::nextDemo() const {
    if (bundled_.empty()) {
        return nullptr;
    }
    for (std::size_t i = 0; i < bundled_.size(); ++i) {
        if (bundled_[i].name == script_.name) {
            return &bundled_[(i + 1) % bundled_.size()];
        }
    }
    return &bundled_.front();
}

void DemoPlayer::start(DemoScript script, int step) {
    script_ = std::move(script);
    const DemoScript* next = nextDemo();
    panel_->setNextDemo(next ? QString("%1. %2").arg(next->order).arg(QString::fromStdString(next->title))
                             : QString());
    nextAction_->setEnabled(true);
    backAction_->setEnabled(true);
    window_.setSpacePlays(false); // Space is the next step now
    const bool wasShown = dock_->isVisible();
    dock_->show();
    dock_->raise();
    if (!wasShown) {
        // The demo takes most of the right column: the caption and the data blocks must be
        // readable from the back of a classroom. Once laid out, so that the sizes apply.
        // The right column runs the full height, beside the charts rather than above them.
        window_.setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
        QTimer::singleShot(0, this, [this] {
            // About a third of the window, at most 460 pixels beside the configuration panel.
            const int width = window_.presentation() ? window_.width() / 3
                                                     : std::min(460, window_.width() * 9 / 25);
            window_.resizeDocks({dock_}, {width}, Qt::Horizontal);
            if (auto* charts = window_.findChild<QDockWidget*>("chartDock"); charts && charts->isVisible()) {
                window_.resizeDocks({charts}, {window_.height() * 2 / 5}, Qt::Vertical);
            }
            if (auto* legend = window_.findChild<QDockWidget*>("legendDock"); legend && legend->isVisible()) {
                // The legends whole (their own height), the demo the rest of the column.
                const int legendHeight = window_.legendDockHeight();
                window_.resizeDocks({legend, dock_},
                                    {legendHeight, window_.height() - legendHeight}, Qt::Vertical);
            }
        });
    }
    showStep(step);
}

void DemoPlayer::showStep(int step) {
    if (script_.steps.empty()) {
        return;
    }
    step_ = std::clamp(step, 0, static_cast<int>(script_.steps.size()) - 1);
    const DemoStep& current = script_.steps[static_cast<std::size_t>(step_)];
    waiting_ = true;
    superseded_ = false;
    panel_->setBusy(true);
    panel_->showStep(script_, step_);
    explorer_.showChart(current.chart);
    showComparison();
    if (window_.layoutKind() != current.layout) {
        window_.setLayoutKind(current.layout);
    }
    if (window_.colorMode() != current.colorMode) {
        window_.setColorMode(current.colorMode);
    }
    window_.setReplayKind(current.replay);
    // An undoable edit: leaving the demo keeps this configuration, and Undo steps back.
    explorer_.document().edit(current.scenario, tr("demo step %1").arg(step_ + 1));
    window_.statusBar()->showMessage(tr("Demo: %1, step %2").arg(QString::fromStdString(script_.title)).arg(step_ + 1));
    // When nothing changed the analysis and the replay are already there.
    QTimer::singleShot(0, this, &DemoPlayer::checkReady);
}

void DemoPlayer::next() {
    if (active() && step_ + 1 < static_cast<int>(script_.steps.size())) {
        showStep(step_ + 1);
    }
}

void DemoPlayer::back() {
    if (active() && step_ > 0) {
        showStep(step_ - 1);
    }
}

void DemoPlayer::leave() {
    step_ = -1;
    waiting_ = false;
    nextAction_->setEnabled(false);
    backAction_->setEnabled(false);
    window_.setSpacePlays(true);
    if (pinned_) {
        explorer_.clearBaseline();
        pinned_ = false;
    }
    explorer_.breakdownChart()->holdScale(0);
    dock_->hide();
}

void DemoPlayer::showComparison() {
    const auto index = static_cast<std::size_t>(step_);
    const DemoStep& current = script_.steps[index];
    const DemoStep* before = current.compareWithPrevious ? &script_.steps[index - 1] : nullptr;
    const DemoStep* after =
        index + 1 < script_.steps.size() && script_.steps[index + 1].compareWithPrevious
            ? &script_.steps[index + 1]
            : nullptr;
    // Both steps of a pair draw on the pair's scale, so that moving between them changes the
    // bars and never the axis. Steps are checked when the script loads: they simulate.
    double scaleS = 0;
    if (before || after) {
        for (const DemoStep* step : {before, &current, after}) {
            if (step) {
                scaleS = std::max(scaleS, simulateTraining(step->scenario).breakdown.total());
            }
        }
    }
    explorer_.breakdownChart()->holdScale(scaleS * 1e3);
    if (before) {
        explorer_.pinBaseline(simulateTraining(before->scenario), tr("step %1").arg(step_),
                              tr("step %1").arg(step_ + 1));
        pinned_ = true;
    } else if (pinned_) {
        explorer_.clearBaseline();
        pinned_ = false;
    }
}

void DemoPlayer::fitLegend() {
    // The legends change with the step (the collective's utilisation scale, the step's kinds
    // of traffic): the legend dock keeps the height of the legends shown, the demo the rest.
    auto* legend = window_.findChild<QDockWidget*>("legendDock");
    if (!legend || !legend->isVisible() || !dock_->isVisible()) {
        return;
    }
    const int legendHeight = window_.legendDockHeight();
    if (std::abs(legend->height() - legendHeight) > 2) {
        window_.resizeDocks({legend, dock_}, {legendHeight, legend->height() + dock_->height() - legendHeight},
                            Qt::Vertical);
    }
}

void DemoPlayer::checkReady() {
    if (!active() || !waiting_) {
        return;
    }
    const DemoStep& current = script_.steps[static_cast<std::size_t>(step_)];
    const TrainingAnalysis* analysis = explorer_.analysis();
    if (!analysis || !sameScenario(analysis->scenario, current.scenario)) {
        return;
    }
    const ScenarioRun* run = window_.currentRun();
    if (!run || !sameView(run->scenario, window_.viewScenario())) {
        return;
    }
    // The step replay waits for the step timeline of this step's configuration.
    const StepRun* stepRun = window_.stepRun();
    if (current.replay != ReplayKind::Collective &&
        (window_.simulatingStep() || !stepRun || stepRun->kind != current.replay ||
         !sameScenario(stepRun->scenario, current.scenario))) {
        return;
    }
    waiting_ = false;
    panel_->setBusy(false);
    fitLegend();
    window_.setPlaying(false);
    window_.setTimeUs(current.timeFraction * window_.durationUs());
    panel_->setReplayClock(window_.clockTotalText());
    emit stepShown(step_);
}

} // namespace podscope::ui
