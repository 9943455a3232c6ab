#pragma once

#include "scene/LinkKey.hpp"

#include <QColor>
#include <QRectF>

class QPainter;

namespace podscope::ui {

// A sample of a link kind's stroke for a key (the app's legend and exported figures): solid,
// dashes as long as their gaps, short dots with long gaps, or a curve, across `box`.
void drawLinkStroke(QPainter& painter, LinkStroke stroke, const QRectF& box, const QColor& ink,
                    double width);

} // namespace podscope::ui
