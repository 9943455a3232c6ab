#include "widgets/ExportMenu.hpp"

#include "charts/BatchChart.hpp"
#include "charts/BreakdownChart.hpp"
#include "charts/LayerTimeChart.hpp"
#include "charts/LinkUseChart.hpp"
#include "charts/MachinesChart.hpp"
#include "charts/RooflineChart.hpp"
#include "charts/ThroughputChart.hpp"
#include "common/AtomicFile.hpp"
#include "export/ReportFigures.hpp"
#include "figure/FigureData.hpp"
#include "report/Report.hpp"
#include "trace/CollectiveTraceFile.hpp"
#include "trace/StepTrace.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/ExportDialogs.hpp"
#include "widgets/LinkKeyWidget.hpp"
#include "widgets/MainWindow.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>
#include <memory>
#include <optional>

namespace podscope::ui {
namespace {

// The preset the scenario is, unchanged, if any: the report then compares with its
// measured MLPerf result.
std::optional<Preset> presetOf(const Scenario& scenario) {
    const auto json = toJson(scenario);
    for (const std::string& name : presetNames()) {
        Preset preset = loadPreset(name);
        if (toJson(preset.scenario) == json) {
            return preset;
        }
    }
    return std::nullopt;
}

QString writeText(const QString& path, const std::string& text) {
    try {
        writeFileAtomically(path.toStdString(), text, "file");
        return {};
    } catch (const std::exception& e) {
        return QObject::tr("cannot write '%1': %2").arg(path, QString::fromStdString(e.what()));
    }
}

QString chartTitle(ChartKind kind) {
    switch (kind) {
    case ChartKind::Scaling:
        return QObject::tr("&Scaling chart...");
    case ChartKind::Breakdown:
        return QObject::tr("Step &breakdown chart...");
    case ChartKind::Batch:
        return QObject::tr("Batch si&ze chart...");
    case ChartKind::Links:
        return QObject::tr("&Links chart...");
    case ChartKind::Layers:
        return QObject::tr("Time per l&ayer chart...");
    case ChartKind::Roofline:
        return QObject::tr("&Roofline chart...");
    case ChartKind::Machines:
        return QObject::tr("&Machines chart...");
    }
    return {};
}

// A file name in the folder of the last export (where there was one).
QString inLastFolder(const QString& name) {
    const QString folder = lastExportFolder();
    return folder.isEmpty() ? name : QDir(folder).filePath(name);
}

} // namespace

ViewFigureContent viewFigureContent(const MainWindow& window) {
    ViewFigureContent content;
    const Scenario& training = window.explorer()->document().scenario();
    const ViewScenario& view = window.viewScenario();
    QStringList parts;
    parts << QString::fromStdString(training.workload + " (" + training.framework + ")");
    if (const ScenarioRun* run = window.currentRun()) {
        const QString chips =
            QObject::tr("%1 chips (%2)")
                .arg(QString::fromStdString(groupDigits(double(run->topology.chipCount()))),
                     QString::fromStdString(view.topology));
        // Multislice: the view draws every slice, so the caption counts them.
        parts << (training.slices > 1
                      ? QObject::tr("%1 slices of %2").arg(training.slices).arg(chips)
                      : chips);
    }
    parts << QObject::tr("global batch %1")
                 .arg(QString::fromStdString(groupDigits(double(training.globalBatch))));
    const std::string algorithm = toString(view.collective.algorithm);
    // The "2d" algorithm sums dimension by dimension, over as many as the slice has.
    const int rank = window.currentRun() != nullptr ? window.currentRun()->topology.rank() : 2;
    parts << QObject::tr("%1 %2, %3 MiB per chip in %4 chunks")
                 .arg(algorithm == "2d" ? QObject::tr("%1-D").arg(rank)
                                        : QString::fromStdString(algorithm),
                      QString::fromStdString(toString(view.collective.op)))
                 .arg(view.collective.bytesPerChip / (1024.0 * 1024.0), 0, 'f', 1)
                 .arg(view.collective.chunks);
    content.configuration = parts.join(QString::fromUtf8(" \xC2\xB7 "));
    content.phase = window.caption();
    // As the clock under the view reads ("1.375 s / 4.582 s"), one unit chosen by the span.
    const QString reading = window.clockText();
    content.time = QObject::tr("t = %1 of %2")
                       .arg(reading.section(QStringLiteral(" / "), 0, 0),
                            reading.section(QStringLiteral(" / "), 1));
    content.chips = window.frame().chipLegend;
    content.linkKinds = window.linkKey()->key();
    content.links = window.frame().linkLegend;
    return content;
}

QImage renderViewFigure(MainWindow& window, QSize size, const ViewFigureOptions& options) {
    VtkView* view = window.view();
    if (!view) {
        return {};
    }
    if (!options.any()) {
        return view->renderImage(size);
    }
    const ViewFigureContent content = viewFigureContent(window);
    const QRect sceneRect = viewFigureSceneRect(size, content, options);
    const QImage scene =
        view->renderImage(sceneRect.size(), viewBackground(options.lightBackground));
    return scene.isNull() ? QImage() : composeViewFigure(scene, size, content, options);
}

ExportMenu::ExportMenu(Explorer& explorer, MainWindow& window, QMenu* fileMenu, QAction* before)
    : QObject(&explorer)
    , explorer_(explorer)
    , window_(window)
    , menu_(new QMenu(tr("&Export"), fileMenu)) {
    fileMenu->insertMenu(before, menu_);
    menu_->setObjectName("exportMenu");
    QAction* current = menu_->addAction(tr("&Chart in front..."), this,
                                        [this] { exportChartInteractively(currentChart()); });
    current->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QMenu* charts = menu_->addMenu(tr("C&harts"));
    for (ChartKind kind :
         {ChartKind::Scaling, ChartKind::Breakdown, ChartKind::Batch, ChartKind::Links,
          ChartKind::Layers, ChartKind::Roofline, ChartKind::Machines}) {
        charts->addAction(chartTitle(kind), this, [this, kind] { exportChartInteractively(kind); });
    }
    QAction* view =
        menu_->addAction(tr("3-D &view as PNG..."), this, [this] { exportViewInteractively(); });
    view->setEnabled(window_.view() != nullptr);
    menu_->addSeparator();
    menu_->addAction(tr("Results as &JSON..."), this, [this] {
        askAndRun(tr("Export results as JSON"), "results.json", tr("JSON (*.json)"),
                  [this](const QString& path) { exportResultsJson(path); });
    });
    menu_->addAction(tr("Results as C&SV..."), this, [this] {
        askAndRun(tr("Export results as CSV"), "results.csv", tr("CSV (*.csv)"),
                  [this](const QString& path) { exportResultsCsv(path); });
    });
    menu_->addAction(tr("&Report folder..."), this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(
            &window_, tr("Write the report (results, trace, charts, report.html) into"),
            lastExportFolder());
        if (!folder.isEmpty()) {
            rememberExportFolder(folder);
            warnOnFailure(folder);
            exportReportFolder(folder);
        }
    });
    menu_->addSeparator();
    menu_->addAction(tr("S&tep trace..."), this, [this] {
        askAndRun(tr("Export the training step as a Chrome trace"), "step.trace.json",
                  tr("Chrome trace (*.json)"),
                  [this](const QString& path) { exportStepTrace(path); });
    });
    menu_->addAction(tr("C&ollective trace..."), this, [this] {
        askAndRun(tr("Export the replayed collective as a Chrome trace"), "collective.trace.json",
                  tr("Chrome trace (*.json)"),
                  [this](const QString& path) { exportCollectiveTrace(path); });
    });
    window_.addAction(current);
}

ChartKind ExportMenu::currentChart() const {
    return explorer_.currentChart();
}

const QWidget* ExportMenu::chartWidget(ChartKind kind) const {
    switch (kind) {
    case ChartKind::Scaling:
        return explorer_.throughputChart();
    case ChartKind::Breakdown:
        return explorer_.breakdownChart();
    case ChartKind::Batch:
        return explorer_.batchChart();
    case ChartKind::Links:
        return explorer_.linkChart();
    case ChartKind::Layers:
        return explorer_.layerTimeChart();
    case ChartKind::Roofline:
        return explorer_.rooflineChart();
    case ChartKind::Machines:
        return explorer_.machinesChart();
    }
    return nullptr;
}

ChartData ExportMenu::chartData() const {
    ChartData data;
    data.analysis = explorer_.analysis();
    if (explorer_.baseline()) {
        data.baseline = explorer_.baseline()->breakdown;
    }
    data.run = window_.currentRun();
    return data;
}

void ExportMenu::exportChartInteractively(ChartKind kind) {
    const auto request = askChartExport(&window_, chartKindName(kind), chartWidget(kind));
    if (!request) {
        return;
    }
    const QString& path = request->path;
    const ExportSize& size = request->size;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const QString problem = exportChart(kind, chartData(), path, size.pixels, size.dpi);
    QApplication::restoreOverrideCursor();
    if (!problem.isEmpty()) {
        QMessageBox::warning(&window_, tr("Cannot export"), problem);
    } else {
        window_.statusBar()->showMessage(tr("Wrote %1 (%2x%3 px, %4 DPI)")
                                             .arg(path)
                                             .arg(size.pixels.width())
                                             .arg(size.pixels.height())
                                             .arg(size.dpi),
                                         5000);
    }
    emit finished(path, problem);
}

void ExportMenu::exportViewInteractively() {
    VtkView* view = window_.view();
    if (!view) {
        return;
    }
    QString path = QFileDialog::getSaveFileName(&window_, tr("Export the 3-D view"),
                                                inLastFolder("view.png"), tr("PNG image (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    rememberExportFolder(path);
    if (!path.endsWith(".png", Qt::CaseInsensitive)) {
        path += ".png";
    }
    const auto size = askSize(&window_, tr("Image size"), {{1920, 1080}, 96}, false,
                              {{tr("Full HD (1920x1080)"), {{1920, 1080}, 96}},
                               {tr("4K (3840x2160)"), {{3840, 2160}, 96}},
                               {tr("On-screen"), {view->size(), 96}}},
                              &viewFigure_);
    if (!size) {
        return;
    }
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QElapsedTimer clock;
    clock.start();
    const QImage image = renderViewFigure(window_, size->pixels, viewFigure_);
    const qint64 renderMs = clock.elapsed();
    const QString problem =
        image.isNull() ? tr("cannot render the 3-D view at %1x%2 (too large for the OpenGL "
                            "driver, or the view has not been shown)")
                             .arg(size->pixels.width())
                             .arg(size->pixels.height())
                       : savePngAtomically(image, path);
    QApplication::restoreOverrideCursor();
    if (!problem.isEmpty()) {
        QMessageBox::warning(&window_, tr("Cannot export"), problem);
    } else {
        window_.statusBar()->showMessage(tr("Wrote %1 (%2x%3 px, rendered in %4 ms)")
                                             .arg(path)
                                             .arg(size->pixels.width())
                                             .arg(size->pixels.height())
                                             .arg(renderMs),
                                         5000);
    }
    emit finished(path, problem);
}

void ExportMenu::askAndRun(const QString& title, const QString& defaultName, const QString& filter,
                           const std::function<void(const QString&)>& run) {
    const QString path =
        QFileDialog::getSaveFileName(&window_, title, inLastFolder(defaultName), filter);
    if (!path.isEmpty()) {
        rememberExportFolder(path);
        warnOnFailure(path);
        run(path);
    }
}

void ExportMenu::warnOnFailure(const QString& path) {
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(this, &ExportMenu::finished, this,
                          [this, connection, path](const QString& done, const QString& problem) {
                              if (done != path) {
                                  return;
                              }
                              disconnect(*connection);
                              if (!problem.isEmpty()) {
                                  QMessageBox::warning(&window_, tr("Cannot export"), problem);
                              }
                          });
}

void ExportMenu::exportResultsJson(const QString& path) {
    runInBackground(tr("results"), path, [scenario = explorer_.document().scenario(), path] {
        return writeText(
            path, report::resultsJson(report::computeReport(scenario, presetOf(scenario))) + "\n");
    });
}

void ExportMenu::exportResultsCsv(const QString& path) {
    runInBackground(tr("results"), path, [scenario = explorer_.document().scenario(), path] {
        return writeText(path,
                         report::resultsCsv(report::computeReport(scenario, presetOf(scenario))));
    });
}

void ExportMenu::exportReportFolder(const QString& folder) {
    // The sweeps and the files off the UI thread; the charts, which are widgets, on it between.
    auto computed = QtConcurrent::run([scenario = explorer_.document().scenario()] {
        return std::make_shared<const report::ReportData>(
            report::computeReport(scenario, presetOf(scenario)));
    });
    auto* watcher = new QFutureWatcher<std::shared_ptr<const report::ReportData>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, folder] {
        watcher->deleteLater();
        std::shared_ptr<const report::ReportData> data;
        std::vector<report::ReportFigure> figures;
        QString problem;
        try {
            data = watcher->result();
            figures = drawReportFigures(*data);
        } catch (const std::exception& e) {
            problem = QString::fromStdString(e.what());
        }
        runInBackground(tr("the report"), folder,
                        [data, figures = std::move(figures), folder, problem]() -> QString {
                            try {
                                if (!problem.isEmpty()) {
                                    throw std::runtime_error(problem.toStdString());
                                }
                                report::writeReport(*data, figures, folder.toStdString());
                                return {};
                            } catch (const std::exception& e) {
                                return tr("cannot write the report into '%1': %2")
                                    .arg(folder, QString::fromStdString(e.what()));
                            }
                        });
    });
    watcher->setFuture(computed);
}

void ExportMenu::exportStepTrace(const QString& path) {
    const TrainingAnalysis* analysis = explorer_.analysis();
    if (!analysis) {
        emit finished(path, tr("nothing to trace yet: the configuration has not been analysed"));
        return;
    }
    runInBackground(
        tr("the step trace (simulating the gradient collective on %1 chips)")
            .arg(analysis->result.chips),
        path, [scenario = analysis->scenario, result = analysis->result, path] {
            try {
                return writeText(path, trace::buildStepTrace(scenario, result).dump());
            } catch (const std::exception& e) {
                return tr("cannot trace the step: %1").arg(QString::fromStdString(e.what()));
            }
        });
}

void ExportMenu::exportCollectiveTrace(const QString& path) {
    // Shared, not copied: the run on screen may be replaced while the trace is built.
    std::shared_ptr<const ScenarioRun> run = window_.sharedRun();
    if (!run) {
        emit finished(path, tr("nothing to trace yet: no collective has been simulated"));
        return;
    }
    nlohmann::json other = {{"view", {{"topology", run->scenario.topology}}}};
    if (const TrainingAnalysis* analysis = explorer_.analysis()) {
        other["scenario"] = toJson(analysis->scenario);
    }
    runInBackground(
        tr("the collective trace"), path, [run = std::move(run), other = std::move(other), path] {
            return writeText(path,
                             trace::buildCollectiveTrace(run->topology, run->scenario.collective,
                                                         run->simulation.record, other)
                                 .dump());
        });
}

void ExportMenu::runInBackground(const QString& what, const QString& path,
                                 std::function<QString()> job) {
    auto* busy = new QProgressBar;
    busy->setRange(0, 0); // the jobs report no fraction
    busy->setMaximumWidth(100);
    window_.statusBar()->addPermanentWidget(busy);
    window_.statusBar()->showMessage(tr("Exporting %1 to %2...").arg(what, path));
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, busy, path] {
        const QString problem = watcher->result();
        watcher->deleteLater();
        window_.statusBar()->removeWidget(busy);
        busy->deleteLater();
        if (problem.isEmpty()) {
            const QFileInfo info(path);
            window_.statusBar()->showMessage(
                info.isFile() ? tr("Wrote %1 (%2 KiB)").arg(path).arg(info.size() / 1024)
                              : tr("Wrote %1").arg(path),
                5000);
        } else {
            window_.statusBar()->showMessage(tr("Export failed: %1").arg(problem), 10000);
        }
        emit finished(path, problem);
    });
    watcher->setFuture(QtConcurrent::run([job = std::move(job)]() -> QString {
        try {
            return job();
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }));
}

} // namespace podscope::ui
