#pragma once

#include "scene/SceneLayout.hpp"
#include "training/Scenario.hpp"
#include "view/FrameColoring.hpp"
#include "view/ScenarioRun.hpp"
#include "view/StepColoring.hpp"
#include "view/StepRun.hpp"

#include <QMainWindow>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QToolBar;
class QToolButton;

namespace podscope::ui {

class DemoPlayer;
class Explorer;
class TuneDialog;
class LegendWidget;
class LinkKeyWidget;
class ReplayClock;
template <class Result> class LatestOnlyRunner;
class TimelinePanel;
class VtkView;

// The main window: the 3-D multipod in the centre, playback controls below it, legend and
// details on the right. Simulations run in a LatestOnlyRunner; the window only replays.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Without `withView` (offscreen or minimal platforms, where OpenGL windows cannot live) the
    // centre shows a placeholder and everything else works.
    MainWindow(const Scenario& training, bool withView, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Replays this collective (re-simulating only if it differs from the one shown).
    void showScenario(const ViewScenario& scenario);
    Explorer* explorer() const { return explorer_; }
    // Tools > Find the fastest...: opens (or raises) the search dialog.
    TuneDialog* showTuneDialog();
    DemoPlayer* demos() const { return demos_; }
    const ViewScenario& viewScenario() const { return scenario_; }

    // The training configuration the step replay simulates (the explorer's analysed one); the
    // step timeline is recomputed off the UI thread when the step replay shows and it changed.
    void showTraining(const Scenario& training);
    // The collective (gradient sync) or the whole step; the timeline panel shows in the latter.
    void setReplayKind(ReplayKind kind);
    ReplayKind replayKind() const { return replayKind_; }
    bool replaysStep() const { return replayKind_ != ReplayKind::Collective; }
    const StepRun* stepRun() const { return stepRun_.get(); }
    TimelinePanel* timelinePanel() const { return timelinePanel_; }
    // Whether a step timeline is being simulated; cancelStep() drops it (the last one stays).
    bool simulatingStep() const;
    void cancelStep();
    // The replay time as a fraction (0..1) of what is replayed.
    void setTimeFraction(double fraction);
    // In the step replay: the middle of the longest span in which chip 0 does `activity`
    // (screenshots of a phase, whatever the configuration's timing). False when it never does.
    bool setTimeAtActivity(podscope::ChipActivity activity);
    // In the step replay, links by utilisation (a heat map) instead of by traffic kind.
    void setStepLinkColors(StepLinkColors colors);
    StepLinkColors stepLinkColors() const { return stepLinkColors_; }

    void setLayoutKind(LayoutKind layout);
    // Wrap-around links as arcs in the grid and physical layouts (on by default).
    void setWrapArcs(bool shown);
    bool wrapArcs() const { return sceneOptions_.wrapArcs; }
    const SceneGeometry* scene() const { return scene_.get(); }
    void setColorMode(ColorMode mode);
    LayoutKind layoutKind() const { return layout_; }
    ColorMode colorMode() const { return colorMode_; }
    void setTimeUs(double microseconds);
    void setPlaying(bool playing);
    // Advances the replay by one frame's worth of time (what the play timer does).
    void advanceFrame(double wallSeconds);

    double timeUs() const;
    double durationUs() const;
    bool hasRun() const { return run_ != nullptr; }
    const ScenarioRun* currentRun() const { return run_.get(); }
    // The same, kept alive for work that outlives the next replay (exports off the UI thread).
    std::shared_ptr<const ScenarioRun> sharedRun() const { return run_; }
    VtkView* view() const { return view_; }
    const FrameColors& frame() const { return frame_; }
    QString caption() const;
    LegendWidget* chipLegend() const { return chipLegend_; }
    LegendWidget* linkLegend() const { return linkLegend_; }
    LinkKeyWidget* linkKey() const { return linkKey_; }
    void selectChip(ChipId chip);
    // `link`: index into the scene's links.
    void selectLink(int link);
    QString details() const;

    // The headline numbers (time to train, step time, throughput, bottleneck), in a permanent
    // status-bar widget that hover and click messages never replace.
    // `why`, when not empty, is the headline's tooltip (the whole of a sentence the headline
    // shortens).
    void setHeadline(const QString& text, const QString& why = {});
    QLabel* headline() const { return headline_; }
    // Marks the 3-D view as showing the last valid result (the configuration is refused).
    void setStale(bool stale);
    // Marks the step replay as showing the previous step: this configuration's step could not
    // be simulated (the whole message in the mark, not the status bar). A new step clears it.
    void showStepFailure(const QString& message);
    bool showsStaleMark() const;
    QString staleMarkText() const;
    // A label saying "showing the last valid result", hidden, for above a view or the charts.
    static QLabel* staleMarkLabel();
    static QString staleMarkLabelText();

    // Classroom mode: the presentation layout (3-D view, chart in front, demo caption in a
    // large font; no configuration panel, menus or toolbar) and full screen. F5 enters both,
    // F11 toggles full screen, Esc leaves both.
    void setPresentation(bool on);
    bool presentation() const { return presentation_; }
    void setFullScreen(bool on);
    // Space plays and pauses the replay, except while a demo uses it for its next step.
    void setSpacePlays(bool plays);
    QLabel* viewCaption() const { return caption_; }
    // The replay clock under the view as shown ("546.0 µs / 2184.1 µs"), and its total alone
    // in the same format, which demo captions quote.
    QString clockText() const;
    QString clockTotalText() const;
    // The height the legend dock needs to show both legends and a line of details.
    int legendDockHeight() const;

signals:
    // A simulation result is on screen (scene built, first frame coloured).
    void runShown();
    void runFailed(const QString& message);
    // The step replay's simulation failed (emitted just before runFailed, with its message).
    void stepRunFailed(const QString& message);
    // A step timeline is on screen (3-D colours and the timeline panel).
    void stepRunShown();

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitTimelinePanel(bool growOnly);
    void buildControls();
    void buildViewMenu();
    void buildToolsMenu();
    void requestRun();
    void showRun(std::shared_ptr<const ScenarioRun> run);
    void rebuildScene();
    int sceneSlices() const;
    void requestStepRun();
    void showStepRun(std::shared_ptr<const StepRun> run);
    void updateStaleMark();
    // The topology the scene is built from: the step's in the step replay, else the collective's.
    const Topology* sceneTopology() const;
    void rebuildColorings();
    // The clock's span: the step's in the step replay, else the collective's.
    void updateClockSpan();
    void renderFrame();

    ViewScenario scenario_;
    LayoutKind layout_ = LayoutKind::Torus;
    SceneOptions sceneOptions_;
    QAction* wrapArcsAction_ = nullptr;
    ColorMode colorMode_ = ColorMode::ChipState;
    std::shared_ptr<const ScenarioRun> run_;
    std::unique_ptr<SceneGeometry> scene_;
    std::unique_ptr<FrameColoring> coloring_;
    FrameColors frame_;
    ReplayKind replayKind_ = ReplayKind::Collective;
    StepLinkColors stepLinkColors_ = StepLinkColors::TrafficKind;
    QAction* linkHeatAction_ = nullptr;
    std::optional<Scenario> training_;
    std::shared_ptr<const StepRun> stepRun_;
    std::unique_ptr<StepColoring> stepColoring_;
    LatestOnlyRunner<StepRun>* stepRunner_ = nullptr;
    TimelinePanel* timelinePanel_ = nullptr;
    QComboBox* replayBox_ = nullptr;
    ReplayClock* clock_ = nullptr;
    ChipId selected_ = -1;

    LatestOnlyRunner<ScenarioRun>* runner_ = nullptr;
    Explorer* explorer_ = nullptr;
    TuneDialog* tuneDialog_ = nullptr;
    DemoPlayer* demos_ = nullptr;
    VtkView* view_ = nullptr;
    QLabel* placeholder_ = nullptr;
    QLabel* caption_ = nullptr;
    QLabel* details_ = nullptr;
    QLabel* timeLabel_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* headline_ = nullptr;
    QLabel* staleView_ = nullptr;
    bool refusedStale_ = false; // the configuration is refused (setStale)
    QString stepFailure_;       // why the shown step is not this configuration's, if it is not
    QString collectiveFailure_; // likewise for the collective the view shows
    QToolBar* toolbar_ = nullptr;
    bool presentation_ = false;
    bool closeConfirmed_ = false; // the user chose Save or Discard about unsaved changes
    bool maximizedBeforeFullScreen_ = false;
    QByteArray stateBeforePresentation_;
    QAction* leaveAction_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QSlider* scrubber_ = nullptr;
    QToolButton* play_ = nullptr;
    QComboBox* layoutBox_ = nullptr;
    QComboBox* colorBox_ = nullptr;
    QComboBox* speedBox_ = nullptr;
    LegendWidget* chipLegend_ = nullptr;
    LegendWidget* linkLegend_ = nullptr;
    LinkKeyWidget* linkKey_ = nullptr;
};

} // namespace podscope::ui
