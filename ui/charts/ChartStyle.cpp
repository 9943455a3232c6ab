#include "charts/ChartStyle.hpp"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QToolTip>
#include <QXYSeries>

namespace podscope::ui {

void styleChart(QChart* chart, const QString& title) {
    chart->setTitle(title);
    QFont font = chart->titleFont();
    font.setBold(true);
    chart->setTitleFont(font);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setAnimationOptions(QChart::NoAnimation); // charts follow every control change
}

void showValuesOnHover(QXYSeries* series, QChartView* view, const QString& xUnit, const QString& yUnit) {
    QObject::connect(series, &QXYSeries::hovered, view, [series, xUnit, yUnit](const QPointF& point, bool entered) {
        if (!entered) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), QString("%1\n%2 %3\n%4 %5")
                                               .arg(series->name())
                                               .arg(point.x(), 0, 'g', 6)
                                               .arg(xUnit)
                                               .arg(point.y(), 0, 'g', 4)
                                               .arg(yUnit));
    });
}

} // namespace podscope::ui
