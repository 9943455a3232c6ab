// Publication figures (issue 15) on the offscreen platform: every chart, at the export sizes,
// keeps all its text whole and apart, ticks round and legends free of empty parts; a few charts
// drawn from fixed data match stored baseline images within a tolerance (as F3D checks its
// renders). Regenerate the baselines with tests/gui/update-figure-baselines.sh after a change
// meant to alter the figures, and look at them before committing.
#include "charts/BatchChart.hpp"
#include "charts/BreakdownChart.hpp"
#include "charts/FigureAxis.hpp"
#include "charts/FigureFrame.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/LayerTimeChart.hpp"
#include "charts/LinkUseChart.hpp"
#include "charts/MachinesChart.hpp"
#include "charts/ParetoChart.hpp"
#include "charts/RooflineChart.hpp"
#include "charts/StackedBarLabels.hpp"
#include "charts/ThroughputChart.hpp"
#include "export/ChartExport.hpp"
#include "export/ReportFigures.hpp"
#include "export/ViewFigure.hpp"
#include "report/Report.hpp"
#include "training/Presets.hpp"
#include "view/ScenarioRun.hpp"
#include "view/TrainingAnalysis.hpp"
#include "workload/Workload.hpp"

#include <QAbstractAxis>
#include <QAbstractTextDocumentLayout>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLineSeries>
#include <QProcess>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QXmlStreamReader>
#include <cmath>
#include <functional>
#include <memory>

using namespace podscope;
using namespace podscope::ui;

namespace {

// The sizes the issue names, at the print DPI and at twice it, and a small on-screen size.
struct ExportSize {
    QSize pixels;
    int dpi;
};
// The charts dock of the window at 1280x720 (about 1260x180) and 1024x768 is about as small as
// they get.
// Issue 23: a single-column figure (3.5 in wide at 300 DPI), a double-column one (7 in), a
// slide (13.33 x 7.5 in) and the chart dock of a 1600-pixel window (1596x193).
const ExportSize kSizes[] = {{{1600, 1000}, 200}, {{3200, 2000}, 200}, {{3200, 2000}, 400},
                             {{800, 500}, 96},    {{1260, 175}, 96},   {{1000, 220}, 96},
                             {{1050, 700}, 300},  {{2100, 1400}, 300}, {{4000, 2250}, 300},
                             {{1596, 193}, 96}};

// Fixed data, not the model's: the baselines then guard the drawing, not the numbers.
ScalingFigure fixedWeakScaling() {
    ScalingFigure f;
    f.kind = ScalingFigure::Kind::Weak;
    f.workload = "resnet50";
    f.batchPerChip = 16;
    const double chips[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
    const double efficiency[] = {1, 0.995, 0.992, 0.991, 0.99, 0.989, 1.08, 1.065, 1.045};
    for (int i = 0; i < 9; ++i) {
        f.model.push_back({chips[i], 1113.6 * chips[i] * efficiency[i]});
        f.gradientSyncS.push_back(i < 6 ? 2.6e-3 : 1.4e-3);
    }
    f.measured = {{16, 32066}, {4096, 4.6e6}};
    return f;
}

BatchFigure fixedBatch() {
    BatchFigure f;
    f.workload = "resnet50";
    f.chips = 4096;
    double batch = 8192;
    const double times[] = {56, 40.5, 31.8, 27.8, 27.1, 28.4, 31.8, 36.8, 43.8, 52.6, 64.1, 79.3};
    for (int i = 0; i < 12; ++i, batch *= 2) {
        f.points.push_back({batch, times[i], 45 * std::pow(1.23, i)});
    }
    f.fastest = 4;
    f.currentBatch = 65536;
    f.measured = {{65536, 28.8}};
    return f;
}

// The batch sweep with the convergence model's trusted range: measured from 16k to 64k, a
// critical batch of 53,000, and the largest batches refused for HBM.
BatchFigure fixedExtrapolatedBatch() {
    BatchFigure f = fixedBatch();
    f.measuredRange = {16384, 65536};
    f.criticalBatch = 53000;
    f.hbmCapacityBytes = 16.0 * 1024 * 1024 * 1024;
    for (auto& p : f.points) {
        p.extrapolated = outsideMeasuredRange(f, p.batch);
    }
    // The two largest do not fit.
    for (int i = 0; i < 2; ++i) {
        const BatchFigure::Refused refused{f.points.back().batch,
                                           (21.3 + 10 * (1 - i)) * 1024 * 1024 * 1024};
        f.refused.insert(f.refused.begin(), refused);
        f.points.pop_back();
    }
    return f;
}

LayerRow fixedLayer(const std::string& name, const std::string& group, double forwardMs,
                    double intensity, double teraflops, CoreUnit bound) {
    LayerRow row;
    row.name = name;
    row.group = group;
    row.type = "conv";
    row.forwardS = forwardMs * 1e-3;
    row.backwardS = 2 * forwardMs * 1e-3;
    row.achievedFlops = teraflops * 1e12;
    row.flops = row.achievedFlops * row.seconds();
    row.arithmeticIntensity = intensity;
    row.hbmBytes = row.flops / intensity;
    row.kernels = 3;
    row.bound = bound;
    return row;
}

// Five groups of a ResNet-like model; points on both sides of the ridge.
std::vector<LayerRow> fixedLayers() {
    return {fixedLayer("conv1", "stem", 0.30, 40, 12, CoreUnit::Hbm),
            fixedLayer("res2a", "group1", 0.50, 120, 30, CoreUnit::Mxu),
            fixedLayer("res2b", "group1", 0.45, 95, 28, CoreUnit::Mxu),
            fixedLayer("res3a", "group2", 0.60, 300, 38, CoreUnit::Mxu),
            fixedLayer("res3a_bn", "group2", 0.20, 4, 1.2, CoreUnit::Vpu),
            fixedLayer("res4a", "group3", 0.90, 700, 40, CoreUnit::Mxu),
            fixedLayer("res5a", "group4", 0.40, 1500, 25, CoreUnit::Overhead),
            fixedLayer("fc", "head", 0.05, 60, 4, CoreUnit::Overhead)};
}

// A BERT-like encoder: embeddings, 24 identical blocks and the heads.
LayersFigure fixedBlocksFigure() {
    LayersFigure f{
        "bert", 4096, 1, {fixedLayer("embed", "embeddings", 0.15, 20, 2, CoreUnit::Hbm)}};
    for (int block = 0; block < 24; ++block) {
        const std::string group = (block < 10 ? "layer0" : "layer") + std::to_string(block);
        f.layers.push_back(fixedLayer(group + "_attention", group, 0.2, 150, 30, CoreUnit::Mxu));
        f.layers.push_back(fixedLayer(group + "_ffn", group, 0.3, 250, 38, CoreUnit::Mxu));
    }
    f.layers.push_back(fixedLayer("pooler", "heads", 0.3, 0.7, 0.1, CoreUnit::Overhead));
    return f;
}

LayersFigure fixedLayersFigure() {
    return {"resnet50", 4096, 8, fixedLayers()};
}

// A search's front on the standard slices (times to train of the kind a ResNet-50 search finds)
// and the table's rows, one ringed.
ParetoFigure fixedPareto() {
    ParetoFigure f;
    f.workload = "resnet50";
    f.objective = "time-to-train";
    f.evaluated = 112000;
    const double chips[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
    const double times[] = {52000, 26500, 13600, 7000, 3650, 1950, 1080, 640, 420};
    for (std::size_t i = 0; i < std::size(chips); ++i) {
        f.front.push_back({chips[i], times[i], i, "chips=" + std::to_string(int(chips[i]))});
    }
    for (std::size_t i = 0; i < 6; ++i) {
        f.listed.push_back({4096, 420 * (1 + 0.04 * double(i)), 100 + i, "row"});
    }
    f.listed.push_back({2048, 660, 200, "row"});
    return f;
}

RooflineFigure fixedRoofline() {
    // TPU-v3 core: 61.6 TFLOP/s nominal, MXU efficiency 0.7, 423 GB/s of HBM.
    return {"resnet50", 4096, 8, fixedLayers(), 61.6e12, 0.7, 423e9};
}

StepBreakdown fixedBreakdown(double scale) {
    StepBreakdown b;
    b.compute = 11.6e-3 * scale;
    b.gradientSyncExposed = 1.84e-3;
    b.modelParallelComm = 0; // left out of the legend
    b.optimizer = 0.284e-3;
    b.inputStall = 0.05e-3;
    b.evalAmortized = 0.425e-3;
    b.overhead = 0.1e-3;
    return b;
}

// Whether `text` was shortened by Qt ("1.048...") or by anyone.
bool truncated(const QString& text) {
    return text.contains("...") || text.contains(QChar(0x2026));
}

struct TextOnScreen {
    QString text;
    QRectF rect; // in scene coordinates, without the text document's margin
};

// Every visible piece of text in the chart's scene.
std::vector<TextOnScreen> textsOf(QChartView& view) {
    std::vector<TextOnScreen> texts;
    for (QGraphicsItem* item : view.scene()->items()) {
        if (!item->isVisible()) {
            continue;
        }
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) {
            const QString plain = text->toPlainText().trimmed();
            if (plain.isEmpty()) {
                continue;
            }
            // Where its lines with text are (a blank line under a title is spacing, not text).
            QRectF inked;
            QTextDocument* document = text->document();
            for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
                if (!block.text().trimmed().isEmpty()) {
                    inked |= document->documentLayout()->blockBoundingRect(block);
                }
            }
            texts.push_back({plain, text->mapRectToScene(inked)});
        } else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            texts.push_back({simple->text(), simple->sceneBoundingRect()});
        }
    }
    return texts;
}

bool roundTick(double value, bool log) {
    if (value == 0) {
        return true;
    }
    const double exponent = std::floor(std::log10(std::abs(value)) + 1e-9);
    const double mantissa = std::abs(value) / std::pow(10.0, exponent);
    if (log) {
        const double power = std::round(std::log2(std::abs(value)));
        if (std::abs(std::exp2(power) - std::abs(value)) < 1e-9 * std::abs(value)) {
            return true; // a power of two
        }
    }
    // 1-2-5 multiples: the mantissa has at most one significant digit after 1 or 2.5 steps.
    return std::abs(mantissa * 10 - std::round(mantissa * 10)) < 1e-6;
}

// Each check names the chart and size in its message.
void expectReadable(QChartView& view, const FigureFrame& frame, const QString& what) {
    const QRectF sceneRect = view.scene()->sceneRect();
    const auto texts = textsOf(view);
    QVERIFY2(!texts.empty(), qPrintable(what));
    for (std::size_t i = 0; i < texts.size(); ++i) {
        QVERIFY2(!truncated(texts[i].text),
                 qPrintable(what + ": '" + texts[i].text + "' is cut short"));
        QVERIFY2(sceneRect.adjusted(-1, -1, 1, 1).contains(texts[i].rect),
                 qPrintable(what + ": '" + texts[i].text + "' runs off the figure"));
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF overlap = texts[i].rect.intersected(texts[j].rect);
            QVERIFY2(
                overlap.width() < 1.5 || overlap.height() < 1.5,
                qPrintable(what + ": '" + texts[i].text + "' and '" + texts[j].text + "' overlap"));
        }
    }
    for (QAbstractAxis* axis : view.chart()->axes()) {
        QVERIFY2(!axis->labelsTruncated(), qPrintable(what + ": an axis cut its labels"));
        // Qt hides an axis title it has no room for: each one is shown, whole.
        const QString title =
            QTextDocumentFragment::fromHtml(axis->titleText()).toPlainText().simplified();
        QVERIFY2(title.isEmpty() || std::ranges::any_of(texts,
                                                        [&title](const TextOnScreen& t) {
                                                            return t.text.simplified() == title;
                                                        }),
                 qPrintable(what + ": the axis title '" + title + "' is not shown"));
        // Value axes say what they measure and in which unit; bars named "baseline" and
        // "current" need no title.
        QVERIFY2(!axis->titleText().isEmpty() || axis->type() == QAbstractAxis::AxisTypeBarCategory,
                 qPrintable(what + ": an axis has no title"));
    }
    const FigureLegend* legend = frame.legend();
    if (legend->isVisible()) {
        QVERIFY2(sceneRect.adjusted(-1, -1, 1, 1).contains(legend->sceneBoundingRect()),
                 qPrintable(what + ": the legend runs off the figure"));
        for (const auto& t : texts) {
            QVERIFY2(!legend->sceneBoundingRect().intersects(t.rect) ||
                         legend->sceneBoundingRect().intersected(t.rect).height() < 1.5,
                     qPrintable(what + ": the legend covers '" + t.text + "'"));
        }
    }
}

// Issue 23: the plot is the largest part of the figure, at every size: taller than the legend
// and the title, at least 45 % of the height (a single-column figure of the batch chart had 27 %
// with its legend in four rows) and half the width.
void expectPlotLargest(QChartView& view, const FigureFrame& frame, const QString& what) {
    const QRectF figure = view.scene()->sceneRect();
    const QRectF plot = view.chart()->plotArea();
    QVERIFY2(
        plot.height() >= 0.45 * figure.height(),
        qPrintable(
            what +
            QString(": the plot is %1 of %2 px high").arg(plot.height()).arg(figure.height())));
    QVERIFY2(plot.width() >= 0.5 * figure.width(),
             qPrintable(
                 what +
                 QString(": the plot is %1 of %2 px wide").arg(plot.width()).arg(figure.width())));
    const FigureLegend* legend = frame.legend();
    if (legend->isVisible() && !frame.legendBeside()) {
        QVERIFY2(legend->boundingRect().height() < plot.height(),
                 qPrintable(what + ": the legend is taller than the plot"));
    }
}

// Issue 23: every marker (of a scatter series, or a line's points) lies whole inside the plot,
// none cut at its edge.
void expectMarkersWhole(QChartView& view, const QString& what) {
    QChart* chart = view.chart();
    const QRectF plot = chart->plotArea().adjusted(-0.5, -0.5, 0.5, 0.5);
    for (QAbstractSeries* series : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        const bool scatter = qobject_cast<QScatterSeries*>(series) != nullptr;
        if (!xy || !xy->isVisible() || (!scatter && !xy->pointsVisible())) {
            continue;
        }
        // A scatter marker is markerSize wide; Qt draws a line's points with that radius.
        const qreal r = scatter ? xy->markerSize() / 2 : xy->markerSize();
        for (const QPointF& p : xy->points()) {
            const QPointF at = chart->mapToPosition(p, xy);
            const QRectF marker(at - QPointF(r, r), QSizeF(2 * r, 2 * r));
            QVERIFY2(plot.contains(marker),
                     qPrintable(what + QString(": a marker of '%1' at (%2, %3) is cut by the plot "
                                               "(%4, %5 to %6, %7)")
                                           .arg(xy->name())
                                           .arg(at.x())
                                           .arg(at.y())
                                           .arg(plot.left())
                                           .arg(plot.top())
                                           .arg(plot.right())
                                           .arg(plot.bottom())));
        }
    }
}

// Whether the log axis labels each power of ten inside its range.
bool labelsEveryDecade(const FigureAxis& axis) {
    const AxisTicks& t = axis.ticks();
    const int first = static_cast<int>(std::ceil(std::log10(t.low) - 1e-9));
    const int last = static_cast<int>(std::floor(std::log10(t.high) + 1e-9));
    for (int e = first; e <= last; ++e) {
        if (std::ranges::none_of(t.ticks, [e](const Tick& tick) {
                return std::abs(std::log10(tick.value) - e) < 1e-9;
            })) {
            return false;
        }
    }
    return last >= first;
}

void expectRoundTicks(const FigureAxis& axis, const QString& what) {
    QVERIFY2(axis.ticks().ticks.size() >= 2, qPrintable(what + ": fewer than two ticks"));
    for (const Tick& tick : axis.ticks().ticks) {
        QVERIFY2(roundTick(tick.value, axis.isLog()),
                 qPrintable(what + QString(": tick %1 is not round").arg(tick.value)));
        QVERIFY2(!QString::fromStdString(tick.label).contains('e'),
                 qPrintable(what + ": tick label in exponent form"));
    }
}

// Lays the chart out as the export does (renders a PNG of that size) and returns the image.
QImage render(QChartView& view, QSize pixels, int dpi) {
    QString problem;
    const QByteArray bytes = renderChart(view, ExportFormat::Png, pixels, dpi, &problem);
    return problem.isEmpty() ? QImage::fromData(bytes, "PNG") : QImage();
}

QString baselinePath(const QString& name) {
    return QString(PODSCOPE_SOURCE_DIR) + "/tests/gui/baselines/" + name + ".png";
}

// Share of pixels whose largest channel difference exceeds `threshold`, and the mean absolute
// difference over all channels; a difference image for inspection.
struct Difference {
    double differingShare = 1;
    double meanAbsolute = 255;
    QImage image;
};

Difference compare(const QImage& actualImage, const QImage& expectedImage, int threshold) {
    Difference d;
    if (actualImage.size() != expectedImage.size()) {
        return d;
    }
    const QImage actual = actualImage.convertToFormat(QImage::Format_RGB32);
    const QImage expected = expectedImage.convertToFormat(QImage::Format_RGB32);
    d.image = QImage(actual.size(), QImage::Format_RGB32);
    qint64 differing = 0;
    double total = 0;
    for (int y = 0; y < actual.height(); ++y) {
        const auto* a = reinterpret_cast<const QRgb*>(actual.constScanLine(y));
        const auto* e = reinterpret_cast<const QRgb*>(expected.constScanLine(y));
        auto* out = reinterpret_cast<QRgb*>(d.image.scanLine(y));
        for (int x = 0; x < actual.width(); ++x) {
            const int dr = std::abs(qRed(a[x]) - qRed(e[x]));
            const int dg = std::abs(qGreen(a[x]) - qGreen(e[x]));
            const int db = std::abs(qBlue(a[x]) - qBlue(e[x]));
            total += dr + dg + db;
            const int largest = std::max({dr, dg, db});
            differing += largest > threshold;
            out[x] = largest > threshold ? qRgb(255, 0, 0)
                                         : qRgb(255 - largest, 255 - largest, 255 - largest);
        }
    }
    const double pixels = double(actual.width()) * actual.height();
    d.differingShare = differing / pixels;
    d.meanAbsolute = total / (pixels * 3);
    return d;
}

} // namespace

class FigureTest : public QObject {
    Q_OBJECT

private:
    TrainingAnalysis analysis_;
    std::shared_ptr<const ScenarioRun> run_;

    // Every chart the app, its exports and the report draw, made fresh.
    std::vector<std::pair<QString, std::function<std::unique_ptr<QChartView>()>>> charts() {
        return {
            {"strong scaling (app)",
             [this] {
                 auto c = std::make_unique<ThroughputChart>();
                 c->setAnalysis(analysis_);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"weak scaling (report)",
             [] {
                 auto c = std::make_unique<ThroughputChart>();
                 c->setFigure(fixedWeakScaling());
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"breakdown with a baseline",
             [this] {
                 auto c = std::make_unique<BreakdownChart>();
                 c->setAnalysis(analysis_);
                 c->setBaseline(fixedBreakdown(1.3));
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"batch (app)",
             [this] {
                 auto c = std::make_unique<BatchChart>();
                 c->setAnalysis(analysis_);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"batch (fixed)",
             [] {
                 auto c = std::make_unique<BatchChart>();
                 c->setFigure(fixedBatch());
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"batch extrapolated and refused (fixed)",
             [] {
                 auto c = std::make_unique<BatchChart>();
                 c->setFigure(fixedExtrapolatedBatch());
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"layers (app, BERT: the slowest groups and the rest)",
             [this] {
                 auto c = std::make_unique<LayerTimeChart>();
                 c->setAnalysis(analysis_);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"roofline (app)",
             [this] {
                 auto c = std::make_unique<RooflineChart>();
                 c->setAnalysis(analysis_);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"roofline (fixed: ResNet-like layers)",
             [] {
                 auto c = std::make_unique<RooflineChart>();
                 c->setFigure(fixedRoofline());
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"pareto (fixed, a row ringed)",
             [] {
                 auto c = std::make_unique<ParetoChart>();
                 c->setFigure(fixedPareto());
                 c->setSelected(102);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"machines (app, BERT on 4,096 chips: three machines without such a slice)",
             [this] {
                 auto c = std::make_unique<MachinesChart>();
                 c->setAnalysis(analysis_);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
            {"links",
             [this] {
                 auto c = std::make_unique<LinkUseChart>();
                 c->setRun(*run_);
                 return std::unique_ptr<QChartView>(std::move(c));
             }},
        };
    }

    static const FigureFrame& frameOf(QChartView& view) {
        if (auto* c = dynamic_cast<ThroughputChart*>(&view)) {
            return c->frame();
        }
        if (auto* c = dynamic_cast<BreakdownChart*>(&view)) {
            return c->frame();
        }
        if (auto* c = dynamic_cast<BatchChart*>(&view)) {
            return c->frame();
        }
        if (auto* c = dynamic_cast<LayerTimeChart*>(&view)) {
            return c->frame();
        }
        if (auto* c = dynamic_cast<RooflineChart*>(&view)) {
            return c->frame();
        }
        if (auto* c = dynamic_cast<ParetoChart*>(&view)) {
            return c->frame();
        }
        if (auto* c = dynamic_cast<MachinesChart*>(&view)) {
            return c->frame();
        }
        return dynamic_cast<LinkUseChart&>(view).frame();
    }

private slots:
    void initTestCase() {
        // The multipod: the largest numbers, the longest labels.
        analysis_ = analyzeTraining(loadPreset("mlperf07-bert-jax-4096").scenario);
        run_ = runScenario(gradientSyncView(analysis_.scenario, analysis_.result));
    }

    void everyChartKeepsItsTextWholeAndApartAtEveryExportSize() {
        for (auto& [name, make] : charts()) {
            for (const ExportSize& size : kSizes) {
                const QString what = QString("%1 at %2x%3, %4 DPI")
                                         .arg(name)
                                         .arg(size.pixels.width())
                                         .arg(size.pixels.height())
                                         .arg(size.dpi);
                auto view = make();
                const QImage image = render(*view, size.pixels, size.dpi);
                QVERIFY2(!image.isNull(), qPrintable(what));
                // To look at them: PODSCOPE_FIGURE_DUMP=folder.
                if (const QString dump = qEnvironmentVariable("PODSCOPE_FIGURE_DUMP");
                    !dump.isEmpty()) {
                    QString file = what;
                    file.replace(QRegularExpression("[^A-Za-z0-9]+"), "-");
                    image.save(QDir(dump).filePath(file + ".png"));
                }
                expectReadable(*view, frameOf(*view), what);
                expectPlotLargest(*view, frameOf(*view), what);
                expectMarkersWhole(*view, what);
            }
        }
    }

    // Issue 23: every chart that --export-chart (and File > Export) offers, made as they make
    // it, at a single-column (3.5 in) and a double-column (7 in) size at 300 DPI, in PNG, SVG
    // and PDF: every text whole and shown, every marker whole, the plot the largest part.
    void everyExportedChartIsWholeAtColumnSizesInEveryFormat() {
        const TrainingAnalysis resnet =
            analyzeTraining(loadPreset("mlperf07-resnet50-tf-4096").scenario);
        const std::shared_ptr<const ScenarioRun> resnetRun =
            runScenario(gradientSyncView(resnet.scenario, resnet.result));
        const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        struct Model {
            QString preset;
            const TrainingAnalysis* analysis;
            const ScenarioRun* run;
        };
        for (const auto& [preset, analysis, run] :
             {Model{"bert", &analysis_, run_.get()}, Model{"resnet50", &resnet, resnetRun.get()}}) {
            for (const ChartKind kind :
                 {ChartKind::Scaling, ChartKind::Breakdown, ChartKind::Batch, ChartKind::Links,
                  ChartKind::Layers, ChartKind::Roofline, ChartKind::Machines}) {
                for (const ExportSize& size :
                     {ExportSize{{1050, 700}, 300}, ExportSize{{2100, 1400}, 300}}) {
                    for (const ExportFormat format :
                         {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf}) {
                        const QString suffix = format == ExportFormat::Png   ? "png"
                                               : format == ExportFormat::Svg ? "svg"
                                                                             : "pdf";
                        const QString what = QString("%1 %2 at %3x%4, %5 DPI, %6")
                                                 .arg(preset, chartKindName(kind))
                                                 .arg(size.pixels.width())
                                                 .arg(size.pixels.height())
                                                 .arg(size.dpi)
                                                 .arg(suffix);
                        QString problem;
                        ChartData data;
                        data.analysis = analysis;
                        data.run = run;
                        const std::unique_ptr<QChartView> view = makeChart(kind, data, &problem);
                        QVERIFY2(view, qPrintable(what + ": " + problem));
                        const QByteArray bytes =
                            renderChart(*view, format, size.pixels, size.dpi, &problem);
                        QVERIFY2(problem.isEmpty() && !bytes.isEmpty(),
                                 qPrintable(what + ": " + problem));
                        // The scene as the file was painted from it.
                        expectReadable(*view, frameOf(*view), what);
                        expectPlotLargest(*view, frameOf(*view), what);
                        expectMarkersWhole(*view, what);
                        // The file's own text: nothing elided on the way.
                        QString written;
                        if (format == ExportFormat::Svg) {
                            QXmlStreamReader xml(bytes);
                            while (!xml.atEnd()) {
                                xml.readNext();
                                if (xml.isCharacters()) {
                                    written += xml.text();
                                }
                            }
                            QVERIFY2(!xml.hasError(), qPrintable(what + ": " + xml.errorString()));
                        } else if (format == ExportFormat::Pdf) {
                            QVERIFY2(bytes.startsWith("%PDF"), qPrintable(what));
                            if (!pdftotext.isEmpty()) {
                                const QString file = dir.filePath("chart.pdf");
                                QFile out(file);
                                QVERIFY(out.open(QIODevice::WriteOnly));
                                out.write(bytes);
                                out.close();
                                QProcess text;
                                text.start(pdftotext, {file, "-"});
                                QVERIFY(text.waitForFinished(30000));
                                written = QString::fromUtf8(text.readAllStandardOutput());
                                QVERIFY2(written.contains(view->chart()
                                                              ->axes()
                                                              .front()
                                                              ->titleText()
                                                              .section("<br>", 0, 0)
                                                              .section(' ', 0, 0)),
                                         qPrintable(what + ": the PDF has no axis title"));
                            }
                        }
                        QVERIFY2(!truncated(written), qPrintable(what + ": a text is elided"));
                    }
                }
            }
        }
    }

    // Issue 23: a roofline labels every decade of both axes, keeps its axis titles and every
    // layer's marker whole, on every preset's model (SSD's lowest layer sat on the plot's
    // bottom edge), at single- and double-column sizes.
    void rooflinesLabelEveryDecadeAndKeepEveryMarkerWhole() {
        for (const char* preset : {"mlperf07-resnet50-tf-4096", "mlperf07-bert-jax-4096",
                                   "mlperf07-gnmt-tf-512", "mlperf07-ssd-tf-4096"}) {
            const TrainingAnalysis analysis = analyzeTraining(loadPreset(preset).scenario);
            for (const ExportSize& size :
                 {ExportSize{{1050, 700}, 300}, ExportSize{{2100, 1400}, 300},
                  ExportSize{{1600, 1000}, 200}}) {
                const QString what = QString("roofline of %1 at %2x%3, %4 DPI")
                                         .arg(preset)
                                         .arg(size.pixels.width())
                                         .arg(size.pixels.height())
                                         .arg(size.dpi);
                RooflineChart chart;
                chart.setAnalysis(analysis);
                const QImage image = render(chart, size.pixels, size.dpi);
                QVERIFY(!image.isNull());
                if (const QString dump = qEnvironmentVariable("PODSCOPE_FIGURE_DUMP");
                    !dump.isEmpty()) {
                    QString file = what;
                    file.replace(QRegularExpression("[^A-Za-z0-9]+"), "-");
                    image.save(QDir(dump).filePath(file + ".png"));
                }
                QVERIFY2(labelsEveryDecade(chart.intensityAxis()),
                         qPrintable(what + ": intensity skips a decade"));
                QVERIFY2(labelsEveryDecade(chart.flopsAxis()),
                         qPrintable(what + ": FLOP/s skips a decade"));
                expectRoundTicks(chart.intensityAxis(), what);
                expectRoundTicks(chart.flopsAxis(), what);
                expectReadable(chart, chart.frame(), what);
                expectPlotLargest(chart, chart.frame(), what);
                expectMarkersWhole(chart, what);
            }
        }
    }

    void svgExportsAreWellFormedXml() {
        for (auto& [name, make] : charts()) {
            auto view = make();
            QString problem;
            const QByteArray svg =
                renderChart(*view, ExportFormat::Svg, {1600, 1000}, 200, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QXmlStreamReader xml(svg);
            int texts = 0;
            while (!xml.atEnd()) {
                xml.readNext();
                texts += xml.isStartElement() && xml.name() == QLatin1String("text");
            }
            QVERIFY2(!xml.hasError(), qPrintable(name + ": " + xml.errorString()));
            QVERIFY2(texts > 10, qPrintable(name)); // text stays text: selectable, searchable
        }
    }

    void ticksAreRoundAndLabelsReadable() {
        ThroughputChart scaling;
        scaling.setAnalysis(analysis_);
        render(scaling, {1600, 1000}, 200);
        expectRoundTicks(scaling.chipsAxis(), "chips");
        expectRoundTicks(scaling.throughputAxis(), "throughput");
        QVERIFY(scaling.chipsAxis().isLog() && scaling.throughputAxis().isLog());
        BatchChart batch;
        batch.setFigure(fixedBatch());
        render(batch, {1600, 1000}, 200);
        expectRoundTicks(batch.batchAxis(), "batch");
        expectRoundTicks(batch.timeAxis(), "time");
        QVERIFY(batch.batchAxis().isLog());
        QVERIFY(!batch.timeAxis().isLog()); // 27 to 79 s: no decade, a linear axis from zero
        QCOMPARE(batch.timeAxis().ticks().ticks.front().value, 0.0);
        for (const Tick& tick : batch.batchAxis().ticks().ticks) {
            // 8k, 16k ... 1M: powers of two with k = 1024.
            QVERIFY2(
                QString::fromStdString(tick.label).contains(QRegularExpression("^[0-9]+[kM]?$")),
                tick.label.c_str());
        }
    }

    void zeroPartsStayOutOfTheLegendAndSmallPartsGetValues() {
        BreakdownChart chart;
        chart.setCurrent(fixedBreakdown(1));
        chart.setBaseline(fixedBreakdown(1.3));
        render(chart, {1600, 1000}, 200);
        QStringList names;
        for (const LegendEntry& entry : chart.frame().legend()->entries()) {
            names << entry.label;
        }
        QCOMPARE(names, QStringList({"compute", "gradient sync (exposed)", "optimizer",
                                     "input stall", "eval (amortized)", "overhead"}));
        QCOMPARE(
            chart.series()->count(),
            static_cast<int>(std::size(kBreakdownParts))); // every part keeps its set and colour
        // Two bars of six parts: the large ones inside, the small ones beside with a leader.
        QCOMPARE(chart.labels().insideCount() + chart.labels().besideCount(), 12);
        QVERIFY(chart.labels().besideCount() >= 6);
        // Baseline left, current right, on one axis.
        QCOMPARE(chart.series()->barSets().front()->at(0), 11.6 * 1.3);
        QCOMPARE(chart.series()->barSets().front()->at(1), 11.6);
    }

    void chartsMatchTheirBaselineImages_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("weak-scaling") << "weak-scaling";
        QTest::newRow("batch") << "batch";
        QTest::newRow("breakdown") << "breakdown";
        QTest::newRow("batch-extrapolated") << "batch-extrapolated";
        QTest::newRow("layers") << "layers";
        QTest::newRow("roofline") << "roofline";
        QTest::newRow("pareto") << "pareto";
        // Issue 23: single-column figures (3.5 in at 300 DPI), and 24 encoder blocks one bar each.
        QTest::newRow("weak-scaling-single") << "weak-scaling-single";
        QTest::newRow("batch-extrapolated-single") << "batch-extrapolated-single";
        QTest::newRow("roofline-single") << "roofline-single";
        QTest::newRow("layers-blocks-single") << "layers-blocks-single";
    }

    void chartsMatchTheirBaselineImages() {
        QFETCH(QString, name);
        const bool single = name.endsWith("-single");
        const QString chart = single ? name.chopped(7) : name;
        std::unique_ptr<QChartView> view;
        if (chart == "layers-blocks") {
            auto c = std::make_unique<LayerTimeChart>();
            c->setFigure(fixedBlocksFigure());
            view = std::move(c);
        } else if (chart == "weak-scaling") {
            auto c = std::make_unique<ThroughputChart>();
            c->setFigure(fixedWeakScaling());
            view = std::move(c);
        } else if (chart == "batch") {
            auto c = std::make_unique<BatchChart>();
            c->setFigure(fixedBatch());
            view = std::move(c);
        } else if (chart == "batch-extrapolated") {
            auto c = std::make_unique<BatchChart>();
            c->setFigure(fixedExtrapolatedBatch());
            view = std::move(c);
        } else if (chart == "layers") {
            auto c = std::make_unique<LayerTimeChart>();
            c->setFigure(fixedLayersFigure());
            view = std::move(c);
        } else if (chart == "pareto") {
            auto c = std::make_unique<ParetoChart>();
            c->setFigure(fixedPareto());
            c->setSelected(102);
            view = std::move(c);
        } else if (chart == "roofline") {
            auto c = std::make_unique<RooflineChart>();
            c->setFigure(fixedRoofline());
            view = std::move(c);
        } else {
            auto c = std::make_unique<BreakdownChart>();
            c->setSubtitle("resnet50 on 4,096 chips, global batch 65,536");
            c->setCurrent(fixedBreakdown(1));
            c->setBaseline(fixedBreakdown(1.3));
            view = std::move(c);
        }
        const QImage actual =
            single ? render(*view, {1050, 700}, 300) : render(*view, {800, 500}, 96);
        QVERIFY(!actual.isNull());
        const QString baseline = baselinePath(name);
        if (qEnvironmentVariableIsSet("PODSCOPE_UPDATE_BASELINES")) {
            QVERIFY(QDir().mkpath(QFileInfo(baseline).absolutePath()));
            QVERIFY(actual.save(baseline, "PNG"));
            QSKIP(qPrintable("wrote " + baseline));
        }
        const QImage expected(baseline);
        QVERIFY2(!expected.isNull(),
                 qPrintable("no baseline " + baseline + " (tests/gui/update-figure-baselines.sh)"));
        // Antialiasing and font rasterising may differ a little between machines: up to 0.5 %
        // of the pixels may differ by more than 64 levels, and the mean by at most 2 levels.
        const Difference d = compare(actual, expected, 64);
        if (d.differingShare > 0.005 || d.meanAbsolute > 2) {
            const QString dir = QDir::temp().filePath("podscope-figure-diffs");
            QDir().mkpath(dir);
            actual.save(dir + "/" + name + "-actual.png");
            if (!d.image.isNull()) {
                d.image.save(dir + "/" + name + "-difference.png");
            }
            QFAIL(qPrintable(QString("%1 differs from %2: %3 % of the pixels, mean %4 levels; "
                                     "see %5")
                                 .arg(name, baseline)
                                 .arg(100 * d.differingShare, 0, 'f', 2)
                                 .arg(d.meanAbsolute, 0, 'f', 2)
                                 .arg(dir)));
        }
    }

    // Issue 12: the shading starts where the convergence fit's measured batches end, and the
    // batches that do not fit in HBM stay on the axis, hatched, instead of vanishing.
    void theBatchChartShadesExtrapolatedBatchesAndMarksThoseRefusedForHbm() {
        const BatchFigure fixed = fixedExtrapolatedBatch();
        BatchChart chart;
        chart.setFigure(fixed);
        render(chart, {1600, 1000}, 200);
        const auto regions = chart.extrapolatedRegions();
        QCOMPARE(regions.size(), std::size_t(2));
        const FigureAxis& x = chart.batchAxis();
        QCOMPARE(regions[0].second, x.toAxis(16384)); // below the measured range, up to its start
        QCOMPARE(regions[1].first, x.toAxis(65536));  // above it, from its end
        const auto hbm = chart.hbmRegion();
        QVERIFY(hbm);
        QCOMPARE(hbm->first, x.toAxis(fixed.refused.front().batch));
        // The refused batches are on the axis (not dropped): it reaches the largest.
        QVERIFY(x.ticks().high >= fixed.refused.back().batch);
        QCOMPARE(chart.timeSeries()->count(), static_cast<int>(fixed.points.size()));
        const std::string text = caption(fixed);
        QVERIFY2(text.find("does not fit in HBM") != std::string::npos, text.c_str());
        QVERIFY2(text.find("needs 21.3 GiB per core, which has 16.0 GiB") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("extrapolated") != std::string::npos, text.c_str());
        QStringList legend;
        for (const LegendEntry& entry : chart.frame().legend()->entries()) {
            legend << entry.label;
        }
        QVERIFY2(legend.contains("extrapolated"), qPrintable(legend.join(", ")));
        QVERIFY2(legend.contains("does not fit in HBM"), qPrintable(legend.join(", ")));
        QVERIFY2(legend.contains("critical batch of the fit"), qPrintable(legend.join(", ")));

        // From the model: BERT on the multipod. The region edges are the workload's measured
        // batches, every point carries the core's flag, and batches past HBM are kept.
        const BatchFigure app = batchFigure(analysis_);
        QVERIFY(app.measuredRange);
        const Workload bert = loadWorkload("bert");
        const Convergence& convergence = bert.convergence;
        QCOMPARE(app.measuredRange->first, convergence.lowestMeasuredBatch());
        QCOMPARE(app.measuredRange->second, convergence.highestMeasuredBatch());
        for (const auto& p : app.points) {
            QCOMPARE(p.extrapolated, outsideMeasuredRange(app, p.batch));
        }
        QVERIFY(!app.refused.empty()); // 64 sequences per core do not fit
        for (const auto& r : app.refused) {
            QVERIFY(r.needsBytes > app.hbmCapacityBytes);
            QVERIFY(r.batch > app.points.back().batch);
        }
        // Time to train rises past the critical batch, as the core computes it: the fastest
        // batch is not the largest that fits.
        QVERIFY(app.fastest);
        QVERIFY(*app.fastest + 1 < app.points.size());
        QVERIFY(app.points.back().timeToTrainS > app.points[*app.fastest].timeToTrainS);
        BatchChart appChart;
        appChart.setAnalysis(analysis_);
        render(appChart, {1600, 1000}, 200);
        QVERIFY(appChart.hbmRegion());
        QCOMPARE(appChart.hbmRegion()->first,
                 appChart.batchAxis().toAxis(app.refused.front().batch));
    }

    // Issue 12: every layer sits under both roofs, as a roofline must.
    void rooflinePointsLieUnderBothRoofs() {
        for (const char* preset : {"mlperf07-resnet50-tf-4096", "mlperf07-bert-jax-4096",
                                   "mlperf07-gnmt-tf-512", "mlperf07-ssd-tf-4096"}) {
            const TrainingAnalysis analysis = analyzeTraining(loadPreset(preset).scenario);
            RooflineChart chart;
            chart.setAnalysis(analysis);
            const RooflineFigure& figure = chart.figure();
            QVERIFY(figure.mxuRoofFlops() < figure.peakFlops);
            int points = 0;
            for (QScatterSeries* series : chart.layerSeries()) {
                for (const QPointF& p : series->points()) {
                    const double intensity = chart.intensityAxis().fromAxis(p.x());
                    const double flops =
                        chart.flopsAxis().fromAxis(p.y()) * RooflineChart::kFlopsPerUnit;
                    QVERIFY2(
                        flops <= figure.mxuRoofFlops() * (1 + 1e-9),
                        qPrintable(
                            QString("%1: %2 FLOP/s over the MXU roof").arg(preset).arg(flops)));
                    QVERIFY2(flops <= figure.hbmBytesPerS * intensity * (1 + 1e-9),
                             qPrintable(QString("%1: %2 FLOP/s at %3 FLOP/byte over the HBM roof")
                                            .arg(preset)
                                            .arg(flops)
                                            .arg(intensity)));
                    ++points;
                }
            }
            const auto placed =
                std::count_if(analysis.layers.begin(), analysis.layers.end(), onRoofline);
            QCOMPARE(points, static_cast<int>(placed));
            QVERIFY(points > 20);
        }
    }

    // Issue 12: the layer bars are the plan's compute time, split; many groups stay readable.
    void layerBarsSumToThePlansComputeTime() {
        for (const char* preset : {"mlperf07-resnet50-tf-4096", "mlperf07-bert-jax-4096"}) {
            const TrainingAnalysis analysis = analyzeTraining(loadPreset(preset).scenario);
            LayerTimeChart chart;
            chart.setAnalysis(analysis);
            double seconds = 0;
            for (QBarSet* set : chart.series()->barSets()) {
                for (int i = 0; i < set->count(); ++i) {
                    seconds += set->at(i) * chart.secondsPerUnit();
                }
            }
            const double compute = analysis.result.breakdown.compute;
            QVERIFY2(
                std::abs(seconds - compute) <= 1e-9 * compute,
                qPrintable(
                    QString("%1: bars %2 s, compute %3 s").arg(preset).arg(seconds).arg(compute)));
            QVERIFY(chart.bars().bars.size() <= kLayerBars);
            std::size_t layers = 0;
            for (const LayerGroup& bar : chart.bars().bars) {
                layers += bar.layers.size();
            }
            QCOMPARE(layers, analysis.layers.size()); // every layer in exactly one bar
        }
        // ResNet's 6 groups in the model's order; BERT's 26 groups too, one bar each.
        LayerTimeChart resnet;
        resnet.setAnalysis(analyzeTraining(loadPreset("mlperf07-resnet50-tf-4096").scenario));
        QVERIFY(!resnet.bars().sortedBySeconds);
        QCOMPARE(resnet.bars().bars.size(), std::size_t(6)); // its stages differ: none merged
        QCOMPARE(resnet.bars().bars.front().name, std::string("stem"));
        LayerTimeChart bertChart;
        bertChart.setAnalysis(analysis_);
        const LayerBars& bars = bertChart.bars();
        QVERIFY(!bars.sortedBySeconds);
        QCOMPARE(bars.bars.front().name, std::string("embeddings"));
        // Issue 23: one bar per encoder layer, not one lumped "layer00-23".
        QCOMPARE(bars.bars.size(), std::size_t(26));
        QCOMPARE(bars.bars[1].name, std::string("layer00"));
        QCOMPARE(bars.bars[24].name, std::string("layer23"));
        QCOMPARE(bars.groupsPerBar, std::vector<std::size_t>(26, 1));
        std::size_t groups = 0;
        for (std::size_t count : bars.groupsPerBar) {
            groups += count;
        }
        QCOMPARE(groups, layerGroups(bertChart.figure()).size());
    }

    // The 3-D view's figure (issue 15, item 3) around a plain grey scene: every other colour
    // comes from the overlays.
    void aViewFigureFramesTheSceneWithCaptionLegendAndColourBar() {
        ViewFigureContent content;
        content.configuration = "resnet50 (tf) · 1,024 chips (tpu-v3-pod) · global batch 65,536";
        content.phase = "reduce-scatter along X, chunk 3 of 4";
        content.time = "t = 500 µs of 1,284 µs";
        content.chips = {"Chip state",
                         false,
                         0,
                         1,
                         "",
                         {{"communicating", {255, 140, 60}}, {"idle", {150, 156, 166}}},
                         ColorMap::Utilization,
                         ""};
        content.links = {"Link utilisation", true, 0, 100, "%", {}, ColorMap::Utilization, ""};
        const QSize size(1600, 1000);
        ViewFigureOptions none;
        QCOMPARE(viewFigureSceneRect(size, content, none), QRect(QPoint(0, 0), size));
        ViewFigureOptions all{true, true, true, true};
        const QRect scene = viewFigureSceneRect(size, content, all);
        QVERIFY(scene.top() > 40 && scene.top() < 200);        // below a caption of two lines
        QVERIFY(scene.right() < 1450 && scene.right() > 1100); // left of the legend column
        QImage grey(scene.size(), QImage::Format_RGB32);
        grey.fill(QColor(128, 128, 128));
        const QImage figure =
            composeViewFigure(grey, size, content, all).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(figure.size(), size);
        QCOMPARE(figure.pixel(scene.center()), qRgb(128, 128, 128));
        QCOMPARE(figure.pixel(2, 2), qRgb(255, 255, 255));
        int captionInk = 0, viridisTop = 0, viridisBottom = 0, swatch = 0;
        for (int y = 0; y < size.height(); ++y) {
            for (int x = 0; x < size.width(); ++x) {
                const QColor c = figure.pixelColor(x, y);
                const bool inScene = scene.contains(x, y);
                captionInk += y < scene.top() && qGray(c.rgb()) < 100;
                viridisTop += !inScene && c.red() > 230 && c.green() > 210 && c.blue() < 80;
                viridisBottom +=
                    !inScene && c.red() > 55 && c.red() < 85 && c.green() < 20 && c.blue() > 70;
                swatch += !inScene && c == QColor(255, 140, 60);
            }
        }
        QVERIFY(captionInk > 500);
        QVERIFY(viridisTop > 50 && viridisBottom > 50); // the colour bar, yellow to purple
        QVERIFY(swatch > 50);                           // the legend's swatch
        // On the dark background, text is light.
        all.lightBackground = false;
        const QImage dark = composeViewFigure(grey, size, content, all);
        QCOMPARE(qGray(dark.pixel(2, 2)) < 60, true);
        // A larger image gets larger text: the caption band grows with it.
        QVERIFY(viewFigureSceneRect({3200, 2000}, content, all).top() > scene.top() * 1.8);
    }

    void theReportDrawsTheAppsFigures() {
        const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
        const auto data = report::computeReport(preset.scenario, preset);
        const auto figures = drawReportFigures(data);
        QStringList names;
        for (const auto& f : figures) {
            names << QString::fromStdString(f.name);
            const QImage image = QImage::fromData(
                QByteArray(f.png.data(), static_cast<qsizetype>(f.png.size())), "PNG");
            QCOMPARE(image.size(), QSize(1600, 1000));
            QVERIFY(QByteArray::fromStdString(f.svg).contains("<svg"));
            QVERIFY(!f.caption.empty());
        }
        QCOMPARE(names, QStringList({"strong-scaling", "weak-scaling", "breakdown", "batch",
                                     "layers", "roofline"}));
        // The report's strong-scaling figure is the app's chart for the same configuration.
        ThroughputChart app;
        app.setAnalysis(analyzeTraining(preset.scenario));
        const QImage fromApp = render(app, {1600, 1000}, 200);
        const QImage fromReport = QImage::fromData(
            QByteArray(figures[0].png.data(), static_cast<qsizetype>(figures[0].png.size())),
            "PNG");
        const Difference d = compare(fromApp, fromReport, 0);
        QCOMPARE(d.differingShare, 0.0);
        // So are its layer and roofline figures.
        const TrainingAnalysis analysis = analyzeTraining(preset.scenario);
        LayerTimeChart layers;
        layers.setAnalysis(analysis);
        RooflineChart roofline;
        roofline.setAnalysis(analysis);
        for (auto [view, index] : {std::pair<QChartView*, int>{&layers, 4}, {&roofline, 5}}) {
            const auto& png = figures[static_cast<std::size_t>(index)].png;
            const QImage drawn =
                QImage::fromData(QByteArray(png.data(), static_cast<qsizetype>(png.size())), "PNG");
            QCOMPARE(compare(render(*view, {1600, 1000}, 200), drawn, 0).differingShare, 0.0);
        }
    }
};

QTEST_MAIN(FigureTest)
#include "FigureTest.moc"
