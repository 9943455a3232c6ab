#include "charts/LinkStrokeSample.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QPen>

namespace podscope::ui {

void drawLinkStroke(QPainter& painter, LinkStroke stroke, const QRectF& box, const QColor& ink,
                    double width) {
    painter.save();
    QPen pen(ink, width);
    pen.setCapStyle(Qt::FlatCap);
    const double y = box.center().y();
    QPainterPath path(QPointF(box.left(), y));
    switch (stroke) {
    case LinkStroke::Solid: path.lineTo(box.right(), y); break;
    case LinkStroke::Dashed:
        pen.setDashPattern({1.5, 1.5}); // in pen widths
        path.lineTo(box.right(), y);
        break;
    case LinkStroke::Dotted:
        pen.setDashPattern({0.5, 1.5});
        path.lineTo(box.right(), y);
        break;
    case LinkStroke::Curve:
        path = QPainterPath(QPointF(box.left(), box.bottom()));
        path.quadTo(QPointF(box.center().x(), box.top() - box.height() / 2),
                    QPointF(box.right(), box.bottom()));
        break;
    }
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    painter.restore();
}

} // namespace podscope::ui
