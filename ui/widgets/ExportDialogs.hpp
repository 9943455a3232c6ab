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
// extension when none is typed) and at which size, offering the size of `onScreen` (when shown)
// and the print size. Nothing when the user cancels either question.
std::optional<ChartExportRequest> askChartExport(QWidget* parent, const QString& name,
                                                 const QWidget* onScreen);

} // namespace podscope::ui
