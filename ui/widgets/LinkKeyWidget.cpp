#include "widgets/LinkKeyWidget.hpp"

#include <QPainter>
#include <QPainterPath>

namespace podscope::ui {
namespace {

constexpr int kRow = 20;
constexpr int kSampleWidth = 28;

// The stroke as the view draws it, at legend scale: solid, dashes as long as their gaps, short
// dots with long gaps, or a curve.
void drawSample(QPainter& painter, LinkStroke stroke, const QRect& box) {
    QPen pen(painter.pen().color(), 2);
    pen.setCapStyle(Qt::FlatCap);
    const int y = box.center().y();
    QPainterPath path(QPointF(box.left(), y));
    switch (stroke) {
    case LinkStroke::Solid: break;
    case LinkStroke::Dashed: pen.setDashPattern({3, 3}); break;
    case LinkStroke::Dotted: pen.setDashPattern({1, 3}); break;
    case LinkStroke::Curve:
        path = QPainterPath(QPointF(box.left(), box.bottom() - 2));
        path.quadTo(QPointF(box.center().x(), box.top() - 4), QPointF(box.right(), box.bottom() - 2));
        break;
    }
    if (stroke != LinkStroke::Curve) {
        path.lineTo(box.right(), y);
    }
    painter.setPen(pen);
    painter.drawPath(path);
}

} // namespace

LinkKeyWidget::LinkKeyWidget(QWidget* parent)
    : QWidget(parent) {
    setMinimumWidth(180);
    setVisible(false);
}

void LinkKeyWidget::setKey(std::vector<LinkKeyEntry> key) {
    if (key == key_) {
        return;
    }
    key_ = std::move(key);
    // One kind of link needs no key: the link legend above says what they are.
    setVisible(key_.size() > 1);
    updateGeometry();
    update();
}

QSize LinkKeyWidget::sizeHint() const {
    return {200, 8 + static_cast<int>(key_.size() + 1) * kRow};
}

void LinkKeyWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::WindowText);
    painter.setPen(text);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.drawText(QRect(4, 2, width() - 8, kRow - 2), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Links drawn"));
    painter.setFont(font());
    int y = kRow + 4;
    for (const LinkKeyEntry& entry : key_) {
        painter.setPen(text);
        drawSample(painter, entry.stroke, QRect(6, y + 3, kSampleWidth, kRow - 6));
        painter.setPen(text);
        painter.drawText(QRect(kSampleWidth + 12, y, width() - kSampleWidth - 16, kRow),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(entry.label));
        y += kRow;
    }
}

} // namespace podscope::ui
