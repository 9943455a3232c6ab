#pragma once

#include "figure/AxisTicks.hpp"

#include <QObject>
#include <QString>

class QCategoryAxis;

namespace podscope::ui {

// An axis of a figure: round tick values (1-2-5, or powers of two), readable labels (64k, 1M),
// as many ticks as fit the axis' length without colliding, and a true log scale where the data
// spans decades. Qt's own log axis labels only powers of its base through a printf format
// (1e+06, 1.04858e+06), so a log axis here is a QCategoryAxis over log10 of the values: series
// store toAxis(value), tooltips show fromAxis(position). Every chart uses it.
class FigureAxis : public QObject {
    Q_OBJECT
public:
    enum class Scale {
        Linear, // from zero unless the data is negative
        Log2,   // powers of two: chips, global batches
        Log10,  // 1-2-5 in each decade
        Auto,   // Log10 when the data spans a decade, else Linear
    };
    FigureAxis(Qt::Orientation orientation, Scale scale, NumberStyle numbers,
               QObject* parent = nullptr);

    // The axis to add to the chart (owned by the chart once added).
    QCategoryAxis* axis() const { return axis_; }
    // The title, with the unit: "time to train (s)". Broken onto more lines (at spaces) when
    // longer than the axis, rather than cut.
    void setTitle(const QString& title);

    // The text scale of the figure (figureTextScale): tick labels and title at that scale.
    // Takes effect at the next fit().
    void setTextScale(double scale);

    // For a chart whose quantity changes (chips or chip-seconds): takes effect at setData().
    void setScale(Scale scale);

    // The data's extent. Decides an Auto scale: set it before filling the series.
    void setData(double low, double high);
    bool isLog() const { return effective_ != Scale::Linear; }
    double toAxis(double value) const;
    double fromAxis(double position) const;

    // Room (logical pixels) the data's first and last values keep from the axis' ends, so that
    // a marker drawn there (half its size and its outline) is whole inside the plot: a log
    // axis widens its range by the fraction of a decade that many pixels take, a linear one
    // takes the densest round ticks whose top leaves that room (its zero stays the bottom).
    // FigureFrame sets it from the markers of the series on the axis. Takes effect at fit().
    void setEndMargin(double pixels);
    double endMargin() const { return endMarginPx_; }

    // A log10 axis that labels every decade it spans (never every second one): where the
    // decades are too close for the labels at the figure's size, the labels stand closer,
    // then shrink (down to kSmallestEveryDecadePixels) rather than skip a decade.
    void setEveryDecade(bool every);

    // Picks and applies the densest round ticks whose labels fit `lengthPx` (the plot's width or
    // height); does nothing when they are the ticks shown. Returns whether the axis changed.
    bool fit(double lengthPx);
    const AxisTicks& ticks() const { return ticks_; }

private:
    std::vector<AxisTicks> choices(double lengthPx) const;
    void fitTitle(double lengthPx);

    QCategoryAxis* axis_;
    Qt::Orientation orientation_;
    Scale scale_;
    Scale effective_;
    NumberStyle numbers_;
    QString title_;
    double textScale_ = 1;
    double endMarginPx_ = 0;
    bool everyDecade_ = false;
    double low_ = 0;
    double high_ = 1;
    AxisTicks ticks_;
};

} // namespace podscope::ui
