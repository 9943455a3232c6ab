// The 3-D view's export (issue 6) through the program, as a script runs it: rendered off-screen
// at the requested size, not a scaled screen grab. Needs an X server (VTK renders through GLX).
#include "training/Presets.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/MainWindow.hpp"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class ExportViewTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    static QProcess* run(QProcess& program, const QStringList& arguments) {
        program.start(PODSCOPE_GUI_PROGRAM, arguments);
        program.waitForFinished(180000);
        return &program;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        podscope::ui::VtkView::useDefaultSurfaceFormat(); // as the program does
    }

    void theViewOnScreenIsUnchangedByAnExport() {
        using namespace podscope;
        Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
        scenario.topology = "tpu-v3-pod";
        scenario.wrap.reset();
        ui::MainWindow window(scenario, true);
        window.resize(1000, 700);
        QSignalSpy shown(&window, &ui::MainWindow::runShown);
        window.show();
        QVERIFY(shown.wait(60000));
        window.setPlaying(false);
        window.setTimeUs(50);
        QSignalSpy swapped(window.view(), &ui::VtkView::frameSwapped);
        window.view()->requestRender();
        QVERIFY(swapped.wait(10000));
        const QImage before = window.view()->grabFramebuffer();
        QVERIFY(!before.isNull());

        const QImage image = window.view()->renderImage(QSize(2000, 1200));
        QCOMPARE(image.size(), QSize(2000, 1200));
        QVERIFY(window.view()->renderImage(QSize(100000, 100)).isNull()); // beyond the driver

        window.view()->requestRender();
        QVERIFY(swapped.wait(10000));
        const QImage after = window.view()->grabFramebuffer();
        QCOMPARE(after.size(), before.size());
        QVERIFY(after == before);
    }

    void rendersAtTheRequestedSizeLargerThanTheScreen() {
        const QString file = dir_.filePath("view.png");
        QProcess program;
        // Larger than the 1600x900 Xvfb screen and than the window: only an off-screen render
        // can give these pixels.
        run(program, {"--preset", "tpu-v3-pod", "--size", "800x600", "--export-view", file,
                      "--export-size", "2000x1200"});
        const QByteArray out = program.readAllStandardOutput();
        QVERIFY2(program.exitCode() == 0, program.readAllStandardError().constData());
        QVERIFY2(out.contains("rendered off-screen in"), out.constData());
        const QImage image(file);
        QCOMPARE(image.size(), QSize(2000, 1200));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        // The chips fill the middle of the picture, not a corner of it.
        const QRgb background = image.pixel(2, 2);
        int covered = 0;
        for (int x = 500; x < 1500; x += 10) {
            covered += image.pixel(x, 600) != background;
        }
        QVERIFY2(covered > 10, qPrintable(QString::number(covered)));
    }

    // A figure for print (issue 15): caption above, legend and colour bar beside, all on white;
    // the scene is rendered at the size they leave, on the same white.
    void aFigureHasItsOverlaysOnALightBackground() {
        const QString file = dir_.filePath("figure.png");
        QProcess program;
        run(program, {"--preset", "tpu-v3-pod", "--color-by", "state", "--time-us", "500",
                      "--export-view", file, "--export-size", "1600x1000", "--export-legend",
                      "--export-colorbar", "--export-caption", "--export-light"});
        QVERIFY2(program.exitCode() == 0, program.readAllStandardError().constData());
        const QImage image = QImage(file).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(image.size(), QSize(1600, 1000));
        const QRgb white = qRgb(255, 255, 255);
        // Corners and the scene's own background: white.
        for (const QPoint p : {QPoint(1, 1), QPoint(1598, 998), QPoint(1, 998), QPoint(700, 990)}) {
            QCOMPARE(image.pixel(p), white);
        }
        auto darkPixels = [&image](QRect area) {
            int dark = 0;
            for (int y = area.top(); y <= area.bottom(); ++y) {
                for (int x = area.left(); x <= area.right(); ++x) {
                    dark += qGray(image.pixel(x, y)) < 100;
                }
            }
            return dark;
        };
        QVERIFY2(darkPixels(QRect(0, 0, 800, 60)) > 500, "no caption text at the top");
        // (The overlays themselves are checked on a synthetic scene in gui.figures.)
        // Without options the export is the bare render on the view's dark background.
        const QString bare = dir_.filePath("bare.png");
        run(program, {"--preset", "tpu-v3-pod", "--export-view", bare, "--export-size", "800x500"});
        QVERIFY2(program.exitCode() == 0, program.readAllStandardError().constData());
        QCOMPARE(qGray(QImage(bare).pixel(1, 1)) < 60, true);
        // The options belong to --export-view.
        run(program, {"--preset", "tpu-v3-pod", "--export-legend"});
        QCOMPARE(program.exitCode(), 2);
        QVERIFY(QString(program.readAllStandardError()).contains("export-legend"));
    }

    void aMissingFolderExitsOneAndBadSizesExitTwo() {
        QProcess program;
        const QString missing = dir_.filePath("missing/view.png");
        run(program, {"--preset", "tpu-v3-pod", "--export-view", missing});
        QCOMPARE(program.exitCode(), 1);
        QVERIFY(QString(program.readAllStandardError()).contains(missing));
        QVERIFY(!QFileInfo::exists(dir_.filePath("missing")));
        run(program, {"--export-view", dir_.filePath("v.png"), "--export-size", "2000"});
        QCOMPARE(program.exitCode(), 2);
        QVERIFY(QString(program.readAllStandardError()).contains("export-size"));
    }
};

QTEST_MAIN(ExportViewTest)
#include "ExportViewTest.moc"
