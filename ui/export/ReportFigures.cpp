#include "export/ReportFigures.hpp"

#include "charts/BatchChart.hpp"
#include "charts/BreakdownChart.hpp"
#include "charts/LayerTimeChart.hpp"
#include "charts/RooflineChart.hpp"
#include "charts/ThroughputChart.hpp"
#include "export/ChartExport.hpp"
#include "export/OffscreenApplication.hpp"
#include "figure/FigureData.hpp"

#include <QByteArray>
#include <stdexcept>

namespace podscope::ui {
namespace {

constexpr QSize kPixels(1600, 1000);
constexpr int kDpi = 200;

report::ReportFigure render(QChartView& chart, const std::string& name, const std::string& title,
                            const std::string& caption) {
    QString problem;
    const QByteArray svg = renderChart(chart, ExportFormat::Svg, kPixels, kDpi, &problem);
    const QByteArray png = renderChart(chart, ExportFormat::Png, kPixels, kDpi, &problem);
    if (!problem.isEmpty()) {
        throw std::runtime_error("cannot draw the " + name + " chart: " + problem.toStdString());
    }
    return {name, title, caption, svg.toStdString(),
            std::string(png.constData(), static_cast<std::size_t>(png.size()))};
}

} // namespace

std::vector<report::ReportFigure> drawReportFigures(const report::ReportData& data) {
    const OffscreenApplication application;
    std::vector<report::ReportFigure> figures;
    const ScalingFigure strong = strongScalingFigure(data);
    const ScalingFigure weak = weakScalingFigure(data);
    const BatchFigure batch = batchFigure(data);
    {
        ThroughputChart chart;
        chart.setFigure(strong);
        figures.push_back(render(chart, "strong-scaling", title(strong), caption(strong)));
    }
    {
        ThroughputChart chart;
        chart.setFigure(weak);
        figures.push_back(render(chart, "weak-scaling", title(weak), caption(weak)));
    }
    {
        BreakdownChart chart;
        chart.setCurrent(data.result.breakdown);
        chart.setSubtitle(
            QString("%1 on %2 chips, global batch %3")
                .arg(QString::fromStdString(data.scenario.workload),
                     QString::fromStdString(groupDigits(double(data.result.chips))),
                     QString::fromStdString(groupDigits(double(data.scenario.globalBatch)))));
        figures.push_back(render(chart, "breakdown", "Step time breakdown",
                                 breakdownCaption(data.scenario.workload, data.result.chips,
                                                  data.scenario.globalBatch)));
    }
    {
        BatchChart chart;
        chart.setFigure(batch);
        figures.push_back(render(chart, "batch", title(batch), caption(batch)));
    }
    {
        const LayersFigure layers = layersFigure(data);
        LayerTimeChart chart;
        chart.setFigure(layers);
        figures.push_back(render(chart, "layers", title(layers), caption(layers)));
    }
    {
        const RooflineFigure roofline = rooflineFigure(data);
        RooflineChart chart;
        chart.setFigure(roofline);
        figures.push_back(render(chart, "roofline", title(roofline), caption(roofline)));
    }
    return figures;
}

} // namespace podscope::ui
