#pragma once

#include "training/StepModel.hpp"

#include <QChartView>

#include <optional>

class QBarCategoryAxis;
class QStackedBarSeries;
class QValueAxis;

namespace podscope::ui {

// The step time split into its parts, as stacked bars: the current configuration and, once
// pinned, a baseline before it (left), on one scale.
class BreakdownChart : public QChartView {
    Q_OBJECT
public:
    explicit BreakdownChart(QWidget* parent = nullptr);
    void setCurrent(const StepBreakdown& breakdown);
    // The column labels name what is compared (demos: "step 1", "step 2").
    void setBaseline(const std::optional<StepBreakdown>& baseline,
                     const QString& baselineLabel = {}, const QString& currentLabel = {});
    // The value axis reaches at least this many milliseconds (0: just above the tallest bar),
    // so that charts shown one after the other keep one scale.
    void holdScale(double milliseconds);
    double scaleTop() const;
    QStackedBarSeries* series() const { return series_; }

private:
    void rebuild();

    std::optional<StepBreakdown> current_;
    std::optional<StepBreakdown> baseline_;
    QString baselineLabel_;
    QString currentLabel_;
    double heldMs_ = 0;
    QStackedBarSeries* series_;
    QBarCategoryAxis* categories_;
    QValueAxis* milliseconds_;
};

} // namespace podscope::ui
