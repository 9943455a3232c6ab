#pragma once

#include "export/ViewFigure.hpp"

#include <QSize>
#include <QString>
#include <optional>
#include <utility>
#include <vector>

class QWidget;

namespace podscope::ui {

// The dialogs of an export that ask where and how large: File > Export and the search's Pareto
// chart ask the same questions the same way.

struct ExportSize {
    QSize pixels;
    int dpi = 96;
};

// A print-ready default beside the on-screen size: 8 x 5 inches at 200 DPI.
inline constexpr ExportSize kPrintSize{{1600, 1000}, 200};
// Journal and slide sizes at 300 DPI: a single column is 3.5 in wide, a double column 7 in
// (both 3:2), a 16:9 slide 13.33 x 7.5 in.
inline constexpr ExportSize kSingleColumnSize{{1050, 700}, 300};
inline constexpr ExportSize kDoubleColumnSize{{2100, 1400}, 300};
inline constexpr ExportSize kSlideSize{{4000, 2250}, 300};

// The sizes File > Export offers for a chart, named: single column, double column, slide, the
// print default and the chart's size on screen (`onScreen`, when it has one).
std::vector<std::pair<QString, ExportSize>> chartExportPresets(QSize onScreen);

// The folder the last export went to (QSettings), or empty; remembers one.
QString lastExportFolder();
void rememberExportFolder(const QString& fileOrFolder);
// The size of the last chart export (QSettings), else the double-column size.
ExportSize lastChartExportSize();
void rememberChartExportSize(ExportSize size);

// Asks for a pixel size and, when `withDpi`, a DPI; `presets` fill the fields in one click.
// With `figure`, also which overlays a figure of the 3-D view gets (updated on OK).
std::optional<ExportSize> askSize(QWidget* parent, const QString& title, ExportSize initial,
                                  bool withDpi,
                                  const std::vector<std::pair<QString, ExportSize>>& presets,
                                  ViewFigureOptions* figure = nullptr);

struct ChartExportRequest {
    QString path; // ends in .png, .svg or .pdf
    ExportSize size;
};

// Asks where to write the chart called `name` (PNG, SVG or PDF: the filter chosen adds its
// extension when none is typed), starting in the folder of the last export, and at which size,
// starting from the last one chosen and offering chartExportPresets(). Nothing when the user
// cancels either question.
std::optional<ChartExportRequest> askChartExport(QWidget* parent, const QString& name,
                                                 const QWidget* onScreen);

} // namespace podscope::ui
