#pragma once

#include "export/ChartExport.hpp"
#include "export/ViewFigure.hpp"

#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace podscope::ui {

class Explorer;
class MainWindow;

// The 3-D view as a figure of `size` pixels: the scene rendered afresh off-screen at the size the
// overlays leave for it, on the chosen background, then the caption (configuration, phase,
// time), chip legend and link colour bar the options ask for. Null when the view cannot render
// (no OpenGL context yet, or a size beyond the driver's).
QImage renderViewFigure(MainWindow& window, QSize size, const ViewFigureOptions& options);
// What the caption and legends say now.
ViewFigureContent viewFigureContent(const MainWindow& window);

// File > Export: charts (PNG, SVG, PDF at a chosen size and DPI), the 3-D view (PNG at a
// chosen size), results (JSON, CSV, a report folder) and Chrome traces of the training step
// and of the replayed collective. Anything slower than a frame runs off the UI thread, with
// progress in the status bar; every file is written through a temporary file and a rename.
class ExportMenu : public QObject {
    Q_OBJECT
public:
    // Adds the submenu to `fileMenu` before `before` (at its end when null); a child of the
    // explorer, whose charts and results it writes.
    ExportMenu(Explorer& explorer, MainWindow& window, QMenu* fileMenu, QAction* before = nullptr);
    QMenu* menu() const { return menu_; }

    // The chart tab in front in the charts dock.
    ChartKind currentChart() const;
    // The data the charts show now (valid until the next analysis or run is shown).
    ChartData chartData() const;

    // The slow exports, without dialogs, for tests: they run off the UI thread and report
    // through finished(); each writes one file (or the report folder) or nothing.
    void exportResultsJson(const QString& path);
    void exportResultsCsv(const QString& path);
    void exportReportFolder(const QString& folder);
    void exportStepTrace(const QString& path);
    void exportCollectiveTrace(const QString& path);

signals:
    // `problem` is empty on success.
    void finished(const QString& path, const QString& problem);

private:
    // The chart of that kind on screen.
    const QWidget* chartWidget(ChartKind kind) const;
    void exportChartInteractively(ChartKind kind);
    void exportViewInteractively();
    void askAndRun(const QString& title, const QString& defaultName, const QString& filter,
                   const std::function<void(const QString&)>& run);
    // Shows a message box if the export to `path` started next fails.
    void warnOnFailure(const QString& path);
    // Runs `job` (which returns a problem or an empty string) off the UI thread.
    void runInBackground(const QString& what, const QString& path, std::function<QString()> job);

    Explorer& explorer_;
    MainWindow& window_;
    QMenu* menu_;
    ViewFigureOptions viewFigure_; // the overlays last chosen for the 3-D view's export
};

} // namespace podscope::ui
