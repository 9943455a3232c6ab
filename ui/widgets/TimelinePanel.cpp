#include "widgets/TimelinePanel.hpp"

#include "color/ActivityColors.hpp"
#include "figure/AxisTicks.hpp"
#include "figure/Palette.hpp"
#include "figure/TimeUnit.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

namespace podscope::ui {
namespace {

constexpr int kLabelWidth = 150; // the track names, left of the plot
constexpr int kRightMargin = 12;
constexpr int kLaneHeight = 13;
constexpr int kRowGap = 3;
constexpr int kCountsHeight = 44;
constexpr int kCountsStrip = 14;  // the least the counts keep in a short panel
constexpr int kMinTickGapPx = 70; // between tick labels
constexpr double kMinVisibleS = 1e-6;
constexpr int kDragThresholdPx = 4;

QColor qcolor(Rgb c) {
    return QColor(c.r, c.g, c.b);
}

// Seconds in the axis's unit with its symbol, e.g. "3.21 ms".
QString duration(double seconds) {
    const TimeUnit unit = timeUnitFor(std::abs(seconds));
    const double value = seconds * unit.perSecond;
    return QString::number(value, 'f', value < 10 ? 2 : (value < 100 ? 1 : 0)) + " " +
           QString::fromUtf8(unit.symbol);
}

QString bytes(double count) {
    if (count >= 1048576.0) {
        return QString::number(count / 1048576.0, 'f', 2) + " MiB";
    }
    if (count >= 1024.0) {
        return QString::number(count / 1024.0, 'f', 1) + " KiB";
    }
    return QString::number(count, 'f', 0) + " B";
}

} // namespace

TimelinePanel::TimelinePanel(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus);
    setToolTip(tr("Wheel: zoom; drag: pan; click or drag on the time axis: move the replay"));
}

QSize TimelinePanel::sizeHint() const {
    return {800, neededHeight_};
}
// Every track and the axis, the counts a strip: a short window takes the height from the
// 3-D view and the docks rather than cut the timeline.
QSize TimelinePanel::minimumSizeHint() const {
    return {400, run_ ? std::max(120, compactHeight_) : 120};
}

void TimelinePanel::setRun(std::shared_ptr<const StepRun> run) {
    const bool sameLength = run_ && run && run_->timeline.stepS == run->timeline.stepS;
    run_ = std::move(run);
    tracks_ = run_ ? buildChipTracks(run_->timeline, chip_) : std::vector<Track>{};
    if (!sameLength) {
        fromS_ = 0;
        toS_ = run_ ? std::max(run_->timeline.stepS, kMinVisibleS) : 1e-3;
    }
    layoutRows();
    invalidate();
}

void TimelinePanel::setChip(ChipId chip) {
    if (run_ && (chip < 0 || chip >= run_->timeline.chips)) {
        chip = 0;
    }
    if (chip == chip_ && !tracks_.empty()) {
        return;
    }
    chip_ = chip;
    tracks_ = run_ ? buildChipTracks(run_->timeline, chip_) : std::vector<Track>{};
    layoutRows();
    invalidate();
}

void TimelinePanel::setCursorS(double t) {
    if (t != cursorS_) {
        cursorS_ = t;
        update();
    }
}

void TimelinePanel::setVisibleRange(double fromS, double toS) {
    const double stepS = run_ ? std::max(run_->timeline.stepS, kMinVisibleS) : 1e-3;
    double span = std::clamp(toS - fromS, kMinVisibleS, stepS);
    fromS = std::clamp(fromS, 0.0, stepS - span);
    if (fromS == fromS_ && fromS + span == toS_) {
        return;
    }
    fromS_ = fromS;
    toS_ = fromS + span;
    invalidate();
}

QRect TimelinePanel::plotArea() const {
    return QRect(kLabelWidth, 0, std::max(1, width() - kLabelWidth - kRightMargin), height());
}

int TimelinePanel::xOfTime(double t) const {
    const QRect plot = plotArea();
    return plot.left() +
           static_cast<int>(std::lround((t - fromS_) / (toS_ - fromS_) * plot.width()));
}

double TimelinePanel::timeAtX(int x) const {
    const QRect plot = plotArea();
    return fromS_ + (toS_ - fromS_) * (x - plot.left()) / static_cast<double>(plot.width());
}

QRect TimelinePanel::trackRect(int track) const {
    return track >= 0 && static_cast<std::size_t>(track) < trackRows_.size()
               ? trackRows_[static_cast<std::size_t>(track)]
               : QRect();
}
QRect TimelinePanel::countsRect() const {
    return counts_;
}
QRect TimelinePanel::axisRect() const {
    return axis_;
}

void TimelinePanel::layoutRows() {
    const int line = fontMetrics().height();
    const int left = kLabelWidth;
    const int plotWidth = std::max(1, width() - kLabelWidth - kRightMargin);
    int y = 3;
    trackRows_.assign(tracks_.size(), QRect());
    for (std::size_t i = 0; i < tracks_.size(); ++i) {
        if (tracks_[i].spans.empty()) {
            continue; // nothing of this kind in the step: no row
        }
        const int rowHeight = std::max(kLaneHeight, std::min(tracks_[i].lanes, 3) * 8);
        trackRows_[i] = QRect(left, y, plotWidth, rowHeight);
        y += rowHeight + kRowGap;
    }
    y += line + 2; // the counts' title
    // The counts give up height first when the panel is short (a small window), down to a strip,
    // so that the time axis stays in view.
    const int room = height() - y - (line + 8) - 4;
    counts_ = QRect(left, y, plotWidth,
                    height() > 0 ? std::clamp(room, kCountsStrip, kCountsHeight) : kCountsHeight);
    y = counts_.bottom() + 2;
    axis_ = QRect(left, y, plotWidth, line + 8);
    // Asked for, not forced: a small window (a demo at 1280x720) must not grow for it.
    const int needed = axis_.bottom() + 4 + (kCountsHeight - counts_.height());
    const int compact = axis_.bottom() + 4 - (counts_.height() - kCountsStrip);
    if (neededHeight_ != needed || compactHeight_ != compact) {
        neededHeight_ = needed;
        compactHeight_ = compact;
        updateGeometry();
        emit neededHeightChanged();
    }
}

QString TimelinePanel::countsTitle() const {
    if (!run_) {
        return {};
    }
    // The longest wording that fits the panel's width: a narrow panel (1024x768, a demo
    // beside it) says it shorter rather than cut it off.
    const QStringList wordings{
        tr("Above: chip %1 (click a chip in the 3-D view to follow another). Below: how many "
           "of all %2 chips do each activity."),
        tr("Above: chip %1 (click a chip to follow another). Below: what all %2 chips do."),
        tr("Above: chip %1. Below: what all %2 chips do."), tr("Chip %1 above, all %2 below")};
    QString text;
    for (const QString& wording : wordings) {
        text = wording.arg(chip_).arg(run_->timeline.chips);
        if (fontMetrics().horizontalAdvance(text) <= width() - 12) {
            break;
        }
    }
    return text;
}

void TimelinePanel::invalidate() {
    cacheValid_ = false;
    update();
}

void TimelinePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layoutRows();
    invalidate();
}

void TimelinePanel::paintEvent(QPaintEvent*) {
    const qreal ratio = devicePixelRatioF();
    if (!cacheValid_ || cache_.size() != size() * ratio) {
        cache_ = QPixmap(size() * ratio);
        cache_.setDevicePixelRatio(ratio);
        QPainter painter(&cache_);
        paintStatic(painter);
        cacheValid_ = true;
    }
    QPainter painter(this);
    painter.drawPixmap(0, 0, cache_);
    if (run_ && cursorS_ >= fromS_ && cursorS_ <= toS_) {
        const int x = xOfTime(cursorS_);
        painter.setPen(QPen(qcolor(palette::kText), 2));
        painter.drawLine(x, 0, x, axis_.top());
        // The cursor's time on the axis, on a white tag so that it hides the ticks under it.
        const QString label = duration(cursorS_);
        const int w = fontMetrics().horizontalAdvance(label) + 8;
        QRect tag(x - w / 2, axis_.top() + 1, w, fontMetrics().height() + 4);
        tag.moveLeft(std::clamp(tag.left(), kLabelWidth, std::max(kLabelWidth, width() - w - 1)));
        painter.fillRect(tag, qcolor(palette::kText));
        painter.setPen(Qt::white);
        painter.drawText(tag, Qt::AlignCenter, label);
    }
}

void TimelinePanel::paintStatic(QPainter& painter) {
    painter.fillRect(rect(), Qt::white);
    painter.setPen(qcolor(palette::kText));
    if (!run_) {
        painter.drawText(rect(), Qt::AlignCenter,
                         tr("The step timeline appears here in the step replay"));
        return;
    }
    for (std::size_t i = 0; i < tracks_.size(); ++i) {
        const QRect row = trackRows_[i];
        if (row.isNull()) {
            continue;
        }
        painter.setPen(qcolor(palette::kText));
        painter.drawText(QRect(6, row.top(), kLabelWidth - 10, row.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         QString::fromStdString(tracks_[i].label));
        painter.fillRect(row, QColor(246, 246, 246));
        painter.save();
        painter.setClipRect(row);
        paintTrack(painter, tracks_[i], row);
        painter.restore();
    }
    painter.setPen(qcolor(palette::kText));
    painter.drawText(
        QRect(6, counts_.top() - fontMetrics().height() - 2, width() - 12, fontMetrics().height()),
        Qt::AlignLeft | Qt::AlignVCenter, countsTitle());
    paintCounts(painter, counts_);
    paintAxis(painter, axis_);
}

void TimelinePanel::paintTrack(QPainter& painter, const Track& track, QRect row) {
    const int lanes = std::min(track.lanes, 3);
    const double laneHeight = static_cast<double>(row.height()) / lanes;
    const bool compute = track.activities.size() > 1; // forward and backward: label the groups
    int lastRight = std::numeric_limits<int>::min();
    std::string lastGroup;
    int groupLeft = 0;
    auto labelGroup = [&](int right) {
        if (compute && !lastGroup.empty()) {
            const QString name = QString::fromStdString(lastGroup);
            const QRect box(groupLeft, row.top(), right - groupLeft, row.height());
            if (painter.fontMetrics().horizontalAdvance(name) + 6 < box.width()) {
                painter.setPen(Qt::white);
                painter.drawText(box, Qt::AlignCenter, name);
            }
        }
    };
    for (const TrackSpan& span : track.spans) {
        if (span.endS < fromS_ || span.readyS > toS_) {
            continue;
        }
        const int lane = std::min(span.lane, lanes - 1);
        const int top = row.top() + static_cast<int>(lane * laneHeight);
        const int h = std::max(2, static_cast<int>(laneHeight) - 1);
        const int wait = xOfTime(span.readyS);
        const int start = xOfTime(span.startS);
        // Spans narrower than a pixel share the column of the one before (as profilers do).
        const int end = std::max(xOfTime(span.endS), start + 1);
        if (start > wait) {
            painter.fillRect(QRect(wait, top, start - wait, h),
                             qcolor(activityColor(podscope::ChipActivity::WaitingAtBarrier)));
        }
        if (end > lastRight || !compute) {
            painter.fillRect(QRect(start, top, end - start, h),
                             qcolor(activityColor(span.activity)));
        }
        if (compute) {
            const auto& item = run_->timeline.items[static_cast<std::size_t>(span.item)];
            if (item.group != lastGroup) {
                labelGroup(start);
                // A thin white line between layer groups.
                if (!lastGroup.empty()) {
                    painter.fillRect(QRect(start, row.top(), 1, row.height()), Qt::white);
                }
                lastGroup = item.group;
                groupLeft = start;
            }
        }
        lastRight = std::max(lastRight, end);
    }
    labelGroup(std::min(lastRight, row.right()));
}

void TimelinePanel::paintCounts(QPainter& painter, QRect area) {
    painter.fillRect(area, QColor(246, 246, 246));
    const ActivityCounts& counts = run_->counts;
    const double chips = static_cast<double>(std::max<std::int64_t>(run_->timeline.chips, 1));
    if (counts.bins() == 0 || counts.binS <= 0) {
        return;
    }
    // One column per pixel: the bins it covers, averaged, stacked in legend order.
    for (int x = area.left(); x <= area.right(); ++x) {
        const double t0 = timeAtX(x), t1 = timeAtX(x + 1);
        const int b0 = std::clamp(static_cast<int>(t0 / counts.binS), 0, counts.bins() - 1);
        const int b1 = std::clamp(static_cast<int>(t1 / counts.binS), b0, counts.bins() - 1);
        double y = area.bottom() + 1;
        for (const podscope::ChipActivity activity : activitiesInLegendOrder()) {
            double sum = 0;
            for (int b = b0; b <= b1; ++b) {
                sum += counts.at(b, activity);
            }
            const double h = sum / (b1 - b0 + 1) / chips * area.height();
            if (h > 0.05) {
                painter.fillRect(QRectF(x, y - h, 1, h), qcolor(activityColor(activity)));
            }
            y -= h;
        }
    }
    painter.setPen(qcolor(palette::kText));
    for (const CountLabel& label : countLabels()) {
        painter.drawText(label.rect, label.alignment, label.text);
    }
}

std::vector<TimelinePanel::CountLabel> TimelinePanel::countLabels() const {
    if (!run_) {
        return {};
    }
    const QRect area = counts_;
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height();
    const QString chips = QString::number(run_->timeline.chips);
    const QString unit = tr("chips");
    // Right-aligned numbers and a left-aligned unit share the label column: each its own width.
    const int right = kLabelWidth - 4;
    const int numberWidth = metrics.horizontalAdvance(chips) + 2;
    const auto number = [&](int top, const QString& text) {
        return CountLabel{QRect(right - numberWidth, top, numberWidth, line),
                          static_cast<int>(Qt::AlignRight | Qt::AlignVCenter), text};
    };
    std::vector<CountLabel> labels;
    const int middle = area.top() + (area.height() - line) / 2;
    labels.push_back({QRect(6, middle, metrics.horizontalAdvance(unit) + 2, line),
                      static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter), unit});
    if (area.height() >= 2 * line) {
        labels.push_back(number(area.top(), chips));
        labels.push_back(number(area.bottom() + 1 - line, QStringLiteral("0")));
    } else {
        labels.push_back(number(middle, chips)); // a strip: the full count, level with its top
    }
    return labels;
}

QStringList TimelinePanel::tickLabels() const {
    QStringList labels;
    const TimeUnit unit = timeUnitFor(toS_);
    const double span = (toS_ - fromS_) * unit.perSecond;
    const int maxTicks = std::max(2, plotArea().width() / kMinTickGapPx);
    const double step = niceStep(span / maxTicks);
    for (double v = std::ceil(fromS_ * unit.perSecond / step - 1e-9) * step;
         v <= toS_ * unit.perSecond + step * 1e-9; v += step) {
        labels << QString::fromStdString(
            formatTick(std::abs(v) < step * 1e-9 ? 0.0 : v, NumberStyle::Decimal, step));
    }
    return labels;
}

void TimelinePanel::paintAxis(QPainter& painter, QRect area) {
    const TimeUnit unit = timeUnitFor(toS_);
    const double span = (toS_ - fromS_) * unit.perSecond;
    const int maxTicks = std::max(2, area.width() / kMinTickGapPx);
    const double step = niceStep(span / maxTicks);
    painter.setPen(qcolor(palette::kText));
    painter.drawLine(area.left(), area.top(), area.right(), area.top());
    painter.drawText(QRect(6, area.top(), kLabelWidth - 10, area.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Time in step (%1)").arg(QString::fromUtf8(unit.symbol)));
    const int line = fontMetrics().height();
    for (double v = std::ceil(fromS_ * unit.perSecond / step - 1e-9) * step;
         v <= toS_ * unit.perSecond + step * 1e-9; v += step) {
        const int x = xOfTime(v / unit.perSecond);
        painter.drawLine(x, area.top(), x, area.top() + 4);
        const QString label = QString::fromStdString(
            formatTick(std::abs(v) < step * 1e-9 ? 0.0 : v, NumberStyle::Decimal, step));
        const int w = fontMetrics().horizontalAdvance(label);
        const int left = std::clamp(x - w / 2, area.left() - kLabelWidth / 4, width() - w - 2);
        painter.drawText(QRect(left, area.top() + 5, w + 2, line), Qt::AlignLeft, label);
    }
}

QString TimelinePanel::toolTipAt(QPoint position) const {
    if (!run_) {
        return {};
    }
    const double t = timeAtX(position.x());
    if (counts_.contains(position)) {
        const ActivityCounts& counts = run_->counts;
        const int bin = std::clamp(static_cast<int>(t / counts.binS), 0, counts.bins() - 1);
        QStringList lines{tr("At %1:").arg(duration(t))};
        for (const podscope::ChipActivity activity : activitiesInLegendOrder()) {
            const double n = counts.at(bin, activity);
            if (n >= 0.5) {
                lines << tr("%1 chips %2")
                             .arg(std::lround(n))
                             .arg(QString::fromUtf8(podscope::toString(activity)));
            }
        }
        return lines.join('\n');
    }
    for (std::size_t i = 0; i < tracks_.size(); ++i) {
        const QRect row = trackRows_[i];
        if (row.isNull() || !row.contains(position)) {
            continue;
        }
        const int lanes = std::min(tracks_[i].lanes, 3);
        const int lane = (position.y() - row.top()) * lanes / std::max(1, row.height());
        // Within two pixels, so that thin spans can be hovered.
        const double slack = 2 * (toS_ - fromS_) / plotArea().width();
        const TrackSpan* span = spanAt(tracks_[i], t, lane);
        if (!span) {
            span = spanAt(tracks_[i], t - slack, lane);
        }
        if (!span) {
            span = spanAt(tracks_[i], t + slack, lane);
        }
        if (!span) {
            return {};
        }
        const TimelineItem& item = run_->timeline.items[static_cast<std::size_t>(span->item)];
        QString text = QString::fromStdString(item.name);
        if (!item.group.empty() && item.name.find(item.group) == std::string::npos) {
            text += tr(" (%1)").arg(QString::fromStdString(item.group));
        }
        if (item.bytes > 0) {
            text += tr("\n%1 per chip").arg(bytes(item.bytes));
        }
        text += tr("\n%1 to %2: %3")
                    .arg(duration(span->startS), duration(span->endS),
                         duration(span->endS - span->startS));
        if (span->startS > span->readyS) {
            text += tr("\nwaited %1 for its group").arg(duration(span->startS - span->readyS));
        }
        return text;
    }
    return {};
}

bool TimelinePanel::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::showText(help->globalPos(), toolTip(), this);
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelinePanel::wheelEvent(QWheelEvent* event) {
    if (!run_) {
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    const double factor = std::pow(0.8, steps); // up zooms in
    const double anchor = timeAtX(static_cast<int>(event->position().x()));
    setVisibleRange(anchor - (anchor - fromS_) * factor, anchor + (toS_ - anchor) * factor);
    event->accept();
}

void TimelinePanel::mousePressEvent(QMouseEvent* event) {
    if (!run_ || event->button() != Qt::LeftButton) {
        return;
    }
    pressPosition_ = event->position().toPoint();
    pressFromS_ = fromS_;
    pressToS_ = toS_;
    moved_ = false;
    drag_ = axis_.contains(pressPosition_) ? Drag::Scrub : Drag::Pan;
    if (drag_ == Drag::Scrub) {
        emit timeRequested(std::clamp(timeAtX(pressPosition_.x()), 0.0, run_->timeline.stepS));
    }
}

void TimelinePanel::mouseMoveEvent(QMouseEvent* event) {
    if (drag_ == Drag::None || !run_) {
        return;
    }
    const QPoint at = event->position().toPoint();
    moved_ = moved_ || (at - pressPosition_).manhattanLength() >= kDragThresholdPx;
    if (drag_ == Drag::Scrub) {
        emit timeRequested(std::clamp(timeAtX(at.x()), 0.0, run_->timeline.stepS));
    } else if (moved_) {
        const double shift =
            (at.x() - pressPosition_.x()) * (pressToS_ - pressFromS_) / plotArea().width();
        setVisibleRange(pressFromS_ - shift, pressToS_ - shift);
    }
}

void TimelinePanel::mouseReleaseEvent(QMouseEvent* event) {
    if (drag_ == Drag::Pan && !moved_ && run_ && plotArea().contains(event->position().toPoint())) {
        emit timeRequested(
            std::clamp(timeAtX(event->position().toPoint().x()), 0.0, run_->timeline.stepS));
    }
    drag_ = Drag::None;
}

} // namespace podscope::ui
