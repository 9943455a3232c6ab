// The program without a display (issue 15): --help and --version print, a chart export picks
// the offscreen platform by itself, and the modes that draw the 3-D view refuse with a message
// and exit 1 instead of aborting inside Qt. Nothing else on stderr: no platform noise.
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

// A small configuration: its analysis and collective take well under a second.
constexpr const char* kPreset = "mlperf07-resnet50-tf2-16";

struct Outcome {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out;
    QString err;
};

// Runs podscope as a user would on a machine without a display: no DISPLAY, no platform chosen,
// no runtime folder (as root in a container). `display`: a DISPLAY to set instead.
Outcome runWithoutDisplay(const QStringList& arguments, const QString& display = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_RUNTIME_DIR"}) {
        env.remove(name);
    }
    if (!display.isEmpty()) {
        env.insert("DISPLAY", display);
    }
    QProcess program;
    program.setProcessEnvironment(env);
    program.start(PODSCOPE_GUI_PROGRAM, arguments);
    Outcome outcome;
    if (!program.waitForFinished(120000)) {
        program.kill();
        program.waitForFinished();
        return outcome;
    }
    outcome.exitCode = program.exitCode();
    outcome.status = program.exitStatus();
    outcome.out = QString::fromUtf8(program.readAllStandardOutput());
    outcome.err = QString::fromUtf8(program.readAllStandardError());
    return outcome;
}

} // namespace

class HeadlessTest : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersionPrintAndExitZero() {
        const Outcome help = runWithoutDisplay({"--help"});
        QCOMPARE(help.status, QProcess::NormalExit);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("--export-chart") &&
                     help.out.contains("--benchmark-responsiveness"),
                 qPrintable(help.out));
        QVERIFY2(help.out.startsWith("Usage: podscope "), qPrintable(help.out.left(80)));
        QVERIFY2(help.err.isEmpty(), qPrintable(help.err));

        const Outcome version = runWithoutDisplay({"--version"});
        QCOMPARE(version.status, QProcess::NormalExit);
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(version.out, QString("podscope " PODSCOPE_VERSION "\n"));
        QVERIFY2(version.err.isEmpty(), qPrintable(version.err));
    }

    void aChartExportNeedsNoDisplay() {
        QTemporaryDir dir;
        const QString file = dir.filePath("batch.png");
        const Outcome r = runWithoutDisplay({"--preset", kPreset, "--export-chart", "batch",
                                             "--export-size", "800x500", "--out", file});
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err)); // no XDG_RUNTIME_DIR or offscreen warnings
        QVERIFY2(r.out.contains("Wrote " + file), qPrintable(r.out));
        const QImage image(file);
        QCOMPARE(image.size(), QSize(800, 500));
    }

    void modesThatDrawTheViewRefuseWithAReason() {
        QTemporaryDir dir;
        const QString shot = dir.filePath("shot.png");
        const QString view = dir.filePath("view.png");
        const QList<QStringList> needView = {
            {},
            {"--preset", kPreset},
            {"--preset", kPreset, "--screenshot", shot},
            {"--preset", kPreset, "--export-view", view},
            {"--preset", kPreset, "--export-chart", "batch", "--out", dir.filePath("c.png"),
             "--export-view", view},
            {"--benchmark-frames", "10"},
            {"--benchmark-responsiveness", "10"},
            {"--demo", "ring-allreduce"},
        };
        for (const QStringList& arguments : needView) {
            const Outcome r = runWithoutDisplay(arguments);
            const QString what = "podscope " + arguments.join(' ');
            QVERIFY2(r.status == QProcess::NormalExit, qPrintable(what + ": crashed"));
            QVERIFY2(r.exitCode == 1,
                     qPrintable(what + QString(": exit %1, %2").arg(r.exitCode).arg(r.err)));
            QVERIFY2(r.err.startsWith("podscope: error: no display"),
                     qPrintable(what + ": " + r.err));
            QVERIFY2(r.err.contains("xvfb-run") && r.err.count('\n') == 1,
                     qPrintable(what + ": " + r.err));
        }
        QVERIFY(!QFileInfo::exists(shot) && !QFileInfo::exists(view));
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    // Bad arguments are bad arguments with or without a display: exit 2, before any platform.
    void badArgumentsExitTwoWithoutADisplay() {
        const Outcome r = runWithoutDisplay({"--layout", "spiral"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("podscope: error: layout"), qPrintable(r.err));
        const Outcome qtOption = runWithoutDisplay({"-platform", "offscreen"});
        QCOMPARE(qtOption.exitCode, 2);
    }

    // DISPLAY names an X server that is not there: the 3-D modes say so (exit 1), a chart export
    // still works.
    void anUnreachableDisplayIsNamed() {
        const QString display = ":947";
        if (QFileInfo::exists("/tmp/.X11-unix/X947")) {
            QSKIP("an X server runs on :947");
        }
        QTemporaryDir dir;
        const QString shot = dir.filePath("shot.png");
        const Outcome refused =
            runWithoutDisplay({"--preset", kPreset, "--screenshot", shot}, display);
        QCOMPARE(refused.status, QProcess::NormalExit);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("podscope: error: cannot open the X display ':947'"),
                 qPrintable(refused.err));
        QVERIFY(!QFileInfo::exists(shot));

        const QString chart = dir.filePath("links.svg");
        const Outcome exported = runWithoutDisplay(
            {"--preset", kPreset, "--export-chart", "links", "--out", chart}, display);
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QVERIFY(QFileInfo(chart).size() > 0);
    }
};

QTEST_GUILESS_MAIN(HeadlessTest)
#include "HeadlessTest.moc"
