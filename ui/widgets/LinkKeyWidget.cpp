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
    // One kind of link needs no key: the link legend above says what they are.
    setVisible(key_.size() > 1);
    updateGeometry();
    update();
}

std::vector<QRect> LinkKeyWidget::entryRects(int width) const {
    std::vector<QRect> rects;
    int x = kMargin;
    int y = 2;
    for (const LinkKeyEntry& entry : key_) {
        const int w = kSampleWidth + 6 +
                      fontMetrics().horizontalAdvance(QString::fromStdString(entry.label));
        if (x > kMargin && x + w > width - kMargin) {
            x = kMargin;
            y += kRow;
        }
        rects.emplace_back(x, y, w, kRow);
        x += w + kSpacing;
    }
    return rects;
}

int LinkKeyWidget::heightForWidth(int width) const {
    const auto rects = entryRects(width);
    return rects.empty() ? 0 : rects.back().bottom() + 3;
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
        painter.drawText(QRect(r.left() + kSampleWidth + 6, r.top(), r.width() - kSampleWidth - 6,
                               kRow),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(key_[i].label));
    }
}

} // namespace podscope::ui
