// Exports (issue 6) on the offscreen platform: charts as PNG, SVG and PDF, results and traces,
// each opened by an independent reader; failures leave no file and keep existing ones.
#include "export/ChartExport.hpp"
#include "session/ScenarioDocument.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "view/ScenarioRun.hpp"
#include "view/TrainingAnalysis.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/ExportDialogs.hpp"
#include "widgets/ExportMenu.hpp"
#include "widgets/MainWindow.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

using namespace podscope;
using namespace podscope::ui;

namespace {

// A small configuration: the whole analysis and its collective take well under a second.
constexpr const char* kPreset = "mlperf07-resnet50-tf2-16";

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

// Enough distinct colours that the image holds a chart, not a blank page.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) {
            colours.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(colours.size());
}

// Runs an external reader; empty when it is not installed (the test then skips).
QString findTool(const char* name) {
    return QStandardPaths::findExecutable(name);
}

void expectChromeTrace(const nlohmann::json& json) {
    QVERIFY(json.at("traceEvents").is_array());
    std::set<std::string> phases;
    for (const auto& event : json.at("traceEvents")) {
        for (const char* key : {"ph", "pid", "tid", "name"}) {
            QVERIFY2(event.contains(key) || (event.at("ph") == "C" && std::string(key) == "tid"),
                     event.dump().c_str());
        }
        const std::string ph = event.at("ph");
        if (ph == "X" || ph == "C") {
            QVERIFY2(event.contains("ts"), event.dump().c_str());
        }
        phases.insert(ph);
    }
    QVERIFY(phases.count("X"));
    QVERIFY(phases.count("C"));
}

} // namespace

class ExportTest : public QObject {
    Q_OBJECT

private:
    TrainingAnalysis analysis_;
    std::shared_ptr<const ScenarioRun> run_;
    QTemporaryDir dir_;

    ChartData data() const {
        ChartData d;
        d.analysis = &analysis_;
        d.run = run_.get();
        d.baseline = analysis_.result.breakdown;
        return d;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        analysis_ = analyzeTraining(loadPreset(kPreset).scenario);
        run_ = runScenario(gradientSyncView(analysis_.scenario, analysis_.result));
    }

    // Issue 23: File > Export offers journal and slide sizes at 300 DPI beside the on-screen
    // one, and starts where the last export went, at the size last chosen.
    void chartExportOffersPrintSizesAndRemembersFolderAndSize() {
        const auto presets = chartExportPresets({1596, 193});
        QStringList names;
        bool single = false, twoColumns = false, slide = false, screen = false;
        for (const auto& [name, size] : presets) {
            names << name;
            const double inches = size.pixels.width() / double(size.dpi);
            single |= name.startsWith("Single column") && inches == 3.5 && size.dpi == 300;
            twoColumns |= name.startsWith("Double column") && inches == 7 && size.dpi == 300;
            slide |= name.startsWith("Slide") && std::abs(inches - 13.33) < 0.01 &&
                     std::abs(size.pixels.height() / double(size.dpi) - 7.5) < 1e-9;
            screen |= size.pixels == QSize(1596, 193) && size.dpi == 96;
        }
        QVERIFY2(single && twoColumns && slide && screen, qPrintable(names.join(", ")));
        QVERIFY2(names.contains("Single column (3.5 x 2.33 in)"), qPrintable(names.join(", ")));
        // A chart not on screen offers no on-screen size.
        for (const auto& [name, size] : chartExportPresets({})) {
            QVERIFY(!name.startsWith("On-screen"));
        }
        // Remembered across the settings (the test mode keeps them out of the user's own).
        QSettings().clear();
        QCOMPARE(lastExportFolder(), QString());
        QCOMPARE(lastChartExportSize().pixels, kDoubleColumnSize.pixels); // nothing chosen yet
        rememberExportFolder(dir_.filePath("figure.pdf"));
        QCOMPARE(lastExportFolder(), QFileInfo(dir_.path()).absoluteFilePath());
        rememberExportFolder(dir_.path()); // a folder itself (the report)
        QCOMPARE(lastExportFolder(), QFileInfo(dir_.path()).absoluteFilePath());
        rememberChartExportSize(kSingleColumnSize);
        QCOMPARE(lastChartExportSize().pixels, kSingleColumnSize.pixels);
        QCOMPARE(lastChartExportSize().dpi, 300);
        // A folder since removed is not offered.
        QDir gone(dir_.filePath("gone"));
        QVERIFY(QDir().mkpath(gone.path()));
        rememberExportFolder(gone.path());
        QVERIFY(gone.removeRecursively());
        QCOMPARE(lastExportFolder(), QString());
    }

    void pngHasTheRequestedPixelsAndDpi_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QSize>("pixels");
        QTest::addColumn<int>("dpi");
        QTest::newRow("scaling 1600x1000@200") << "scaling" << QSize(1600, 1000) << 200;
        QTest::newRow("breakdown 800x500@96") << "breakdown" << QSize(800, 500) << 96;
        QTest::newRow("batch 3000x1200@300") << "batch" << QSize(3000, 1200) << 300;
        QTest::newRow("links 1200x900@150") << "links" << QSize(1200, 900) << 150;
        QTest::newRow("layers 1600x1000@200") << "layers" << QSize(1600, 1000) << 200;
        QTest::newRow("roofline 1000x800@120") << "roofline" << QSize(1000, 800) << 120;
    }

    void pngHasTheRequestedPixelsAndDpi() {
        QFETCH(QString, kind);
        QFETCH(QSize, pixels);
        QFETCH(int, dpi);
        const QString path = dir_.filePath(kind + ".png");
        const QString problem = exportChart(*parseChartKind(kind), data(), path, pixels, dpi);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QImage image(path);
        QCOMPARE(image.size(), pixels);
        QCOMPARE(std::lround(image.dotsPerMeterX() * 0.0254), long(dpi));
        QCOMPARE(std::lround(image.dotsPerMeterY() * 0.0254), long(dpi));
        QVERIFY2(distinctColours(image) > 20, qPrintable(kind));
        if (const QString identify = findTool("identify"); !identify.isEmpty()) {
            QProcess tool;
            tool.start(identify, {"-format", "%w %h", path});
            QVERIFY(tool.waitForFinished(30000));
            QCOMPARE(tool.readAllStandardOutput().trimmed(),
                     QByteArray::number(pixels.width()) + " " +
                         QByteArray::number(pixels.height()));
        }
    }

    void svgOpensInRsvgAtTheRequestedSize() {
        const QString rsvg = findTool("rsvg-convert");
        if (rsvg.isEmpty()) {
            QSKIP("rsvg-convert (librsvg2-bin) is not installed");
        }
        for (const QString kind :
             {"scaling", "breakdown", "batch", "links", "layers", "roofline"}) {
            const QString path = dir_.filePath(kind + ".svg");
            const QString problem =
                exportChart(*parseChartKind(kind), data(), path, QSize(1600, 1000), 200);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const QString png = dir_.filePath(kind + "-from-svg.png");
            QProcess tool;
            tool.start(rsvg, {"--dpi-x", "200", "--dpi-y", "200", "-o", png, path});
            QVERIFY(tool.waitForFinished(60000));
            QVERIFY2(tool.exitCode() == 0, tool.readAllStandardError().constData());
            const QImage image(png);
            // The page measures 8 x 5 inches: at 200 DPI, the requested pixels.
            QVERIFY2(std::abs(image.width() - 1600) <= 1 && std::abs(image.height() - 1000) <= 1,
                     qPrintable(QString("%1x%2").arg(image.width()).arg(image.height())));
            QVERIFY(distinctColours(image) > 20);
        }
    }

    void pdfOpensInPdftoppmAtTheRequestedSize() {
        const QString pdftoppm = findTool("pdftoppm");
        if (pdftoppm.isEmpty()) {
            QSKIP("pdftoppm (poppler-utils) is not installed");
        }
        for (const QString kind :
             {"scaling", "breakdown", "batch", "links", "layers", "roofline"}) {
            const QString path = dir_.filePath(kind + ".pdf");
            const QString problem =
                exportChart(*parseChartKind(kind), data(), path, QSize(1600, 1000), 200);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY(readAll(path).startsWith("%PDF"));
            const QString stem = dir_.filePath(kind + "-from-pdf");
            QProcess tool;
            tool.start(pdftoppm, {"-r", "200", "-png", "-singlefile", path, stem});
            QVERIFY(tool.waitForFinished(60000));
            QVERIFY2(tool.exitCode() == 0, tool.readAllStandardError().constData());
            const QImage image(stem + ".png");
            QVERIFY2(std::abs(image.width() - 1600) <= 2 && std::abs(image.height() - 1000) <= 2,
                     qPrintable(QString("%1x%2").arg(image.width()).arg(image.height())));
            QVERIFY(distinctColours(image) > 20);
        }
    }

    void aFailedExportNamesTheProblemAndLeavesNoFile() {
        const QString missing = dir_.filePath("no-such-folder/chart.png");
        QString problem = exportChart(ChartKind::Scaling, data(), missing, QSize(800, 500), 96);
        QVERIFY2(problem.contains(missing), qPrintable(problem));
        QVERIFY(!QFileInfo::exists(missing));
        QVERIFY(!QFileInfo::exists(dir_.filePath("no-such-folder")));

        problem =
            exportChart(ChartKind::Scaling, data(), dir_.filePath("x.png"), QSize(20000, 500), 96);
        QVERIFY2(problem.contains("size") && problem.contains("16384"), qPrintable(problem));
        problem =
            exportChart(ChartKind::Scaling, data(), dir_.filePath("x.png"), QSize(63, 500), 96);
        QVERIFY2(problem.contains("size"), qPrintable(problem));
        problem =
            exportChart(ChartKind::Scaling, data(), dir_.filePath("x.png"), QSize(800, 500), 2000);
        QVERIFY2(problem.contains("DPI"), qPrintable(problem));
        problem =
            exportChart(ChartKind::Scaling, data(), dir_.filePath("x.gif"), QSize(800, 500), 96);
        QVERIFY2(problem.contains(".png"), qPrintable(problem));
        QVERIFY(!QFileInfo::exists(dir_.filePath("x.png")));
        QVERIFY(!QFileInfo::exists(dir_.filePath("x.gif")));
    }

    void aFailedExportKeepsTheExistingFile() {
        const QString old = dir_.filePath("old.png");
        writeText(old, "old");
        // Fails after every argument check: the link chart has no run to show.
        ChartData noRun = data();
        noRun.run = nullptr;
        QString problem = exportChart(ChartKind::Links, noRun, old, QSize(800, 500), 96);
        QVERIFY(!problem.isEmpty());
        QCOMPARE(readAll(old), QByteArray("old"));
        // A path that is a folder cannot be written: the folder stays, no temporary is left.
        const QString folder = dir_.filePath("folder.png");
        QVERIFY(QDir().mkpath(folder));
        problem = exportChart(ChartKind::Scaling, data(), folder, QSize(800, 500), 96);
        QVERIFY2(problem.contains(folder), qPrintable(problem));
        QVERIFY(QFileInfo(folder).isDir());
        const auto leftovers = QDir(dir_.path()).entryList({"folder.png*"}, QDir::Files);
        QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(", ")));
        // A successful export replaces it.
        QCOMPARE(exportChart(ChartKind::Scaling, data(), old, QSize(800, 500), 96), QString());
        QCOMPARE(QImage(old).size(), QSize(800, 500));
    }

    void theMenuExportsResultsAndTracesWithTheConfiguration() {
        MainWindow window(loadPreset(kPreset).scenario, false);
        QSignalSpy ran(&window, &MainWindow::runShown);
        window.show();
        QVERIFY(ran.wait(30000));
        // The analysis and the replay run in parallel: either may be shown first.
        QTRY_VERIFY_WITH_TIMEOUT(window.explorer()->analysis(), 30000);
        auto* menu = window.explorer()->findChild<ExportMenu*>();
        QVERIFY(menu);
        QVERIFY(menu->menu()->actions().size() >= 8);
        QSignalSpy finished(menu, &ExportMenu::finished);
        auto await = [&](const QString& path) {
            if (finished.isEmpty()) {
                QVERIFY(finished.wait(60000));
            }
            const auto args = finished.takeFirst();
            QCOMPARE(args.at(0).toString(), path);
            QVERIFY2(args.at(1).toString().isEmpty(), qPrintable(args.at(1).toString()));
        };
        const Scenario scenario = window.explorer()->document().scenario();
        // The exported view's time reads as the clock under the view does, in one unit.
        window.setTimeUs(0.3 * window.durationUs());
        const QString clock = window.clockText();
        QCOMPARE(viewFigureContent(window).time,
                 "t = " + clock.section(" / ", 0, 0) + " of " + clock.section(" / ", 1));
        QVERIFY2(!clock.contains(QString::fromUtf8("\xC2\xB5s")) || window.durationUs() < 1e3,
                 qPrintable(clock));
        // The multipod is 2-D: its dimension-by-dimension sum says so (a 3-D slice says 3-D).
        QVERIFY2(viewFigureContent(window).configuration.contains("2-D all-reduce"),
                 qPrintable(viewFigureContent(window).configuration));

        const QString json = dir_.filePath("results.json");
        menu->exportResultsJson(json);
        await(json);
        const auto results = nlohmann::json::parse(readAll(json).toStdString());
        QVERIFY(results.contains("result") && results.contains("strong_scaling") &&
                results.contains("weak_scaling"));
        QVERIFY(
            sameScenario(parseScenario(results.at("scenario").dump(), "results.json"), scenario));

        const QString csv = dir_.filePath("results.csv");
        menu->exportResultsCsv(csv);
        await(csv);
        const QList<QByteArray> lines = readAll(csv).split('\n');
        QVERIFY(lines.size() > 3);
        const QByteArray prefix = "# scenario: ";
        QVERIFY2(lines[0].startsWith(prefix), lines[0].constData());
        QVERIFY(sameScenario(parseScenario(lines[0].mid(prefix.size()).toStdString(), "csv"),
                             scenario));
        QVERIFY(lines[1].startsWith("sweep,chips,global_batch"));

        const QString step = dir_.filePath("step.trace.json");
        menu->exportStepTrace(step);
        await(step);
        const auto stepTrace = nlohmann::json::parse(readAll(step).toStdString());
        expectChromeTrace(stepTrace);
        QVERIFY(sameScenario(
            parseScenario(stepTrace.at("otherData").at("scenario").dump(), "trace"), scenario));

        const QString collective = dir_.filePath("collective.trace.json");
        menu->exportCollectiveTrace(collective);
        await(collective);
        const auto collectiveTrace = nlohmann::json::parse(readAll(collective).toStdString());
        expectChromeTrace(collectiveTrace);
        const auto& other = collectiveTrace.at("otherData");
        QVERIFY(other.contains("topology") && other.contains("collective"));
        QVERIFY(sameScenario(parseScenario(other.at("scenario").dump(), "trace"), scenario));

        const QString report = dir_.filePath("report");
        menu->exportReportFolder(report);
        await(report);
        QVERIFY(QFileInfo::exists(report + "/report.html"));
        QVERIFY(QFileInfo::exists(report + "/results.csv"));
        // The charts drawn on the UI thread between the off-thread sweeps and writes.
        for (const QString name :
             {"strong-scaling", "weak-scaling", "breakdown", "batch", "layers", "roofline"}) {
            QCOMPARE(QImage(report + "/" + name + ".png").size(), QSize(1600, 1000));
            QVERIFY(readAll(report + "/" + name + ".svg").contains("<svg"));
        }

        // A failure is reported and leaves the old file.
        const QString old = dir_.filePath("old.json");
        writeText(old, "old");
        menu->exportResultsJson(dir_.filePath("missing/results.json"));
        QVERIFY(finished.wait(60000));
        const auto failed = finished.takeFirst();
        QVERIFY2(failed.at(1).toString().contains("missing"), qPrintable(failed.at(1).toString()));
        QVERIFY(!QFileInfo::exists(dir_.filePath("missing")));
        QCOMPARE(readAll(old), QByteArray("old"));

        // The chart in front decides what "Chart in front" exports.
        QVERIFY(menu->currentChart() == ChartKind::Scaling);
        QVERIFY(menu->chartData().analysis && menu->chartData().run);
    }

    void theProgramExportsChartsAndRefusesBadArguments() {
        const QString file = dir_.filePath("program-breakdown.svg");
        QProcess program;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        program.setProcessEnvironment(env);
        program.start(PODSCOPE_GUI_PROGRAM,
                      {"--preset", kPreset, "--export-chart", "breakdown", "--export-size",
                       "1200x800", "--export-dpi", "150", "--out", file});
        QVERIFY(program.waitForFinished(120000));
        QVERIFY2(program.exitCode() == 0, program.readAllStandardError().constData());
        QVERIFY(readAll(file).contains("<svg"));

        const QList<QPair<QStringList, QString>> bad = {
            {{"--export-chart", "pie", "--out", dir_.filePath("a.png")}, "export-chart"},
            {{"--export-chart", "scaling"}, "out"},
            {{"--export-chart", "scaling", "--out", dir_.filePath("a.gif")}, "out"},
            {{"--export-chart", "scaling", "--out", dir_.filePath("a.png"), "--export-size",
              "10x10"},
             "export-size"},
            {{"--export-chart", "scaling", "--out", dir_.filePath("a.png"), "--export-dpi", "5000"},
             "export-dpi"},
            {{"--export-view", dir_.filePath("v.jpg")}, "export-view"},
        };
        for (const auto& [arguments, option] : bad) {
            program.start(PODSCOPE_GUI_PROGRAM, arguments);
            QVERIFY(program.waitForFinished(60000));
            QCOMPARE(program.exitCode(), 2);
            const QString err = program.readAllStandardError();
            QVERIFY2(err.contains(option), qPrintable(err));
        }
        QVERIFY(!QFileInfo::exists(dir_.filePath("a.png")));

        // A folder that does not exist: exit 1, naming the path.
        const QString missing = dir_.filePath("missing/chart.png");
        program.start(PODSCOPE_GUI_PROGRAM,
                      {"--preset", kPreset, "--export-chart", "scaling", "--out", missing});
        QVERIFY(program.waitForFinished(120000));
        QCOMPARE(program.exitCode(), 1);
        QVERIFY(QString(program.readAllStandardError()).contains(missing));
    }
};

QTEST_MAIN(ExportTest)
#include "ExportTest.moc"
