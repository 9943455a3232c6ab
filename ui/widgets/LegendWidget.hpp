#pragma once

#include "color/ColorScale.hpp"

#include <QWidget>

class QPainter;

namespace podscope::ui {

// A colour legend with its unit: a gradient with ticks for a continuous scale, or swatches.
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    void setLegend(const Legend& legend);
    const Legend& legend() const { return legend_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void drawNote(QPainter& painter, int top);

    Legend legend_;
};

} // namespace podscope::ui
