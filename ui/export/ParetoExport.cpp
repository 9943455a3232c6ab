#include "export/ParetoExport.hpp"

#include "charts/ParetoChart.hpp"
#include "export/ChartExport.hpp"
#include "export/OffscreenApplication.hpp"

namespace podscope::ui {

std::string writeParetoChart(const ParetoFigure& figure, const std::string& path) {
    const OffscreenApplication application;
    ParetoChart chart;
    chart.setFigure(figure);
    return exportChartView(chart, QString::fromStdString(path), {1600, 1000}, 200).toStdString();
}

} // namespace podscope::ui
