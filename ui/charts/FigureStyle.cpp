#include "charts/FigureStyle.hpp"

#include "charts/FigureAxis.hpp"
#include "common/NumberFormat.hpp"
#include "figure/FigureData.hpp"
#include "figure/Palette.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QLegend>
#include <QToolTip>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <limits>

namespace podscope::ui {

namespace {

// The size at which a figure's text stops shrinking (logical pixels, 96 per inch).
constexpr double kFullSizeWidth = 640;
constexpr double kFullSizeHeight = 400;

} // namespace

QFont figureFont(FigureFont role, double scale) {
    // Pixel sizes, not points: the figure then has the same proportions whatever DPI the
    // platform reports (an X server, the offscreen platform, a printer).
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setStyleHint(QFont::SansSerif);
    auto pixels = [scale](int full) {
        return std::max(1, static_cast<int>(std::lround(full * scale)));
    };
    switch (role) {
    case FigureFont::Title:
        font.setPixelSize(pixels(15));
        font.setBold(true);
        break;
    case FigureFont::Subtitle:
    case FigureFont::AxisTitle:
    case FigureFont::TickLabel:
    case FigureFont::Legend:
        font.setPixelSize(pixels(12));
        break;
    case FigureFont::ValueLabel:
        font.setPixelSize(pixels(11));
        break;
    }
    return font;
}

double figureTextScale(QSizeF logical) {
    const double fraction =
        std::min(logical.width() / kFullSizeWidth, logical.height() / kFullSizeHeight);
    return std::clamp(fraction, kSmallestTextScale, 1.0);
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
    // The layout's own margins (the style's, about 10 px a side) would come on top of those:
    // at a single-column size they take a tenth of the height.
    if (chart->layout()) {
        chart->layout()->setContentsMargins(0, 0, 0, 0);
    }
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

QString threeDigits(double value) {
    if (value > 0 && value < 0.01) {
        return QStringLiteral("<0.01");
    }
    return QString::fromStdString(value >= 100 ? groupedDecimals(value, 0)
                                               : significantDigits(value, 3));
}

QString readableNumber(double value) {
    if (std::abs(value) >= 1000) {
        return QString::fromStdString(groupDigits(value));
    }
    return QString::number(value, 'g', 3);
}

QString valuesAtNearestPoint(const QXYSeries& series, const QPointF& hovered, const FigureAxis& x,
                             const QString& xUnit, const FigureAxis& y, const QString& yUnit) {
    const QList<QPointF> points = series.points();
    if (points.isEmpty()) {
        return series.name();
    }
    // Distance on screen where the series is in a chart (axes may be log and unequal).
    auto onScreen = [&series](const QPointF& p) {
        QChart* chart = series.chart();
        return chart ? chart->mapToPosition(p, const_cast<QXYSeries*>(&series)) : p;
    };
    const QPointF at = onScreen(hovered);
    QPointF nearest = points.front();
    double best = std::numeric_limits<double>::infinity();
    for (const QPointF& p : points) {
        const QPointF d = onScreen(p) - at;
        const double distance = QPointF::dotProduct(d, d);
        if (distance < best) {
            best = distance;
            nearest = p;
        }
    }
    return QString("%1\n%2 %3\n%4 %5")
        .arg(series.name(), readableNumber(x.fromAxis(nearest.x())), xUnit,
             readableNumber(y.fromAxis(nearest.y())), yUnit);
}

void showValuesOnHover(QXYSeries* series, QChartView* view, const FigureAxis& x,
                       const QString& xUnit, const FigureAxis& y, const QString& yUnit) {
    QObject::connect(series, &QXYSeries::hovered, view,
                     [series, &x, &y, xUnit, yUnit](const QPointF& point, bool entered) {
                         if (!entered) {
                             QToolTip::hideText();
                             return;
                         }
                         QToolTip::showText(QCursor::pos(), valuesAtNearestPoint(*series, point, x,
                                                                                 xUnit, y, yUnit));
                     });
}

} // namespace podscope::ui
