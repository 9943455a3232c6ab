#include "charts/FigureAxis.hpp"

#include "charts/FigureStyle.hpp"
#include "charts/WordWrap.hpp"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

// Below this an axis title stops being readable on screen.
constexpr int kSmallestTitlePixels = 9;

} // namespace

FigureAxis::FigureAxis(Qt::Orientation orientation, Scale scale, NumberStyle numbers,
                       QObject* parent)
    : QObject(parent)
    , axis_(new QCategoryAxis)
    , orientation_(orientation)
    , scale_(scale)
    , effective_(scale == Scale::Auto ? Scale::Linear : scale)
    , numbers_(numbers) {
    axis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    // Labels are chosen to fit; were one ever too long, it should show whole, not as "1.0...".
    axis_->setTruncateLabels(false);
    styleAxis(axis_);
    setData(low_, high_);
}

void FigureAxis::setTitle(const QString& title) {
    title_ = title;
    axis_->setTitleText(title.toHtmlEscaped());
}

void FigureAxis::fitTitle(double lengthPx) {
    if (lengthPx <= 0) {
        return;
    }
    // Lines no longer than the axis, less the room Qt's text document keeps around them; on an
    // axis too short for a word of the title (the app's chart dock on a small screen), a
    // smaller font rather than a cut title.
    const double room = lengthPx - 12;
    QFont font = figureFont(FigureFont::AxisTitle, textScale_);
    QStringList lines;
    const int smallest = std::min(kSmallestTitlePixels, font.pixelSize());
    // A horizontal title of two lines makes Qt squeeze a short figure's axes (it gives them
    // at most 40 % of the height) and elide the title: a small figure's horizontal title
    // shrinks a little to stay on one line first.
    const bool shrinkFirst = orientation_ == Qt::Horizontal && textScale_ < 1;
    const int smallestOneLine = std::max(1, font.pixelSize() - 2);
    for (int pixels = font.pixelSize(); shrinkFirst && pixels >= smallestOneLine; --pixels) {
        QFont smaller = font;
        smaller.setPixelSize(pixels);
        if (QFontMetricsF(smaller).horizontalAdvance(title_) <= room) {
            font = smaller;
            break;
        }
    }
    for (int pixels = font.pixelSize(); pixels >= smallest; --pixels) {
        font.setPixelSize(pixels);
        lines = wrapWords(title_, font, room);
        // Only a word wider than the axis makes a line wider than it.
        const QFontMetricsF metrics(font);
        if (std::ranges::all_of(lines, [&](const QString& line) {
                return metrics.horizontalAdvance(line) <= room;
            })) {
            break;
        }
    }
    for (QString& line : lines) {
        line = line.toHtmlEscaped();
    }
    if (axis_->titleFont() != font) {
        axis_->setTitleFont(font);
    }
    const QString html = lines.join("<br>");
    if (axis_->titleText() != html) {
        axis_->setTitleText(html);
    }
}

void FigureAxis::setTextScale(double scale) {
    if (scale == textScale_) {
        return;
    }
    textScale_ = scale;
    axis_->setLabelsFont(figureFont(FigureFont::TickLabel, scale));
    ticks_ = {}; // the labels' widths changed: choose again
}

void FigureAxis::setScale(Scale scale) {
    scale_ = scale;
    effective_ = scale == Scale::Auto ? Scale::Linear : scale;
}

void FigureAxis::setData(double low, double high) {
    if (low > high) {
        std::swap(low, high);
    }
    low_ = low;
    high_ = high;
    if (scale_ == Scale::Auto) {
        effective_ = spansDecade(low, high) ? Scale::Log10 : Scale::Linear;
    }
    ticks_ = {};
}

double FigureAxis::toAxis(double value) const {
    return isLog() ? std::log10(std::max(value, 1e-300)) : value;
}

double FigureAxis::fromAxis(double position) const {
    return isLog() ? std::pow(10.0, position) : position;
}

std::vector<AxisTicks> FigureAxis::choices() const {
    switch (effective_) {
    case Scale::Log2:
        return logTickChoices(low_, high_, 2, numbers_);
    case Scale::Log10:
        return logTickChoices(low_, high_, 10, numbers_);
    case Scale::Linear:
    case Scale::Auto:
        break;
    }
    return linearTickChoices(low_, high_, true, numbers_);
}

bool FigureAxis::fit(double lengthPx) {
    fitTitle(lengthPx);
    const QFontMetricsF metrics(axis_->labelsFont());
    const bool horizontal = orientation_ == Qt::Horizontal;
    // Horizontal labels keep two spaces apart; vertical ones most of a line.
    const double gap =
        horizontal ? metrics.horizontalAdvance(QStringLiteral("  ")) : metrics.height() * 0.8;
    const AxisTicks chosen = chooseTicks(
        choices(), lengthPx, gap,
        [this, lengthPx](const AxisTicks& choice, double value) {
            const double span = toAxis(choice.high) - toAxis(choice.low);
            return span > 0 ? (toAxis(value) - toAxis(choice.low)) / span * lengthPx : 0.0;
        },
        [&metrics, horizontal](const std::string& label) {
            return horizontal ? metrics.horizontalAdvance(QString::fromStdString(label))
                              : metrics.height();
        });
    if (chosen == ticks_ && !ticks_.ticks.empty()) {
        return false;
    }
    ticks_ = chosen;
    for (const QString& label : axis_->categoriesLabels()) {
        axis_->remove(label);
    }
    axis_->setStartValue(toAxis(chosen.low));
    for (const Tick& tick : chosen.ticks) {
        axis_->append(QString::fromStdString(tick.label), toAxis(tick.value));
    }
    axis_->setRange(toAxis(chosen.low), toAxis(chosen.high));
    return true;
}

} // namespace podscope::ui
