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
// An axis that labels every decade lets its labels come this close (in lines of the labels'
// height; 0.8 otherwise) and then shrink to this size before it would skip a decade.
constexpr double kCloseLabelLines = 0.35;
constexpr int kSmallestEveryDecadePixels = 8;
// A marker's room never takes more than this share of the axis at either end.
constexpr double kMostEndMargin = 0.2;

// Whether the choice labels every power of ten inside its range.
bool labelsEveryDecade(const AxisTicks& choice) {
    const int first = static_cast<int>(std::ceil(std::log10(choice.low) - 1e-9));
    const int last = static_cast<int>(std::floor(std::log10(choice.high) + 1e-9));
    for (int e = first; e <= last; ++e) {
        const double decade = std::pow(10.0, e);
        if (std::ranges::none_of(choice.ticks, [decade](const Tick& t) {
                return std::abs(t.value - decade) <= 1e-9 * decade;
            })) {
            return false;
        }
    }
    return last >= first;
}

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
    // at most 40 % of the height) and elide the title, and Qt may elide a vertical one of two
    // lines beside a short plot: a small figure's axis title shrinks a little to stay on one
    // line first.
    const bool shrinkFirst = textScale_ < 1;
    const int smallestOneLine = std::max(1, font.pixelSize() - 2);
    for (int pixels = font.pixelSize(); shrinkFirst && pixels >= smallestOneLine; --pixels) {
        QFont smaller = font;
        smaller.setPixelSize(pixels);
        if (QFontMetricsF(smaller).horizontalAdvance(title_) <= room) {
            font = smaller;
            break;
        }
    }
    // (A title that shrank onto one line may already be below `smallest`: it is tried as is.)
    for (int pixels = font.pixelSize(); pixels >= std::min(smallest, font.pixelSize()); --pixels) {
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

void FigureAxis::setEndMargin(double pixels) {
    pixels = std::max(0.0, pixels);
    if (pixels != endMarginPx_) {
        endMarginPx_ = pixels;
        ticks_ = {};
    }
}

void FigureAxis::setEveryDecade(bool every) {
    if (every != everyDecade_) {
        everyDecade_ = every;
        ticks_ = {};
    }
}

std::vector<AxisTicks> FigureAxis::choices(double lengthPx) const {
    const double margin = lengthPx > 0 ? std::min(endMarginPx_, kMostEndMargin * lengthPx) : 0;
    if (effective_ == Scale::Log2 || effective_ == Scale::Log10) {
        const int base = effective_ == Scale::Log2 ? 2 : 10;
        // logTickChoices widens the data by a fixed fraction of a decade (or octave) each side;
        // the markers may need more: `margin` pixels of lengthPx over the whole range, that is
        // margin * span / (lengthPx - 2 margin) decades each side of the data's span.
        const double span =
            std::log10(std::max(high_, 1e-300)) - std::log10(std::max(low_, 1e-300));
        const double fixed = base == 2 ? 0.25 * std::log10(2.0) : 0.1;
        const double needed = margin > 0 ? margin * span / (lengthPx - 2 * margin) : 0;
        const double widen = std::pow(10.0, std::max(0.0, needed - fixed));
        return logTickChoices(low_ / widen, high_ * widen, base, numbers_);
    }
    // Linear from zero: the top tick far enough above the data (and the bottom one below it
    // where the axis does not start at zero).
    auto leavesRoom = [&](const AxisTicks& c) {
        const double range = c.high - c.low;
        if (margin <= 0 || range <= 0) {
            return true;
        }
        const double top = (c.high - high_) / range * lengthPx;
        const double bottom = (low_ - c.low) / range * lengthPx;
        return top >= margin - 1e-9 && (c.low == 0 || bottom >= margin - 1e-9);
    };
    double pad = 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
        std::vector<AxisTicks> all =
            linearTickChoices(low_ - (low_ < 0 ? pad : 0), high_ + pad, true, numbers_);
        std::vector<AxisTicks> kept;
        std::ranges::copy_if(all, std::back_inserter(kept), leavesRoom);
        if (!kept.empty() || margin <= 0) {
            return kept.empty() ? all : kept;
        }
        const double range = std::max(high_ - std::min(low_, 0.0), 1e-300);
        pad = pad == 0 ? margin * range / std::max(lengthPx - 2 * margin, 1.0) : pad * 2;
    }
    return linearTickChoices(low_, high_ + pad, true, numbers_);
}

bool FigureAxis::fit(double lengthPx) {
    fitTitle(lengthPx);
    const bool horizontal = orientation_ == Qt::Horizontal;
    std::vector<AxisTicks> options = choices(lengthPx);
    const bool everyDecade = everyDecade_ && effective_ == Scale::Log10;
    if (everyDecade) {
        std::vector<AxisTicks> all;
        std::ranges::copy_if(options, std::back_inserter(all), labelsEveryDecade);
        if (!all.empty()) {
            options = std::move(all);
        }
    }
    auto position = [this, lengthPx](const AxisTicks& choice, double value) {
        const double span = toAxis(choice.high) - toAxis(choice.low);
        return span > 0 ? (toAxis(value) - toAxis(choice.low)) / span * lengthPx : 0.0;
    };
    // The densest choice whose labels in `font`, `gapLines` apart (vertically), fit; and
    // whether it does.
    auto choose = [&](const QFont& font, double gapLines, bool* fits) {
        const QFontMetricsF metrics(font);
        // Horizontal labels keep two spaces apart; vertical ones most of a line.
        const double gap = horizontal ? metrics.horizontalAdvance(QStringLiteral("  "))
                                      : metrics.height() * gapLines;
        auto extent = [&metrics, horizontal](const std::string& label) {
            return horizontal ? metrics.horizontalAdvance(QString::fromStdString(label))
                              : metrics.height();
        };
        const AxisTicks chosen = chooseTicks(options, lengthPx, gap, position, extent);
        *fits = true;
        for (std::size_t i = 1; i < chosen.ticks.size(); ++i) {
            const double distance = std::abs(position(chosen, chosen.ticks[i].value) -
                                             position(chosen, chosen.ticks[i - 1].value));
            *fits =
                *fits &&
                distance >=
                    (extent(chosen.ticks[i].label) + extent(chosen.ticks[i - 1].label)) / 2 + gap;
        }
        return chosen;
    };
    QFont font = figureFont(FigureFont::TickLabel, textScale_);
    bool fits = false;
    AxisTicks chosen = choose(font, 0.8, &fits);
    if (everyDecade && !fits) {
        // Closer labels first, then smaller ones: never a skipped decade.
        const int smallest = std::min(font.pixelSize(), kSmallestEveryDecadePixels);
        for (int pixels = font.pixelSize(); pixels >= smallest; --pixels) {
            font.setPixelSize(pixels);
            chosen = choose(font, kCloseLabelLines, &fits);
            if (fits) {
                break;
            }
        }
    }
    if (axis_->labelsFont() != font) {
        axis_->setLabelsFont(font);
    }
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
