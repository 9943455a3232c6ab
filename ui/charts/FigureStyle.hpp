#pragma once

#include "color/ColorScale.hpp"

#include <QColor>
#include <QFont>
#include <QPen>
#include <QSizeF>
#include <QString>
#include <functional>

class QAbstractAxis;
class QChart;
class QChartView;
class QXYSeries;

namespace podscope::ui {

class FigureAxis;

// The look shared by every figure, on screen and in every export: one font family at fixed
// sizes (so that a chart looks the same in the app, under the offscreen platform and in the
// report), white background, light grid, the palette of figure/Palette.hpp.
enum class FigureFont { Title, Subtitle, AxisTitle, TickLabel, Legend, ValueLabel };
// `scale` shrinks the text of a small figure (figureTextScale): at 1 the sizes of a full-size
// figure (12 px ticks = 9 pt on a 96 DPI layout, the export's logical DPI).
QFont figureFont(FigureFont role, double scale = 1);
// How much a figure of this logical size (96 per inch, as the export lays it out) shrinks its
// text: 1 from about 6.7 x 4.2 in up (a double-column figure and larger, the 800x500 window),
// down to kSmallestTextScale at a single-column 3.5 in figure or a short chart dock, where 9 pt
// ticks, an 11 pt title and a legend below would leave the plot a thin strip.
double figureTextScale(QSizeF logical);
inline constexpr double kSmallestTextScale = 0.8;
QColor toColor(Rgb rgb);
// A series' pen: solid or dashed, in points at the figure's scale.
QPen figurePen(Rgb rgb, qreal width, Qt::PenStyle style = Qt::SolidLine);

// Background, margins, no animation, no Qt legend (FigureFrame draws one that never truncates).
void styleChart(QChart* chart);
// A chart's view: antialiased.
void styleChartView(QChartView* view);

// Fonts, colours and grid of an axis.
void styleAxis(QAbstractAxis* axis);

// The series' name and the values of its data point nearest to `hovered` (on screen), through
// the axes' scales, as people write them: "1,024 chips", "68,260 examples/s". Qt reports the
// pointer's place on the line, between points; the tooltip names the point itself.
QString valuesAtNearestPoint(const QXYSeries& series, const QPointF& hovered, const FigureAxis& x,
                             const QString& xUnit, const FigureAxis& y, const QString& yUnit);
// A number as people write it: digits grouped from 1,000 up, else three significant digits.
QString readableNumber(double value);
// A value on a bar or in a tooltip: whole from 100 up (grouped from 10,000), else three
// significant digits; "<0.01" for a positive value below that.
QString threeDigits(double value);

// Shows valuesAtNearestPoint in a tooltip while the pointer is over the series.
void showValuesOnHover(QXYSeries* series, QChartView* view, const FigureAxis& x,
                       const QString& xUnit, const FigureAxis& y, const QString& yUnit);

} // namespace podscope::ui
