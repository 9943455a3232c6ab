#pragma once

#include "demo/DemoScript.hpp"

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenu;
class QMenuBar;

namespace podscope::ui {

class DemoPanel;
class Explorer;
class MainWindow;

// Runs a guided demo in the main window: each step sets the configuration (an undoable edit,
// so the user can leave at any step and keep exploring), the chart in front and the 3-D view,
// then waits until the analysis and the replay of that configuration are on screen.
class DemoPlayer : public QObject {
    Q_OBJECT
public:
    DemoPlayer(MainWindow& window, Explorer& explorer);

    // Adds the Demos menu: the bundled demos, the scripts in userDemoFolder(), and
    // "Open demo script..." for any file.
    void addMenu(QMenuBar* bar);
    // Where a teacher's own scripts are listed from (no rebuild needed).
    static QString userDemoFolder();

    // Shows step `step` (0-based) of `script`.
    void start(DemoScript script, int step = 0);
    void showStep(int step);
    void next();
    void back();
    // Closes the panel; the configuration of the current step stays for exploring.
    void leave();
    // The demo the last step offers: the next in the menu's order, the first after the last
    // (and after a teacher's own script); null before addMenu.
    const DemoScript* nextDemo() const;

    bool active() const { return step_ >= 0; }
    const DemoScript& script() const { return script_; }
    int step() const { return step_; }
    // The step's analysis and replay are on screen (and the user has not changed it since).
    bool ready() const { return active() && !waiting_ && !superseded_; }
    DemoPanel* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    // Next (Page Down, Right, Space: what a presenter's clicker sends) and Back (Page Up,
    // Left), window-wide while a demo runs.
    QAction* nextAction() const { return nextAction_; }
    QAction* backAction() const { return backAction_; }
    void setPresentation(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    // Step `step` is on screen: configuration analysed, charts and 3-D view updated.
    void stepShown(int step);
    void stepFailed(const QString& message);

private:
    void checkReady();
    void fitLegend();
    // Before/after steps: the previous step's breakdown pinned beside this one's, one scale.
    void showComparison();
    void openScript(const QString& path);
    void fillMenu(QMenu* menu);

    MainWindow& window_;
    Explorer& explorer_;
    std::vector<DemoScript> bundled_; // read once: they are compiled in
    DemoScript script_;
    int step_ = -1;
    bool waiting_ = false;    // for the step's analysis and replay
    bool superseded_ = false; // the user changed the configuration, or the step failed
    DemoPanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QAction* nextAction_ = nullptr;
    QAction* backAction_ = nullptr;
    bool pinned_ = false; // the demo pinned the baseline shown
};

} // namespace podscope::ui
