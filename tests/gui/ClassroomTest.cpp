// Classroom mode and the window's headline (issue 15), in a real window under Xvfb: the demos
// by keyboard alone, every demo control inside the window at 1280x720 and 1024x768, the
// presentation layout and full screen, and the headline numbers surviving hover and click.
#include "charts/BreakdownChart.hpp"
#include "demo/DemoScript.hpp"
#include "session/ScenarioDocument.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/ControlPanel.hpp"
#include "widgets/DemoPanel.hpp"
#include "widgets/DemoPlayer.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/LinkKeyWidget.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/TimelinePanel.hpp"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMap>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <memory>

using namespace podscope;
using namespace podscope::ui;

namespace {

constexpr int kStepTimeoutMs = 60000; // a 4096-chip step replays its collective in seconds

// Whether the whole of `widget` is on screen inside `window`: shown, not clipped by a scroll
// area or a dock, and inside the window's own rectangle.
bool wholyVisible(const QWidget* widget, const QWidget* window) {
    if (!widget->isVisible()) {
        return false;
    }
    const QRect inWindow(widget->mapTo(window, QPoint(0, 0)), widget->size());
    return window->rect().contains(inWindow) &&
           widget->visibleRegion().boundingRect() == widget->rect();
}

QString geometryOf(const QWidget* widget, const QWidget* window) {
    const QRect inWindow(widget->mapTo(window, QPoint(0, 0)), widget->size());
    return QString("%1 at %2,%3 %4x%5 in a %6x%7 window (visible part %8x%9)")
        .arg(widget->objectName().isEmpty() ? widget->metaObject()->className()
                                            : widget->objectName())
        .arg(inWindow.x())
        .arg(inWindow.y())
        .arg(inWindow.width())
        .arg(inWindow.height())
        .arg(window->width())
        .arg(window->height())
        .arg(widget->visibleRegion().boundingRect().width())
        .arg(widget->visibleRegion().boundingRect().height());
}

// Whether `widget` lies in a scroll area's contents, where text out of sight scrolls into it.
bool insideScrollArea(const QWidget* widget, const QWidget* window) {
    for (const QWidget* w = widget->parentWidget(); w && w != window; w = w->parentWidget()) {
        if (qobject_cast<const QAbstractScrollArea*>(w)) {
            return true;
        }
    }
    return false;
}

// The texts on screen that do not fit their widget, as a user would see them cut: a one-line
// label or button whose text is wider than the widget, a wrapped label shorter than its lines,
// an elided text ("..." in place of the end), or a label its parent clips.
QStringList cutTexts(const QWidget& window) {
    QStringList cut;
    const auto describe = [&](const QWidget* w, const QString& text, const QString& why) {
        cut << QString("'%1' (%2): %3").arg(text.left(60), geometryOf(w, &window), why);
    };
    for (const QLabel* label : window.findChildren<QLabel*>()) {
        const QString text = label->text();
        if (!label->isVisible() || text.isEmpty() || label->visibleRegion().isEmpty() ||
            Qt::mightBeRichText(text)) {
            continue; // rich text wraps by itself (the details), and nothing else uses it
        }
        if (text.contains(QChar(0x2026))) {
            describe(label, text, "elided");
        }
        const QFontMetrics metrics(label->font());
        const QRect room = label->contentsRect().adjusted(label->margin(), label->margin(),
                                                          -label->margin(), -label->margin());
        if (!label->wordWrap()) {
            for (const QString& line : text.split('\n')) {
                if (metrics.horizontalAdvance(line) > room.width()) {
                    describe(label, text,
                             QString("needs %1 px").arg(metrics.horizontalAdvance(line)));
                }
            }
        } else if (label->heightForWidth(label->width()) > label->height()) {
            describe(label, text,
                     QString("needs %1 px of height").arg(label->heightForWidth(label->width())));
        }
        if (!insideScrollArea(label, &window) &&
            label->visibleRegion().boundingRect() != label->rect()) {
            describe(label, text, "clipped");
        }
    }
    // The legends paint their entries one under the other: all of them, or some are cut.
    for (const LegendWidget* legend : window.findChildren<LegendWidget*>()) {
        if (legend->isVisible() && legend->height() < legend->sizeHint().height()) {
            describe(legend, "legend",
                     QString("%1 px of the %2 its entries need")
                         .arg(legend->height())
                         .arg(legend->sizeHint().height()));
        }
    }
    // The key of link kinds flows in rows: all of them within its height and width, or some
    // are cut.
    for (const LinkKeyWidget* key : window.findChildren<LinkKeyWidget*>()) {
        if (!key->isVisible()) {
            continue;
        }
        if (key->height() < key->heightForWidth(key->width())) {
            describe(key, "link key",
                     QString("%1 px of the %2 its entries need")
                         .arg(key->height())
                         .arg(key->heightForWidth(key->width())));
        }
        for (const QRect& entry : key->entryRects(key->width())) {
            if (entry.right() >= key->width()) {
                describe(key, "link key", QString("an entry ends at %1 px of %2")
                                              .arg(entry.right())
                                              .arg(key->width()));
            }
        }
    }
    // A number box's text, its special value ("as the model does") among them: wider than the
    // room its frame and arrows leave (the line edit's text area, 2 px each side as it draws).
    for (const QAbstractSpinBox* box : window.findChildren<QAbstractSpinBox*>()) {
        const QLineEdit* edit = box->findChild<QLineEdit*>();
        if (!box->isVisible() || !edit || edit->text().isEmpty()) {
            continue;
        }
        const int room = edit->contentsRect().marginsRemoved(edit->textMargins()).width() - 4;
        const int needs = edit->fontMetrics().horizontalAdvance(edit->text());
        if (needs > room) {
            describe(box, edit->text(), QString("needs %1 px of %2").arg(needs).arg(room));
        }
    }
    // The timeline's chip-count labels: none on another (a short strip squeezed "256" and "0"
    // into one "250"), none out of the panel.
    for (const TimelinePanel* timeline : window.findChildren<TimelinePanel*>()) {
        if (!timeline->isVisible()) {
            continue;
        }
        const auto labels = timeline->countLabels();
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (!timeline->rect().contains(labels[i].rect)) {
                describe(timeline, labels[i].text, "outside the timeline");
            }
            for (std::size_t j = i + 1; j < labels.size(); ++j) {
                if (labels[i].rect.intersects(labels[j].rect)) {
                    describe(timeline, labels[i].text + " / " + labels[j].text,
                             QString("chip-count labels overlap in a %1 px strip")
                                 .arg(timeline->countsRect().height()));
                }
            }
        }
    }
    // A list's current entry: wider than the field its frame and arrow leave (the style's
    // edit field, as it paints the text; an elided entry ends in "...").
    for (const QComboBox* box : window.findChildren<QComboBox*>()) {
        // In the scrolling panel, every list counts: it keeps its width when scrolled to.
        if (!box->isVisible() || box->currentText().isEmpty() ||
            (box->visibleRegion().isEmpty() && !insideScrollArea(box, &window))) {
            continue;
        }
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.editable = box->isEditable();
        option.frame = box->hasFrame();
        const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                         QStyle::SC_ComboBoxEditField, box);
        const int needs = box->fontMetrics().horizontalAdvance(box->currentText());
        if (needs > field.width() - 2) { // the label is drawn 1 px inside the field each side
            describe(box, box->currentText(),
                     QString("needs %1 px of %2").arg(needs).arg(field.width()));
        }
    }
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>()) {
        const QString text = button->text().remove('&');
        if (!button->isVisible() || text.isEmpty() || button->visibleRegion().isEmpty() ||
            qobject_cast<const QTabBar*>(button->parentWidget())) {
            continue;
        }
        if (QFontMetrics(button->font()).horizontalAdvance(text) > button->contentsRect().width()) {
            describe(button, text, "wider than its button");
        }
    }
    return cut;
}

// Where every dock is and whether it shows: what a layout is, for the round trip.
struct LayoutShot {
    QMap<QString, QRect> docks; // visible docks by name, in window coordinates
    QRect view;
    QRect timeline;
};

LayoutShot layoutOf(const MainWindow& window) {
    LayoutShot shot;
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (dock->isVisible()) {
            shot.docks[dock->objectName()] =
                QRect(dock->mapTo(&window, QPoint(0, 0)), dock->size());
        }
    }
    const auto place = [&](const QWidget* w) {
        return w->isVisible() ? QRect(w->mapTo(&window, QPoint(0, 0)), w->size()) : QRect();
    };
    shot.view = place(window.view());
    shot.timeline = place(window.timelinePanel());
    return shot;
}

// The same layout within `slack` pixels on every edge; otherwise what differs.
QString layoutDifference(const LayoutShot& a, const LayoutShot& b, int slack) {
    if (a.docks.keys() != b.docks.keys()) {
        return QString("docks %1 against %2")
            .arg(QStringList(a.docks.keys()).join(","), QStringList(b.docks.keys()).join(","));
    }
    const auto near = [slack](QRect x, QRect y) {
        return std::abs(x.left() - y.left()) <= slack && std::abs(x.top() - y.top()) <= slack &&
               std::abs(x.right() - y.right()) <= slack &&
               std::abs(x.bottom() - y.bottom()) <= slack;
    };
    const auto text = [](QRect r) {
        return QString("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    };
    QStringList differences;
    for (auto it = a.docks.cbegin(); it != a.docks.cend(); ++it) {
        if (!near(it.value(), b.docks[it.key()])) {
            differences << QString("%1 %2 against %3")
                               .arg(it.key(), text(it.value()), text(b.docks[it.key()]));
        }
    }
    if (!near(a.view, b.view)) {
        differences << QString("view %1 against %2").arg(text(a.view), text(b.view));
    }
    if (!near(a.timeline, b.timeline)) {
        differences << QString("timeline %1 against %2").arg(text(a.timeline), text(b.timeline));
    }
    return differences.join("; ");
}

// How many lines a wrapped label's text takes at its width.
int linesOf(const QLabel* label) {
    const QFontMetrics metrics(label->font());
    return (label->heightForWidth(label->width()) + metrics.leading()) / metrics.lineSpacing();
}

} // namespace

class ClassroomTest : public QObject {
    Q_OBJECT

private:
    static std::unique_ptr<MainWindow> openWindow(const Scenario& scenario, QSize size) {
        auto window = std::make_unique<MainWindow>(scenario, true);
        window->resize(size);
        window->show();
        // Keys go to the active window, as they do for a user.
        window->activateWindow();
        return QTest::qWaitForWindowExposed(window.get()) &&
                       QTest::qWaitForWindowActive(window.get())
                   ? std::move(window)
                   : nullptr;
    }

    // Presses `key` in the window and waits until demo step `step` (0-based) is on screen.
    static bool pressAndWait(MainWindow& window, Qt::Key key, int step) {
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        QTest::keyClick(&window, key);
        if (player.ready() && player.step() == step) {
            return true;
        }
        return shown.wait(kStepTimeoutMs) && player.step() == step && player.ready();
    }

    // The class can read and reach everything of the demo: caption, Back, Next, Leave.
    static void checkDemoControls(MainWindow& window) {
        const DemoPanel* panel = window.demos()->panel();
        for (const QWidget* control : std::initializer_list<const QWidget*>{
                 panel->backButton(), panel->nextButton(), panel->leaveButton()}) {
            QVERIFY2(wholyVisible(control, &window), qPrintable(geometryOf(control, &window)));
        }
        QVERIFY2(panel->captionLabel()->isVisible() &&
                     !panel->captionLabel()->visibleRegion().isEmpty(),
                 qPrintable(geometryOf(panel->captionLabel(), &window)));
        // The replay controls under the 3-D view too.
        QVERIFY(wholyVisible(window.view(), &window) || !window.view()->visibleRegion().isEmpty());
        for (auto* slider : window.findChildren<QAbstractSlider*>()) {
            if (slider->isVisible() && slider->parentWidget() == window.centralWidget()) {
                QVERIFY2(wholyVisible(slider, &window), qPrintable(geometryOf(slider, &window)));
            }
        }
    }

    // A projector's 1280x720 and a laptop's 1024x768, the sizes a class is shown at.
    static void addSmallScreenRows() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1024x768") << QSize(1024, 768);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        VtkView::useDefaultSurfaceFormat(); // as the program does
    }

    // The window fits small projectors and laptops: nothing forces it wider or taller.
    void windowFitsSmallScreens_data() { addSmallScreenRows(); }

    void windowFitsSmallScreens() {
        QFETCH(QSize, size);
        const DemoScript demo =
            loadDemo("ring-allreduce"); // the tallest panel: caption and data blocks
        const auto opened = openWindow(demo.steps.front().scenario, size);
        QVERIFY(opened);
        MainWindow& window = *opened;
        QSignalSpy shown(window.demos(), &DemoPlayer::stepShown);
        window.demos()->start(demo);
        QVERIFY(shown.wait(kStepTimeoutMs));
        QTest::qWait(100); // the docks take their sizes once laid out
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        qInfo("window minimum %dx%d; configuration panel %d, 3-D view %d, demo panel %d pixels "
              "wide at least",
              minimum.width(), minimum.height(),
              window.explorer()->controls()->minimumSizeHint().width(),
              window.centralWidget()->minimumSizeHint().width(),
              window.demos()->dock()->minimumSizeHint().width());
        QVERIFY2(minimum.width() <= size.width() && minimum.height() <= size.height(),
                 qPrintable(QString("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QCOMPARE(window.size(), size);
        checkDemoControls(window);
        // The configuration panel is as narrow as its dock: no field cut at the right edge.
        const ControlPanel* panel = window.explorer()->controls();
        QVERIFY2(panel->minimumSizeHint().width() <= panel->parentWidget()->width(),
                 qPrintable(QString("panel needs %1 pixels, its dock shows %2")
                                .arg(panel->minimumSizeHint().width())
                                .arg(panel->parentWidget()->width())));
        QVERIFY(wholyVisible(window.headline(), &window));
    }

    // Every demo from its first step to its last and back, by keyboard alone, at both sizes,
    // with every control in sight at every step.
    void everyDemoRunsByKeyboardAtSmallSizes_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QSize>("size");
        for (const auto& name : bundledDemoNames()) {
            for (const QSize size : {QSize(1280, 720), QSize(1024, 768)}) {
                const QString row = QString("%1 %2x%3")
                                        .arg(QString::fromStdString(name))
                                        .arg(size.width())
                                        .arg(size.height());
                QTest::newRow(qPrintable(row)) << QString::fromStdString(name) << size;
            }
        }
    }

    void everyDemoRunsByKeyboardAtSmallSizes() {
        QFETCH(QString, name);
        QFETCH(QSize, size);
        const DemoScript demo = loadDemo(name.toStdString());
        const auto opened = openWindow(demo.steps.front().scenario, size);
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy first(&player, &DemoPlayer::stepShown);
        player.start(demo);
        QVERIFY(first.wait(kStepTimeoutMs));
        QTest::qWait(50);
        checkDemoControls(window);
        // What a presenter's clicker sends, and the keyboard's own keys.
        const Qt::Key forward[] = {Qt::Key_PageDown, Qt::Key_Right, Qt::Key_Space};
        const int steps = static_cast<int>(demo.steps.size());
        for (int step = 1; step < steps; ++step) {
            QVERIFY2(pressAndWait(window, forward[step % 3], step),
                     qPrintable(QString("step %1 never shown").arg(step + 1)));
            QCOMPARE(window.size(), size);
            checkDemoControls(window);
            QCOMPARE(player.panel()->stepText().section(':', 0, 0),
                     QString("Step %1 of %2").arg(step + 1).arg(steps));
        }
        // Past the last step nothing happens; back with Page Up and Left.
        QTest::keyClick(&window, Qt::Key_PageDown);
        QCOMPARE(player.step(), steps - 1);
        QVERIFY(pressAndWait(window, Qt::Key_PageUp, steps - 2));
        QVERIFY(pressAndWait(window, Qt::Key_Left, steps - 3));
    }

    // Space steps a running demo and plays the replay otherwise; the keys die with the demo.
    void spaceStepsTheDemoOnlyWhileOneRuns() {
        const DemoScript demo = loadDemo("twod-allreduce");
        const auto opened = openWindow(demo.steps.front().scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.start(demo);
        QVERIFY(shown.wait(kStepTimeoutMs));
        QVERIFY(pressAndWait(window, Qt::Key_Space, 1));
        const double stepTime = demo.steps[1].timeFraction * window.durationUs();
        QTest::qWait(300);
        QVERIFY(std::abs(window.timeUs() - stepTime) <= 1e-6 * window.durationUs()); // not playing
        player.leave();
        QVERIFY(!player.nextAction()->isEnabled());
        QTest::keyClick(&window, Qt::Key_Space); // plays
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(window.timeUs() - stepTime) > 1e-3 * window.durationUs(),
                                 5000);
        QTest::keyClick(&window, Qt::Key_Space); // pauses
        QCOMPARE(player.step(), -1);
    }

    // F5: the presentation layout in full screen, and the demo goes on by keyboard; Esc leaves.
    void presentationLayoutShowsViewCaptionAndOneChart() {
        const DemoScript demo = loadDemo("weight-update-sharding");
        const auto opened = openWindow(demo.steps.front().scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.start(demo);
        QVERIFY(shown.wait(kStepTimeoutMs));
        const qreal normalCaption = player.panel()->captionLabel()->font().pointSizeF();
        const qreal normalViewCaption = window.viewCaption()->font().pointSizeF();
        auto* configuration = window.findChild<QDockWidget*>("configurationDock");
        auto* charts = window.findChild<QDockWidget*>("chartDock");
        QVERIFY(configuration->isVisible());

        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.presentation());
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        QTest::qWait(100);
        QVERIFY(!configuration->isVisible());
        QVERIFY(!window.menuBar()->isVisible());
        QVERIFY(charts->isVisible());
        QVERIFY(!window.explorer()->chartTabs()->tabBar()->isVisible()); // one chart
        QVERIFY(window.view()->isVisible());
        QVERIFY(player.dock()->isVisible());
        QVERIFY(player.panel()->captionLabel()->font().pointSizeF() >= 1.5 * normalCaption);
        QVERIFY(window.viewCaption()->font().pointSizeF() > normalViewCaption);
        checkDemoControls(window);
        // The clicker still steps the demo with the menus hidden.
        QVERIFY(pressAndWait(window, Qt::Key_PageDown, 1));
        QVERIFY(window.explorer()->currentChart() == demo.steps[1].chart);

        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.presentation());
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
        QTest::qWait(100);
        QVERIFY(configuration->isVisible());
        QVERIFY(window.menuBar()->isVisible());
        QVERIFY(window.explorer()->chartTabs()->tabBar()->isVisible());
        QVERIFY(player.dock()->isVisible()); // the demo goes on
        QCOMPARE(player.panel()->captionLabel()->font().pointSizeF(), normalCaption);

        // F11 alone: full screen in the working layout, and back.
        QTest::keyClick(&window, Qt::Key_F11);
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        QVERIFY(!window.presentation());
        QTest::keyClick(&window, Qt::Key_F11);
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
        // Closing the demo's panel (its title bar's button) is leaving the demo.
        player.dock()->close();
        QVERIFY(!player.active());
        QVERIFY(!player.nextAction()->isEnabled());
    }

    // The evaluation demo's panel shows "as the model does" in its Evaluate every box (the
    // workload's cadence); its caption and every panel text are whole at both small sizes.
    void evaluationDemoShowsItsPanelWhole_data() { addSmallScreenRows(); }

    void evaluationDemoShowsItsPanelWhole() {
        QFETCH(QSize, size);
        const DemoScript demo = loadDemo("distributed-evaluation");
        const auto opened = openWindow(demo.steps.front().scenario, size);
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.start(demo, 1);
        QVERIFY(shown.wait(kStepTimeoutMs));
        QTest::qWait(200); // the docks take their sizes once laid out
        QCOMPARE(window.size(), size);
        bool unsetShown = false;
        for (const QAbstractSpinBox* box : window.findChildren<QAbstractSpinBox*>()) {
            unsetShown |= box->isVisible() && box->text() == "as the model does";
        }
        QVERIFY(unsetShown);
        const QStringList cut = cutTexts(window);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("\n")));
    }

    // What a class reads, whole, in both layouts at a projector's 1280x720 and a laptop's
    // 1024x768 (issue 23): the input-pipeline demo's input-bound step, whose point is the
    // timeline's Input track. The presentation layout in the window's own size, as
    // `--presentation --size` draws it (F5 is full screen, the screen's size, below).
    void classroomLayoutsShowEverythingWhole_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        for (const QSize size : {QSize(1280, 720), QSize(1024, 768)}) {
            for (const bool presentation : {false, true}) {
                const QString row = QString("%1 %2x%3")
                                        .arg(presentation ? "presentation" : "working")
                                        .arg(size.width())
                                        .arg(size.height());
                QTest::newRow(qPrintable(row)) << size << presentation;
            }
        }
    }

    void classroomLayoutsShowEverythingWhole() {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        const DemoScript demo = loadDemo("input-pipeline");
        const int inputBound = 2; // "8 cores: input-bound", replayed as the whole step
        QVERIFY(demo.steps[inputBound].replay == ReplayKind::Step);
        const auto opened = openWindow(demo.steps.front().scenario, size);
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.start(demo, inputBound - 1);
        QVERIFY(shown.wait(kStepTimeoutMs));
        const QString before = window.headline()->text();
        QVERIFY(pressAndWait(window, Qt::Key_PageDown, inputBound));
        if (presentation) {
            window.setPresentation(true);
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.timelinePanel()->run() != nullptr, kStepTimeoutMs);
        QTest::qWait(200); // the docks and the splitter take their sizes
        QCOMPARE(window.size(), size);
        if (qEnvironmentVariableIsSet("PODSCOPE_TEST_GRABS")) {
            window.grab().save(qEnvironmentVariable("PODSCOPE_TEST_GRABS") + "/" +
                               QTest::currentDataTag() + ".png");
        }
        const QStringList cut = cutTexts(window);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("\n")));
        checkDemoControls(window);

        // No stale text: the headline is this step's, not the one before.
        const TrainingResult result = simulateTraining(demo.steps[inputBound].scenario);
        const QString headline = window.headline()->text();
        QVERIFY2(headline.contains("Bottleneck: " + QString::fromStdString(result.bottleneck)) &&
                     headline.contains(QLocale().toString(result.throughputExamplesPerS, 'f', 0)),
                 qPrintable(headline));
        QVERIFY(headline != before);
        if (!presentation) {
            QVERIFY(wholyVisible(window.headline(), &window));
        }
        // The phase caption over the view: two lines at most, whole.
        const QLabel* caption = window.viewCaption();
        QVERIFY2(linesOf(caption) <= 2,
                 qPrintable(QString("%1 lines: %2").arg(linesOf(caption)).arg(caption->text())));
        // The timeline's Input track, the step's point, in sight.
        const TimelinePanel* timeline = window.timelinePanel();
        QVERIFY(timeline->isVisible());
        int input = -1;
        for (std::size_t i = 0; i < timeline->tracks().size(); ++i) {
            if (QString::fromStdString(timeline->tracks()[i].label).startsWith("Input")) {
                input = static_cast<int>(i);
            }
        }
        QVERIFY(input >= 0);
        const QRect track = timeline->trackRect(input);
        // Its time axis too, under every track and the chip counts (the counts may give up
        // height, the axis may not).
        const QRect axis = timeline->axisRect();
        QVERIFY2(axis.bottom() < timeline->height() && axis.top() > timeline->countsRect().bottom(),
                 qPrintable(QString("axis %1..%2 in a panel %3 high (it needs %4)")
                                .arg(axis.top())
                                .arg(axis.bottom())
                                .arg(timeline->height())
                                .arg(timeline->sizeHint().height())));
        QVERIFY2(timeline->fontMetrics().horizontalAdvance(timeline->countsTitle()) <=
                     timeline->width() - 12,
                 qPrintable(timeline->countsTitle()));
        QVERIFY2(!track.isEmpty() && timeline->visibleRegion().boundingRect().contains(track),
                 qPrintable(QString("Input track at %1,%2 %3x%4; %5")
                                .arg(track.x())
                                .arg(track.y())
                                .arg(track.width())
                                .arg(track.height())
                                .arg(geometryOf(timeline, &window))));
    }

    // F5, Esc, F5: the class comes back to the layout it left, both ways (issue 23: Esc left
    // a cramped layout, and F5 again squeezed the caption).
    void presentationRoundTripRestoresBothLayouts_data() { addSmallScreenRows(); }

    void presentationRoundTripRestoresBothLayouts() {
        QFETCH(QSize, size);
        const DemoScript demo = loadDemo("input-pipeline");
        const auto opened = openWindow(demo.steps.front().scenario, size);
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.start(demo, 2);
        QVERIFY(shown.wait(kStepTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(window.timelinePanel()->run() != nullptr, kStepTimeoutMs);
        QTest::qWait(200);
        const LayoutShot working = layoutOf(window);
        const QString headline = window.headline()->text();
        const int captionLines = linesOf(window.viewCaption());
        const auto settle = [] { QTest::qWait(300); }; // full screen, then the docks' sizes

        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.presentation());
        settle();
        const LayoutShot presented = layoutOf(window);
        QVERIFY(!presented.docks.contains("configurationDock"));
        QVERIFY(linesOf(window.viewCaption()) <= 2);
        QStringList cut = cutTexts(window);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("\n")));

        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.presentation());
        settle();
        QCOMPARE(window.size(), size);
        QString difference = layoutDifference(working, layoutOf(window), 4);
        QVERIFY2(difference.isEmpty(), qPrintable("after Esc: " + difference));
        QCOMPARE(window.headline()->text(), headline);
        QCOMPARE(linesOf(window.viewCaption()), captionLines);
        cut = cutTexts(window);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join("\n")));

        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.presentation());
        settle();
        difference = layoutDifference(presented, layoutOf(window), 4);
        QVERIFY2(difference.isEmpty(), qPrintable("F5 again: " + difference));
        QVERIFY(linesOf(window.viewCaption()) <= 2);
        QTest::keyClick(&window, Qt::Key_Escape);
        settle();
        difference = layoutDifference(working, layoutOf(window), 4);
        QVERIFY2(difference.isEmpty(), qPrintable("after the second Esc: " + difference));
    }

    // A before/after step draws both on one scale, and the pair keeps that scale.
    void comparingStepsShareOneScale() {
        const DemoScript demo = loadDemo("weight-update-sharding");
        const auto opened = openWindow(demo.steps.front().scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.start(demo);
        QVERIFY(shown.wait(kStepTimeoutMs));
        const double before = window.explorer()->breakdownChart()->scaleTop();
        QVERIFY(!window.explorer()->baseline());
        QVERIFY(pressAndWait(window, Qt::Key_PageDown, 1));
        QCOMPARE(window.explorer()->breakdownChart()->scaleTop(),
                 before); // no rescale within the pair
        QVERIFY(window.explorer()->baseline());
        const double was = simulateTraining(demo.steps[0].scenario).stepTimeS;
        const double now = simulateTraining(demo.steps[1].scenario).stepTimeS;
        QCOMPARE(window.explorer()->baseline()->stepTimeS, was);
        QCOMPARE(window.explorer()->analysis()->result.stepTimeS, now);
        QVERIFY(now < was); // bars of different heights on that one scale
        QVERIFY(before >= was * 1e3);
        // A step that compares with nothing drops the demo's baseline.
        QVERIFY(pressAndWait(window, Qt::Key_PageDown, 2));
        QVERIFY(!window.explorer()->baseline());
    }

    // The headline numbers stay in the status bar whatever the pointer does.
    void headlineSurvivesHoverAndClick() {
        Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
        scenario.topology = "tpu-v3-pod";
        scenario.globalBatch = 16384;
        const auto opened = openWindow(scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        QTRY_VERIFY_WITH_TIMEOUT(window.hasRun() && window.explorer()->analysis(), kStepTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!window.headline()->text().isEmpty(), 5000);
        const QString headline = window.headline()->text();
        QVERIFY2(headline.contains("Time to train") && headline.contains("Step") &&
                     headline.contains("examples/s") && headline.contains("Bottleneck"),
                 qPrintable(headline));
        window.setLayoutKind(LayoutKind::Grid);
        window.view()->setCamera(VtkView::CameraPreset::Top);
        QSignalSpy swapped(window.view(), &VtkView::frameSwapped);
        window.view()->requestRender();
        QVERIFY(swapped.wait(10000));
        const QPoint at = window.view()->widgetPositionOf(517);
        QSignalSpy hovered(window.view(), &VtkView::chipHovered);
        QTest::mouseMove(window.view()->renderWindow(), at);
        QVERIFY(hovered.count() > 0 || hovered.wait(2000));
        QVERIFY2(window.statusBar()->currentMessage().contains("chip 517"),
                 qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(window.headline()->text(), headline);
        QVERIFY(wholyVisible(window.headline(), &window));
        QTest::mouseClick(window.view()->renderWindow(), Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(window.details().contains("Chip 517"));
        QCOMPARE(window.headline()->text(), headline);
        QVERIFY(wholyVisible(window.headline(), &window));
    }

    // A refused configuration marks the 3-D view as showing the last valid result.
    void refusedConfigurationMarksTheView() {
        const auto opened =
            openWindow(loadPreset("mlperf07-resnet50-tf-4096").scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        QTRY_VERIFY_WITH_TIMEOUT(window.hasRun() && window.explorer()->analysis(), kStepTimeoutMs);
        QVERIFY(!window.showsStaleMark());
        Scenario refused = window.explorer()->document().scenario();
        refused.globalBatch = 1000;
        QSignalSpy failed(window.explorer(), &Explorer::analysisFailed);
        window.explorer()->document().edit(refused, "global batch 1000");
        QVERIFY(failed.wait(kStepTimeoutMs));
        QVERIFY(window.showsStaleMark());
        QVERIFY(window.explorer()->showingStaleResult());
        QVERIFY(window.headline()->text().startsWith("Last valid result"));
        // Undo: valid again, the marks go.
        QSignalSpy analysed(window.explorer(), &Explorer::analysisShown);
        window.explorer()->document().undoStack()->undo();
        QVERIFY(analysed.wait(kStepTimeoutMs));
        QVERIFY(!window.showsStaleMark());
        QVERIFY(!window.explorer()->showingStaleResult());
    }
};

QTEST_MAIN(ClassroomTest)
#include "ClassroomTest.moc"
