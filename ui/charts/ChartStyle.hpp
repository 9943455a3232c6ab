#pragma once

#include <QString>

class QChart;
class QChartView;
class QXYSeries;

namespace podscope::ui {

// Common look for PodScope's charts: legend at the bottom, antialiasing, readable fonts.
void styleChart(QChart* chart, const QString& title);

// Shows "x, y" with units in a tooltip while the pointer is over a point of the series.
void showValuesOnHover(QXYSeries* series, QChartView* view, const QString& xUnit, const QString& yUnit);

} // namespace podscope::ui
