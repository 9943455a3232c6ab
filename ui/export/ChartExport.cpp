#include "export/ChartExport.hpp"

#include "charts/BatchChart.hpp"
#include "charts/BreakdownChart.hpp"
#include "charts/LayerTimeChart.hpp"
#include "charts/LinkUseChart.hpp"
#include "charts/MachinesChart.hpp"
#include "charts/RooflineChart.hpp"
#include "charts/ThroughputChart.hpp"
#include "common/InputError.hpp"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextDocumentFragment>
#include <cmath>

namespace podscope::ui {
namespace {

constexpr double kMetresPerInch = 0.0254;
constexpr double kPointsPerInch = 72;
constexpr double kMillimetresPerInch = 25.4;
// The logical DPI the export's layout is made for, as the brief of the export says: a chart
// exported at 96 DPI is laid out exactly as one of that pixel size on a standard screen.
constexpr double kLayoutDpi = 96;

QString writeAtomically(const QString& path, const QByteArray& content) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QObject::tr("cannot write '%1': %2").arg(path, file.errorString());
    }
    if (file.write(content) != content.size() || !file.commit()) {
        const QString problem = QObject::tr("cannot write '%1': %2").arg(path, file.errorString());
        file.cancelWriting();
        return problem;
    }
    return {};
}

// Lays the chart out at the logical size, as a resize of its view would, without showing it.
void layOut(QChartView& view, QSizeF logical) {
    view.resize(logical.toSize());
    view.scene()->setSceneRect(QRectF(QPointF(0, 0), logical));
    view.chart()->setBackgroundRoundness(0); // the corners would stay transparent in a PNG
    view.chart()->resize(logical);
    // The chart's layout runs on a posted layout request, and fitting the axes' ticks to the
    // plot's new size can post another: settle them all (two or three rounds).
    for (int round = 0; round < 8; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::sendPostedEvents();
    }
}

// Paints the laid-out scene onto `painter`, scaled from the logical rectangle to `target`.
void paintScene(QChartView& view, QPainter& painter, QRectF target, QSizeF logical) {
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    // The chart's background stops short of its edges: a white page under it, or an SVG would
    // have a transparent frame.
    painter.fillRect(target, Qt::white);
    view.scene()->render(&painter, target, QRectF(QPointF(0, 0), logical), Qt::IgnoreAspectRatio);
}

// The chart's title as one line of plain text (the chart holds it as HTML, wrapped to its width).
QString plainTitle(const QChartView& view) {
    return QTextDocumentFragment::fromHtml(view.chart()->title()).toPlainText().simplified();
}

// The device's own DPI must be the one the chart's fonts were measured at; otherwise the
// painter converts font point sizes at a different scale from the layout and text overflows.
int layoutDeviceDpi(const QChartView& view) {
    return view.logicalDpiY();
}

QByteArray renderPng(QChartView& view, QSize pixels, int dpi, QSizeF logical, QString* problem) {
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        *problem = QObject::tr("not enough memory for a %1x%2 image")
                       .arg(pixels.width())
                       .arg(pixels.height());
        return {};
    }
    const int deviceDpi = layoutDeviceDpi(view);
    image.setDotsPerMeterX(static_cast<int>(std::lround(deviceDpi / kMetresPerInch)));
    image.setDotsPerMeterY(static_cast<int>(std::lround(deviceDpi / kMetresPerInch)));
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        paintScene(view, painter, QRectF(QPointF(0, 0), QSizeF(pixels)), logical);
    }
    // Only now: the pixels are final, the file says how large they print.
    image.setDotsPerMeterX(static_cast<int>(std::lround(dpi / kMetresPerInch)));
    image.setDotsPerMeterY(static_cast<int>(std::lround(dpi / kMetresPerInch)));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        *problem = QObject::tr("the PNG encoder failed");
    }
    return bytes;
}

QByteArray renderSvg(QChartView& view, QSize pixels, int dpi, QSizeF logical) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(pixels);
    generator.setViewBox(QRect(QPoint(0, 0), pixels)); // user units are output pixels
    generator.setResolution(layoutDeviceDpi(view));
    generator.setTitle(plainTitle(view).toHtmlEscaped()); // written into the XML as it is
    generator.setDescription(QObject::tr("PodScope chart, %1x%2 px at %3 DPI")
                                 .arg(pixels.width())
                                 .arg(pixels.height())
                                 .arg(dpi));
    {
        QPainter painter(&generator);
        paintScene(view, painter, QRectF(QPointF(0, 0), QSizeF(pixels)), logical);
    }
    // The generator derives the physical size from its resolution, which has to stay the
    // layout's (see layoutDeviceDpi): state the size the chosen DPI gives instead.
    QString text = QString::fromUtf8(bytes);
    const QString width = QString::number(pixels.width() * kMillimetresPerInch / dpi, 'f', 3);
    const QString height = QString::number(pixels.height() * kMillimetresPerInch / dpi, 'f', 3);
    const qsizetype svgStart = text.indexOf("<svg");
    const qsizetype svgEnd = text.indexOf('>', svgStart);
    if (svgStart >= 0 && svgEnd > svgStart) {
        QString header = text.mid(svgStart, svgEnd - svgStart);
        header.replace(QRegularExpression(R"(width="[^"]*")"),
                       QString("width=\"%1mm\"").arg(width));
        header.replace(QRegularExpression(R"(height="[^"]*")"),
                       QString("height=\"%1mm\"").arg(height));
        text.replace(svgStart, svgEnd - svgStart, header);
    }
    return text.toUtf8();
}

QByteArray renderPdf(QChartView& view, QSize pixels, int dpi, QSizeF logical) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setCreator("PodScope");
        writer.setTitle(plainTitle(view));
        // The page measures pixels / dpi inches; the device works in layout units so that
        // fonts keep the size they were laid out at (see layoutDeviceDpi).
        const QSizeF points(pixels.width() * kPointsPerInch / dpi,
                            pixels.height() * kPointsPerInch / dpi);
        writer.setPageLayout(
            QPageLayout(QPageSize(points, QPageSize::Point, {}, QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        writer.setResolution(layoutDeviceDpi(view));
        QPainter painter(&writer);
        paintScene(view, painter, QRectF(0, 0, writer.width(), writer.height()), logical);
    }
    return bytes;
}

} // namespace

std::optional<ChartKind> parseChartKind(const QString& name) {
    try {
        return parseChartKind(name.toStdString());
    } catch (const InputError&) {
        return std::nullopt;
    }
}

QString chartKindName(ChartKind kind) {
    return QString::fromStdString(toString(kind));
}

std::optional<ExportFormat> exportFormatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png") {
        return ExportFormat::Png;
    }
    if (suffix == "svg") {
        return ExportFormat::Svg;
    }
    if (suffix == "pdf") {
        return ExportFormat::Pdf;
    }
    return std::nullopt;
}

QString checkExportSize(QSize pixels) {
    if (pixels.width() < kMinExportPixels || pixels.height() < kMinExportPixels ||
        pixels.width() > kMaxExportPixels || pixels.height() > kMaxExportPixels) {
        return QObject::tr("size %1x%2 is out of range: each side must be %3 to %4 pixels")
            .arg(pixels.width())
            .arg(pixels.height())
            .arg(kMinExportPixels)
            .arg(kMaxExportPixels);
    }
    return {};
}

QString checkExportDpi(int dpi) {
    if (dpi < kMinExportDpi || dpi > kMaxExportDpi) {
        return QObject::tr("DPI %1 is out of range: it must be %2 to %3")
            .arg(dpi)
            .arg(kMinExportDpi)
            .arg(kMaxExportDpi);
    }
    return {};
}

std::unique_ptr<QChartView> makeChart(ChartKind kind, const ChartData& data, QString* problem) {
    if (kind == ChartKind::Links) {
        if (!data.run) {
            *problem = QObject::tr("the link chart has no replayed collective yet");
            return nullptr;
        }
        auto chart = std::make_unique<LinkUseChart>();
        chart->setRun(*data.run);
        return chart;
    }
    if (!data.analysis) {
        *problem = QObject::tr("the %1 chart has no analysis yet").arg(chartKindName(kind));
        return nullptr;
    }
    switch (kind) {
    case ChartKind::Scaling: {
        auto chart = std::make_unique<ThroughputChart>();
        chart->setAnalysis(*data.analysis);
        return chart;
    }
    case ChartKind::Breakdown: {
        auto chart = std::make_unique<BreakdownChart>();
        chart->setAnalysis(*data.analysis);
        chart->setBaseline(data.baseline);
        return chart;
    }
    case ChartKind::Batch: {
        auto chart = std::make_unique<BatchChart>();
        chart->setAnalysis(*data.analysis);
        return chart;
    }
    case ChartKind::Layers: {
        auto chart = std::make_unique<LayerTimeChart>();
        chart->setAnalysis(*data.analysis);
        return chart;
    }
    case ChartKind::Roofline: {
        auto chart = std::make_unique<RooflineChart>();
        chart->setAnalysis(*data.analysis);
        return chart;
    }
    case ChartKind::Machines: {
        auto chart = std::make_unique<MachinesChart>();
        chart->setAnalysis(*data.analysis);
        return chart;
    }
    case ChartKind::Links:
        break; // handled above
    }
    return nullptr;
}

QString savePngAtomically(const QImage& image, const QString& path) {
    const QFileInfo target(path);
    if (!target.absoluteDir().exists()) {
        return QObject::tr("cannot write '%1': folder '%2' does not exist")
            .arg(path, target.absolutePath());
    }
    if (image.isNull()) {
        return QObject::tr("cannot write '%1': there is no image").arg(path);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        return QObject::tr("cannot write '%1': the PNG encoder failed").arg(path);
    }
    return writeAtomically(path, bytes);
}

QByteArray renderChart(QChartView& view, ExportFormat format, QSize pixels, int dpi,
                       QString* problem) {
    const QSizeF logical(pixels.width() * kLayoutDpi / dpi, pixels.height() * kLayoutDpi / dpi);
    layOut(view, logical);
    switch (format) {
    case ExportFormat::Png:
        return renderPng(view, pixels, dpi, logical, problem);
    case ExportFormat::Svg:
        return renderSvg(view, pixels, dpi, logical);
    case ExportFormat::Pdf:
        return renderPdf(view, pixels, dpi, logical);
    }
    return {};
}

namespace {

// Empty when the path names a format and a folder that exists, and the size and DPI are
// within the limits; else the problem.
QString checkExportTarget(const QString& path, QSize pixels, int dpi) {
    if (!exportFormatOf(path)) {
        return QObject::tr("cannot export to '%1': the file name must end in .png, .svg or .pdf")
            .arg(path);
    }
    if (QString problem = checkExportSize(pixels); !problem.isEmpty()) {
        return problem;
    }
    if (QString problem = checkExportDpi(dpi); !problem.isEmpty()) {
        return problem;
    }
    const QFileInfo target(path);
    if (!target.absoluteDir().exists()) {
        return QObject::tr("cannot write '%1': folder '%2' does not exist")
            .arg(path, target.absolutePath());
    }
    return {};
}

} // namespace

QString exportChart(ChartKind kind, const ChartData& data, const QString& path, QSize pixels,
                    int dpi) {
    if (QString problem = checkExportTarget(path, pixels, dpi); !problem.isEmpty()) {
        return problem;
    }
    QString problem;
    std::unique_ptr<QChartView> view = makeChart(kind, data, &problem);
    if (!view) {
        return problem;
    }
    return exportChartView(*view, path, pixels, dpi);
}

QString exportChartView(QChartView& view, const QString& path, QSize pixels, int dpi) {
    if (QString problem = checkExportTarget(path, pixels, dpi); !problem.isEmpty()) {
        return problem;
    }
    QString problem;
    const QByteArray bytes = renderChart(view, *exportFormatOf(path), pixels, dpi, &problem);
    if (!problem.isEmpty()) {
        return QObject::tr("cannot export to '%1': %2").arg(path, problem);
    }
    return writeAtomically(path, bytes);
}

} // namespace podscope::ui
