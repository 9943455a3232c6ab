#include "widgets/LinkKeyWidget.hpp"

#include "charts/LinkStrokeSample.hpp"

#include <QPainter>

#include <algorithm>

namespace podscope::ui {
namespace {

constexpr int kRow = 20;
constexpr int kSampleWidth = 28;
constexpr int kMargin = 6;
constexpr int kSpacing = 14; // between entries of a row
constexpr int kGap = 6;      // between a sample and its label

} // namespace

LinkKeyWidget::LinkKeyWidget(QWidget* parent)
    : QWidget(parent) {
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setToolTip(tr("Links drawn: the kind of each link by its stroke; colour says its use"));
    setVisible(false);
}

void LinkKeyWidget::setKey(std::vector<LinkKeyEntry> key) {
    if (key == key_) {
        return;
    }
    key_ = std::move(key);
    setVisible(keyIsWorthShowing(key_));
    updateGeometry();
    update();
}

std::vector<QRect> LinkKeyWidget::entryRects(int width) const {
    std::vector<QRect> rects;
    const int room = std::max(width - 2 * kMargin, kSampleWidth + 40);
    const int textRoom = room - kSampleWidth - kGap;
    int x = kMargin;
    int y = 2;
    int rowHeight = kRow;
    for (const LinkKeyEntry& entry : key_) {
        const QString label = QString::fromStdString(entry.label);
        int w = kSampleWidth + kGap + fontMetrics().horizontalAdvance(label) + 2; // + rounding
        int h = kRow;
        if (w > room) {
            // Wider than the column: on a row of its own, the label wrapped.
            w = room;
            h = std::max(kRow, fontMetrics()
                                       .boundingRect(QRect(0, 0, textRoom, 1000),
                                                     Qt::TextWordWrap, label)
                                       .height() +
                                   4);
        }
        if (x > kMargin && x + w > kMargin + room) {
            x = kMargin;
            y += rowHeight;
            rowHeight = kRow;
        }
        rects.emplace_back(x, y, w, h);
        rowHeight = std::max(rowHeight, h);
        x += w + kSpacing;
        if (w == room) {
            x = kMargin + room; // nothing joins a wrapped entry's row
        }
    }
    return rects;
}

int LinkKeyWidget::heightForWidth(int width) const {
    int bottom = 0;
    for (const QRect& r : entryRects(width)) {
        bottom = std::max(bottom, r.bottom() + 3);
    }
    return bottom;
}

QSize LinkKeyWidget::sizeHint() const {
    const int width = std::max(this->width(), 200);
    return {200, heightForWidth(width)};
}

QSize LinkKeyWidget::minimumSizeHint() const {
    return sizeHint();
}

void LinkKeyWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::WindowText);
    const auto rects = entryRects(width());
    for (std::size_t i = 0; i < key_.size(); ++i) {
        const QRect& r = rects[i];
        drawLinkStroke(painter, key_[i].stroke,
                       QRectF(r.left(), r.top() + 6, kSampleWidth, kRow - 12), text, 2);
        painter.setPen(text);
        painter.drawText(QRect(r.left() + kSampleWidth + kGap, r.top() + 2,
                               r.width() - kSampleWidth - kGap, r.height() - 2),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                         QString::fromStdString(key_[i].label));
    }
}

} // namespace podscope::ui
