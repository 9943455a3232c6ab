#pragma once

#include "training/StepModel.hpp"

#include <QChartView>
#include <optional>

class QBarCategoryAxis;
class QStackedBarSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
class StackedBarLabels;
struct TrainingAnalysis;

// The step time split into its parts, as stacked bars with their values: the current
// configuration and, once pinned, a baseline beside it (left of it: before, then after), on one
// axis. Parts that take no time in either bar are left out of the legend.
class BreakdownChart : public QChartView {
    Q_OBJECT
public:
    explicit BreakdownChart(QWidget* parent = nullptr);
    // The analysis' step as the current bar, with its configuration in the subtitle.
    void setAnalysis(const TrainingAnalysis& analysis);
    void setCurrent(const StepBreakdown& breakdown);
    // The column labels name what is compared (demos: "step 1", "step 2").
    void setBaseline(const std::optional<StepBreakdown>& baseline,
                     const QString& baselineLabel = {}, const QString& currentLabel = {});
    // The value axis reaches at least this many milliseconds (0: just above the tallest bar),
    // so that charts shown one after the other keep one scale.
    void holdScale(double milliseconds);
    // The top of the value axis, in milliseconds.
    double scaleTop() const;
    // The title's second line: what the bars are of ("resnet50 on 4,096 chips, batch 65,536").
    void setSubtitle(const QString& subtitle);
    // One set per part, in kBreakdownParts order, values in the axis' unit.
    QStackedBarSeries* series() const { return series_; }
    const FigureFrame& frame() const { return *frame_; }
    const StackedBarLabels& labels() const { return *labels_; }

private:
    void rebuild();

    std::optional<StepBreakdown> current_;
    std::optional<StepBreakdown> baseline_;
    QString baselineLabel_;
    QString currentLabel_;
    double heldMs_ = 0;
    double topMs_ = 0;
    FigureFrame* frame_;
    QStackedBarSeries* series_;
    QBarCategoryAxis* categories_;
    FigureAxis* time_;
    StackedBarLabels* labels_;
    QString unit_; // of the axis and the values: "ms"
    QString subtitle_;
};

} // namespace podscope::ui
