#pragma once

#include "training/StepModel.hpp"

#include <QChartView>

#include <optional>

class QBarCategoryAxis;
class QStackedBarSeries;
class QValueAxis;

namespace podscope::ui {

// The step time split into its parts, as stacked bars: the current configuration and, once
// pinned, a baseline beside it.
class BreakdownChart : public QChartView {
    Q_OBJECT
public:
    explicit BreakdownChart(QWidget* parent = nullptr);
    void setCurrent(const StepBreakdown& breakdown);
    void setBaseline(const std::optional<StepBreakdown>& baseline);
    QStackedBarSeries* series() const { return series_; }

private:
    void rebuild();

    std::optional<StepBreakdown> current_;
    std::optional<StepBreakdown> baseline_;
    QStackedBarSeries* series_;
    QBarCategoryAxis* categories_;
    QValueAxis* milliseconds_;
};

} // namespace podscope::ui
