#include "widgets/LegendWidget.hpp"

#include <QLinearGradient>
#include <QPainter>

namespace podscope::ui {

LegendWidget::LegendWidget(QWidget* parent)
    : QWidget(parent) {
    setMinimumWidth(180);
}

void LegendWidget::setLegend(const Legend& legend) {
    legend_ = legend;
    updateGeometry();
    update();
}

QSize LegendWidget::sizeHint() const {
    const int rows = (legend_.continuous ? 3 : static_cast<int>(legend_.categories.size()) + 1) +
                     (legend_.note.empty() ? 0 : 2);
    return {200, 12 + rows * 20};
}

void LegendWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::WindowText);
    painter.setPen(text);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    QString title = QString::fromStdString(legend_.title);
    if (legend_.continuous && !legend_.unit.empty()) {
        title += " (" + QString::fromStdString(legend_.unit) + ")";
    }
    painter.drawText(QRect(4, 2, width() - 8, 18), Qt::AlignLeft | Qt::AlignVCenter, title);
    painter.setFont(font());
    if (legend_.continuous) {
        const QRect bar(14, 24, width() - 34, 14);
        QLinearGradient gradient(bar.topLeft(), bar.topRight());
        for (int i = 0; i <= 10; ++i) {
            const Rgb c = colorMapAt(legend_.map, static_cast<float>(i) / 10.0f);
            gradient.setColorAt(i / 10.0, QColor(c.r, c.g, c.b));
        }
        painter.fillRect(bar, gradient);
        painter.drawRect(bar);
        for (int i = 0; i <= 4; ++i) {
            const int x = bar.left() + bar.width() * i / 4;
            const double value = legend_.minimum + (legend_.maximum - legend_.minimum) * i / 4.0;
            painter.drawLine(x, bar.bottom(), x, bar.bottom() + 4);
            const QRect label(x - 20, bar.bottom() + 4, 40, 16);
            painter.drawText(label, Qt::AlignCenter, QString::number(value, 'f', 0));
        }
        drawNote(painter, bar.bottom() + 22);
        return;
    }
    int y = 24;
    for (const auto& [name, color] : legend_.categories) {
        painter.fillRect(QRect(6, y + 2, 14, 14), QColor(color.r, color.g, color.b));
        painter.drawRect(QRect(6, y + 2, 14, 14));
        painter.drawText(QRect(26, y, width() - 30, 18), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(name));
        y += 20;
    }
    drawNote(painter, y);
}

void LegendWidget::drawNote(QPainter& painter, int top) {
    if (!legend_.note.empty()) {
        painter.drawText(QRect(6, top, width() - 10, 38),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                         QString::fromStdString(legend_.note));
    }
}

} // namespace podscope::ui
