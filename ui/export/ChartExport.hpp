#pragma once

#include "figure/ChartKind.hpp"
#include "training/StepModel.hpp"
#include "view/ScenarioRun.hpp"
#include "view/TrainingAnalysis.hpp"

#include <QSize>
#include <QString>
#include <memory>
#include <optional>

class QByteArray;
class QChartView;
class QImage;

namespace podscope::ui {

// ChartKind (scaling, breakdown, batch, links, layers, roofline) is shared with the demo scripts:
// figure/ChartKind.hpp.
enum class ExportFormat { Png, Svg, Pdf };

// What an export may ask for: beyond these, images stop fitting in memory or stop being
// readable (a 16384-pixel side is also the usual limit of image viewers and GL textures).
inline constexpr int kMinExportPixels = 64;
inline constexpr int kMaxExportPixels = 16384;
inline constexpr int kMinExportDpi = 36;
inline constexpr int kMaxExportDpi = 1200;

// "scaling", "breakdown", "batch", "links", "layers" or "roofline" (the command line's names).
std::optional<ChartKind> parseChartKind(const QString& name);
QString chartKindName(ChartKind kind);
// By the file name's extension: .png, .svg or .pdf, in any case.
std::optional<ExportFormat> exportFormatOf(const QString& path);

// Empty when the size (each side) or the DPI is within the limits above, else the problem.
QString checkExportSize(QSize pixels);
QString checkExportDpi(int dpi);

// What the charts show: the link chart needs the replayed run, the others the analysis. The
// pointers only need to live for the duration of the call they are passed to.
struct ChartData {
    const TrainingAnalysis* analysis = nullptr;
    std::optional<StepBreakdown> baseline; // the pinned baseline of the breakdown chart
    const ScenarioRun* run = nullptr;
};

// A new chart of the same class as the one on screen, never shown, fed with `data`. Returns
// nullptr and sets `problem` when the data the chart needs is missing.
std::unique_ptr<QChartView> makeChart(ChartKind kind, const ChartData& data, QString* problem);

// Renders the chart of that kind at `pixels` and writes it to `path` in the format its
// extension names: the chart is laid out at the logical size pixels * 96 / dpi (so text and
// lines keep their proportions at any DPI) and painted scaled, as vectors for SVG and PDF.
// The PNG stores the DPI; the SVG and PDF page measure pixels / dpi inches. The file is
// written through a temporary file and a rename, so a failure leaves any existing file whole.
// Returns the problem, naming the path, size or DPI, or an empty string on success.
QString exportChart(ChartKind kind, const ChartData& data, const QString& path, QSize pixels,
                    int dpi);

// The same for a chart that is not one of the kinds above (the search's Pareto chart): `view`
// should be a chart made for the export, not the one on screen, which it lays out afresh.
QString exportChartView(QChartView& view, const QString& path, QSize pixels, int dpi);

// The chart laid out and painted as exportChart() does, as the file's bytes; sets `problem`
// when the image cannot be made (too large for memory, the encoder failed).
QByteArray renderChart(QChartView& view, ExportFormat format, QSize pixels, int dpi,
                       QString* problem);

// Writes `image` as a PNG through a temporary file and a rename (for the 3-D view's export).
// Returns the problem, naming the path, or an empty string on success.
QString savePngAtomically(const QImage& image, const QString& path);

} // namespace podscope::ui
