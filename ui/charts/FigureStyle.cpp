#include "charts/FigureStyle.hpp"

#include "charts/FigureAxis.hpp"
#include "figure/Palette.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QToolTip>
#include <QXYSeries>

namespace podscope::ui {

QFont figureFont(FigureFont role) {
    // Pixel sizes, not points: the figure then has the same proportions whatever DPI the
    // platform reports (an X server, the offscreen platform, a printer).
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setStyleHint(QFont::SansSerif);
    switch (role) {
    case FigureFont::Title:
        font.setPixelSize(15);
        font.setBold(true);
        break;
    case FigureFont::Subtitle:
    case FigureFont::AxisTitle:
    case FigureFont::TickLabel:
    case FigureFont::Legend:
        font.setPixelSize(12);
        break;
    case FigureFont::ValueLabel:
        font.setPixelSize(11);
        break;
    }
    return font;
}

QColor toColor(Rgb rgb) {
    return QColor(rgb.r, rgb.g, rgb.b);
}

QPen figurePen(Rgb rgb, qreal width, Qt::PenStyle style) {
    QPen pen(toColor(rgb));
    pen.setWidthF(width);
    pen.setStyle(style);
    pen.setCapStyle(Qt::RoundCap);
    pen.setJoinStyle(Qt::RoundJoin);
    return pen;
}

void styleChart(QChart* chart) {
    chart->setTheme(QChart::ChartThemeLight);
    chart->setBackgroundBrush(Qt::white);
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    chart->setTitleFont(figureFont(FigureFont::Title));
    chart->setTitleBrush(toColor(palette::kText));
    chart->legend()->setVisible(false);
    chart->setMargins(QMargins(8, 6, 12, 6));
    chart->setAnimationOptions(QChart::NoAnimation); // charts follow every control change
}

void styleChartView(QChartView* view) {
    view->setRenderHint(QPainter::Antialiasing);
}

void styleAxis(QAbstractAxis* axis) {
    axis->setLabelsFont(figureFont(FigureFont::TickLabel));
    axis->setLabelsColor(toColor(palette::kText));
    axis->setTitleFont(figureFont(FigureFont::AxisTitle));
    axis->setTitleBrush(toColor(palette::kText));
    axis->setLinePen(figurePen(palette::kGrey, 1));
    axis->setGridLinePen(figurePen(palette::kLightGrey, 1));
    axis->setShadesVisible(false);
}

void showValuesOnHover(QXYSeries* series, QChartView* view, const FigureAxis& x,
                       const QString& xUnit, const FigureAxis& y, const QString& yUnit) {
    QObject::connect(series, &QXYSeries::hovered, view,
                     [series, &x, &y, xUnit, yUnit](const QPointF& point, bool entered) {
                         if (!entered) {
                             QToolTip::hideText();
                             return;
                         }
                         QToolTip::showText(QCursor::pos(),
                                            QString("%1\n%2 %3\n%4 %5")
                                                .arg(series->name())
                                                .arg(x.fromAxis(point.x()), 0, 'g', 6)
                                                .arg(xUnit)
                                                .arg(y.fromAxis(point.y()), 0, 'g', 4)
                                                .arg(yUnit));
                     });
}

} // namespace podscope::ui
