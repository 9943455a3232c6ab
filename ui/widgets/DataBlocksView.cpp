#include "widgets/DataBlocksView.hpp"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <bit>
#include <utility>

namespace podscope::ui {
namespace {

// Okabe and Ito's colour-blind-safe palette, then Kelly's colours of maximum contrast: 16
// hues that stay apart when they sit side by side as thin stripes.
constexpr std::array<QRgb, 16> kMemberColors = {
    0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7, 0x6E3CC8,
    0xBE0032, 0x8DB600, 0x882D17, 0xA1CAF1, 0x2B3D26, 0xF99379, 0x848482, 0xC2B280,
};

const QColor kEmptyFill(236, 236, 236);
const QColor kEmptyBorder(170, 170, 170);
const QColor kArrivedOutline(25, 25, 25);
const QColor kDimText(110, 110, 110);

// A legend entry: a mark and its text, laid out left to right and wrapped like words.
struct LegendItem {
    enum class Mark { None, Swatch, Arrived, Empty, Clockwise, CounterClockwise, Count, FullSum };
    Mark mark = Mark::None;
    QString text;
    QColor color;
    bool newLine = false;
    QString tag; // Count and FullSum: the number in the tag
};

// A small triangle pointing right (clockwise: data flows to the next chip) or left.
void drawDirection(QPainter& painter, QRectF box, bool clockwise, const QColor& color) {
    const double h = std::min(box.height(), box.width()) * 0.8;
    const QPointF c = box.center();
    QPainterPath path;
    const double dx = clockwise ? h / 2 : -h / 2;
    path.moveTo(c.x() + dx, c.y());
    path.lineTo(c.x() - dx, c.y() - h / 2);
    path.lineTo(c.x() - dx, c.y() + h / 2);
    path.closeSubpath();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillPath(path, color);
    painter.restore();
}

// The number of chips summed in a block, on a rounded tag: dark for the full sum.
void drawCountTag(QPainter& painter, QRectF tag, const QString& text, bool full,
                  const QFont& font) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    // A thin border keeps a white tag visible on a white background (the legend).
    painter.setPen(full ? QPen(Qt::NoPen) : QPen(kEmptyBorder, 1));
    painter.setBrush(full ? kArrivedOutline : QColor(255, 255, 255, 225));
    painter.drawRoundedRect(tag, tag.height() / 3.0, tag.height() / 3.0);
    painter.setFont(font);
    painter.setPen(full ? QColor(Qt::white) : kArrivedOutline);
    painter.drawText(tag, Qt::AlignCenter, text);
    painter.restore();
}

QFont countTagFont(QSize block, const QFont& labelFont) {
    QFont font = labelFont;
    // A line of text is about 1.2 pixel sizes tall: keep the tag inside the block.
    font.setPixelSize(
        std::max(1, std::min(labelFont.pixelSize() - 1, (block.height() - 4) * 4 / 5)));
    return font;
}

// Whether a count tag leaves stripes visible above, below and beside it.
bool countTagFits(QSize block, const QFont& labelFont, const QString& text) {
    const QFont font = countTagFont(block, labelFont);
    const QFontMetrics metrics(font);
    return font.pixelSize() >= 8 && metrics.height() <= block.height() - 4 &&
           metrics.horizontalAdvance(text) + metrics.height() / 2 <= block.width() - 6;
}

// A block: one stripe per contributor, in member order, so that the same set always looks the
// same and a growing sum visibly gains stripes; where it fits, the count in a tag (dark for
// the full sum over the group) on blocks that hold a sum. An empty block is a dotted outline.
void paintBlock(QPainter& painter, QRect box, const BlockState& block, int groupSize,
                const QFont& labelFont, bool showCount) {
    const int count = std::popcount(block.contributors);
    if (count == 0) {
        painter.fillRect(box, kEmptyFill);
        painter.setPen(QPen(kEmptyBorder, 1, Qt::DotLine));
        painter.drawRect(box.adjusted(0, 0, -1, -1));
        return;
    }
    int stripe = 0;
    for (int m = 0; m < 64; ++m) {
        if (((block.contributors >> m) & 1U) == 0) {
            continue;
        }
        const int xa = box.left() + box.width() * stripe / count;
        const int xb = box.left() + box.width() * (stripe + 1) / count;
        painter.fillRect(QRect(xa, box.top(), std::max(1, xb - xa), box.height()),
                         DataBlocksView::memberColor(m));
        ++stripe;
    }
    const QString text = QString::number(count);
    // A single colour needs no count: the chip's own data, nothing summed yet.
    if (!showCount || count < 2 || !countTagFits(box.size(), labelFont, text)) {
        return;
    }
    const QFont tagFont = countTagFont(box.size(), labelFont);
    const QFontMetrics metrics(tagFont);
    const int tagHeight = metrics.height();
    const int tagWidth = metrics.horizontalAdvance(text) + tagHeight / 2;
    const QRectF tag(box.center().x() - tagWidth / 2.0 + 0.5,
                     box.center().y() - tagHeight / 2.0 + 0.5, tagWidth, tagHeight);
    drawCountTag(painter, tag, text, count == groupSize, tagFont);
}

// Lays the items out in `area`, painting them when a painter is given; returns the height used.
int flowLegend(QPainter* painter, const QFont& font, QRect area,
               const std::vector<LegendItem>& items) {
    const QFontMetrics metrics(font);
    const int line = metrics.height() + 2;
    const int mark = metrics.ascent();
    const int gap = metrics.horizontalAdvance(QStringLiteral("  "));
    int x = area.left();
    int y = area.top();
    for (const auto& item : items) {
        const bool tagged =
            item.mark == LegendItem::Mark::Count || item.mark == LegendItem::Mark::FullSum;
        const int markSize =
            tagged ? metrics.horizontalAdvance(item.tag) + metrics.height() / 2 : mark;
        const int markWidth =
            item.mark == LegendItem::Mark::None ? 0 : markSize + metrics.horizontalAdvance(' ');
        const int width = markWidth + metrics.horizontalAdvance(item.text);
        if (x > area.left() && (item.newLine || x + width > area.right())) {
            x = area.left();
            y += line;
        }
        if (painter) {
            const QRect box(x, y + (line - mark) / 2, mark, mark);
            switch (item.mark) {
            case LegendItem::Mark::None:
                break;
            case LegendItem::Mark::Swatch:
                painter->fillRect(box, item.color);
                break;
            case LegendItem::Mark::Arrived:
                painter->setPen(QPen(kArrivedOutline, 2));
                painter->drawRect(box.adjusted(1, 1, -1, -1));
                break;
            case LegendItem::Mark::Empty:
                painter->fillRect(box, kEmptyFill);
                painter->setPen(QPen(kEmptyBorder, 1, Qt::DotLine));
                painter->drawRect(box.adjusted(0, 0, -1, -1));
                break;
            case LegendItem::Mark::Clockwise:
            case LegendItem::Mark::CounterClockwise:
                drawDirection(*painter, box, item.mark == LegendItem::Mark::Clockwise, kDimText);
                break;
            case LegendItem::Mark::Count:
            case LegendItem::Mark::FullSum:
                drawCountTag(*painter, QRectF(x, y + 1, markSize, line - 2), item.tag,
                             item.mark == LegendItem::Mark::FullSum, font);
                break;
            }
            painter->setPen(kDimText);
            painter->drawText(QRect(x + markWidth, y, width - markWidth + 1, line),
                              Qt::AlignLeft | Qt::AlignVCenter, item.text);
        }
        x += width + gap;
    }
    return y + line - area.top();
}

std::vector<LegendItem> legendItems(const BlockTimeline& timeline, bool showCounts) {
    std::vector<LegendItem> items;
    items.push_back({LegendItem::Mark::None,
                     QStringLiteral("colour = whose data is summed in the block:"),
                     {},
                     false,
                     {}});
    for (std::size_t m = 0; m < timeline.chips.size(); ++m) {
        items.push_back({LegendItem::Mark::Swatch,
                         QString::number(timeline.chips[m]),
                         DataBlocksView::memberColor(static_cast<int>(m)),
                         false,
                         {}});
    }
    items.push_back({LegendItem::Mark::Arrived, QStringLiteral("just arrived"), {}, true, {}});
    const int group = timeline.shards;
    const bool anySum =
        std::any_of(timeline.frames.begin(), timeline.frames.end(), [](const BlockFrame& frame) {
            return std::any_of(frame.chips.begin(), frame.chips.end(), [](const auto& row) {
                return std::any_of(row.begin(), row.end(), [](const BlockState& b) {
                    return std::popcount(b.contributors) > 1;
                });
            });
        });
    if (showCounts && anySum) {
        items.push_back({LegendItem::Mark::Count,
                         QStringLiteral("chips summed"),
                         {},
                         false,
                         QString::number(std::max(1, group / 2))});
        items.push_back({LegendItem::Mark::FullSum,
                         QStringLiteral("all of them"),
                         {},
                         false,
                         QString::number(group)});
    }
    const bool anyEmpty =
        std::any_of(timeline.frames.begin(), timeline.frames.end(), [](const BlockFrame& frame) {
            return std::any_of(frame.chips.begin(), frame.chips.end(), [](const auto& row) {
                return std::any_of(row.begin(), row.end(),
                                   [](const BlockState& b) { return b.contributors == 0; });
            });
        });
    if (anyEmpty) {
        items.push_back(
            {LegendItem::Mark::Empty, QStringLiteral("not received yet"), {}, false, {}});
    }
    if (timeline.orders.size() == 2) {
        // 2d-dual: one half of the lanes per dimension order, a ring per direction within it.
        items.push_back({LegendItem::Mark::None,
                         QStringLiteral("upper half: dimension order %1, lower half: %2")
                             .arg(QString::fromStdString(timeline.orders[0]),
                                  QString::fromStdString(timeline.orders[1])),
                         {},
                         true,
                         {}});
        if (timeline.streams == 4) {
            items.push_back(
                {LegendItem::Mark::Clockwise, QStringLiteral("clockwise ring"), {}, false, {}});
            items.push_back({LegendItem::Mark::CounterClockwise,
                             QStringLiteral("counter-clockwise where a dimension wraps"),
                             {},
                             false,
                             {}});
        }
    } else if (timeline.streams > 1) {
        items.push_back({LegendItem::Mark::Clockwise,
                         QStringLiteral("upper half: clockwise ring"),
                         {},
                         false,
                         {}});
        items.push_back({LegendItem::Mark::CounterClockwise,
                         QStringLiteral("lower half: counter-clockwise ring"),
                         {},
                         false,
                         {}});
    }
    return items;
}

QString frameText(const BlockTimeline& timeline, int frame) {
    return timeline.frames.empty()
               ? QString()
               : QString::fromStdString(timeline.frames[static_cast<std::size_t>(frame)].label);
}

} // namespace

struct DataBlocksView::Layout {
    QFont captionFont;
    QFont labelFont;
    QRect caption;
    QRect counter;
    std::vector<QRect> labels; // per row: swatch and "chip N"
    std::vector<QRect> blocks; // per row: the blocks
    QRect legend;
    bool showCounts = true; // tags with the number of chips summed fit the blocks
};

DataBlocksView::DataBlocksView(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void DataBlocksView::setTimeline(BlockTimeline timeline) {
    timeline_ = std::move(timeline);
    frame_ = 0;
    emit timelineChanged(frameCount());
    emit frameChanged(frame_);
    update();
}

void DataBlocksView::setFrame(int frame) {
    const int clamped = std::clamp(frame, 0, std::max(0, frameCount() - 1));
    if (clamped == frame_) {
        return;
    }
    frame_ = clamped;
    emit frameChanged(frame_);
    update();
}

void DataBlocksView::nextFrame() {
    setFrame(frame_ + 1);
}

void DataBlocksView::previousFrame() {
    setFrame(frame_ - 1);
}

QColor DataBlocksView::memberColor(int member) {
    if (member >= 0 && member < static_cast<int>(kMemberColors.size())) {
        return QColor(kMemberColors[static_cast<std::size_t>(member)]);
    }
    // Beyond the palette: hues a golden angle apart, alternating in lightness.
    const int hue = (member * 137) % 360;
    return QColor::fromHsv(hue, member % 2 ? 170 : 230, member % 3 ? 200 : 150);
}

QSize DataBlocksView::sizeHint() const {
    return {480, 300};
}

QSize DataBlocksView::minimumSizeHint() const {
    return {260, 200}; // the demo panel is a third of a 1024-pixel screen
}

QRect DataBlocksView::blocksRect(int row) const {
    const Layout l = layout();
    return row >= 0 && row < static_cast<int>(l.blocks.size())
               ? l.blocks[static_cast<std::size_t>(row)]
               : QRect();
}

void DataBlocksView::placeRows(Layout& l, QRect area, int pixels) const {
    l.labels.clear();
    l.blocks.clear();
    const int legendHeight =
        flowLegend(nullptr, l.labelFont, area, legendItems(timeline_, l.showCounts));
    l.legend = QRect(area.left(), area.bottom() - legendHeight + 1, area.width(), legendHeight);

    const int rows = static_cast<int>(timeline_.chips.size());
    if (rows == 0) {
        return;
    }
    const int top = l.caption.bottom() + 1 + pixels / 2;
    const int bottom = l.legend.top() - pixels / 2;
    const double pitch = std::max(1.0, static_cast<double>(bottom - top) / rows);
    const int rowGap = std::max(1, static_cast<int>(pitch / 6));
    const QFontMetrics labelMetrics(l.labelFont);
    const int labelWidth =
        labelMetrics.ascent() * 2 +
        labelMetrics.horizontalAdvance(QStringLiteral("chip %1").arg(timeline_.chips.back())) +
        (timeline_.streams > 1 ? labelMetrics.ascent() : 0);
    for (int r = 0; r < rows; ++r) {
        const int y0 = top + static_cast<int>(r * pitch);
        const int y1 = top + static_cast<int>((r + 1) * pitch) - rowGap;
        l.labels.emplace_back(area.left(), y0, labelWidth, std::max(1, y1 - y0));
        l.blocks.emplace_back(area.left() + labelWidth, y0, area.width() - labelWidth,
                              std::max(1, y1 - y0));
    }
}

DataBlocksView::Layout DataBlocksView::layout() const {
    Layout l;
    const QRect area = rect().adjusted(8, 6, -8, -6);
    // Text grows with the widget so that a projector shows it as well as a laptop.
    const int pixels = std::clamp(std::min(width() / 45, height() / 22), 11, 22);
    l.captionFont = font();
    l.captionFont.setPixelSize(pixels + 1);
    l.captionFont.setBold(true);
    l.labelFont = font();
    l.labelFont.setPixelSize(pixels);

    const QFontMetrics captionMetrics(l.captionFont);
    const QString counterText = QStringLiteral("%1/%1").arg(std::max(1, frameCount()));
    const int counterWidth =
        captionMetrics.horizontalAdvance(counterText) + captionMetrics.height();
    l.counter =
        QRect(area.right() - counterWidth, area.top(), counterWidth, captionMetrics.height());
    // As tall as the longest label needs, so that rows do not jump while stepping.
    const QRect textArea(area.left(), area.top(), area.width() - counterWidth, area.height());
    int captionHeight = captionMetrics.height();
    for (int f = 0; f < frameCount(); ++f) {
        captionHeight =
            std::max(captionHeight, captionMetrics
                                        .boundingRect(textArea, Qt::TextWordWrap | Qt::AlignLeft,
                                                      frameText(timeline_, f))
                                        .height());
    }
    l.caption = QRect(area.left(), area.top(), textArea.width(), captionHeight);

    // Count tags where the blocks have room for them; without, the legend leaves them out.
    for (const bool counts : {true, false}) {
        l.showCounts = counts;
        placeRows(l, area, pixels);
        if (!counts || l.blocks.empty()) {
            break;
        }
        const int perStream = timeline_.chunks * timeline_.shards;
        // Gaps take up to an eighth of a block's width, and lanes are split by a pixel.
        const QSize block(l.blocks[0].width() * 7 / (8 * perStream),
                          (l.blocks[0].height() - 1) / timeline_.streams);
        if (countTagFits(block, l.labelFont, QString::number(timeline_.shards))) {
            break;
        }
    }
    return l;
}

void DataBlocksView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const Layout l = layout();
    const QColor text = palette().color(QPalette::Text);

    painter.setFont(l.captionFont);
    painter.setPen(text);
    painter.drawText(l.caption, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                     frameText(timeline_, frame_));
    if (frameCount() > 0) {
        painter.setPen(kDimText);
        painter.drawText(l.counter, Qt::AlignRight | Qt::AlignTop,
                         QStringLiteral("%1/%2").arg(frame_ + 1).arg(frameCount()));
    }
    painter.setFont(l.labelFont);
    flowLegend(&painter, l.labelFont, l.legend, legendItems(timeline_, l.showCounts));
    if (timeline_.frames.empty()) {
        return;
    }

    const BlockFrame& frame = timeline_.frames[static_cast<std::size_t>(frame_)];
    const int streams = timeline_.streams;
    const int lanesPerOrder = streams / std::max<int>(1, static_cast<int>(timeline_.orders.size()));
    const int perStream = timeline_.chunks * timeline_.shards;
    const QFontMetrics labelMetrics(l.labelFont);
    for (std::size_t r = 0; r < l.blocks.size(); ++r) {
        // Row label: the chip's own colour, then its name.
        const QRect label = l.labels[r];
        const int swatch = std::min(labelMetrics.ascent(), label.height());
        painter.fillRect(QRect(label.left(), label.center().y() - swatch / 2, swatch, swatch),
                         memberColor(static_cast<int>(r)));
        painter.setPen(text);
        painter.drawText(
            QRect(label.left() + swatch + swatch / 2, label.top(), label.width(), label.height()),
            Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("chip %1").arg(timeline_.chips[r]));

        const QRect row = l.blocks[r];
        const double laneHeight = static_cast<double>(row.height()) / streams;
        const double blockGap =
            std::clamp(row.width() / static_cast<double>(perStream) * 0.12, 1.0, 6.0);
        const double chunkGap = timeline_.chunks > 1 ? 2 * blockGap : 0;
        const double blockWidth =
            (row.width() - blockGap * (perStream - 1) - chunkGap * (timeline_.chunks - 1)) /
            perStream;
        const auto& blocks = frame.chips[r];
        for (int s = 0; s < streams; ++s) {
            const int y0 = row.top() + static_cast<int>(s * laneHeight);
            const int y1 =
                row.top() + static_cast<int>((s + 1) * laneHeight) - (s + 1 < streams ? 1 : 0);
            if (streams > 1) {
                const int arrow = labelMetrics.ascent();
                drawDirection(painter, QRectF(row.left() - arrow, y0, arrow * 0.8, y1 - y0),
                              s % lanesPerOrder == 0, kDimText);
            }
            std::vector<QRect> arrived;
            for (int b = 0; b < perStream; ++b) {
                const BlockState& block = blocks[static_cast<std::size_t>(s * perStream + b)];
                const double x =
                    row.left() + b * (blockWidth + blockGap) + (b / timeline_.shards) * chunkGap;
                const QRect box(QPoint(static_cast<int>(x), y0),
                                QPoint(static_cast<int>(x + blockWidth) - 1, y1 - 1));
                paintBlock(painter, box, block, timeline_.shards, l.labelFont, l.showCounts);
                if (block.changed) {
                    // Neighbouring arrivals (a shard of several blocks) share one outline.
                    if (!arrived.empty() &&
                        box.left() - arrived.back().right() <= blockGap + chunkGap + 1) {
                        arrived.back().setRight(box.right());
                    } else {
                        arrived.push_back(box);
                    }
                }
            }
            // Thin lanes (many chips, two rings) get a thin outline, or it hides the stripes.
            const int pen = laneHeight >= 10 ? std::clamp(l.labelFont.pixelSize() / 6, 2, 4) : 1;
            painter.setPen(QPen(kArrivedOutline, pen, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
            painter.setBrush(Qt::NoBrush);
            for (const QRect& box : arrived) {
                const int out = (pen + 1) / 2;
                painter.drawRect(box.adjusted(-out, -out + (streams > 1 ? 1 : 0), out,
                                              out - (streams > 1 ? 1 : 0)));
            }
        }
    }
}

} // namespace podscope::ui
