#pragma once

#include "view/ScenarioRun.hpp"

#include <QChartView>

class QBarCategoryAxis;
class QBarSeries;
class QValueAxis;

namespace podscope::ui {

// For the replayed collective: how busy each dimension's links were on average, and how many
// links fell into each utilisation band.
class LinkUseChart : public QChartView {
    Q_OBJECT
public:
    explicit LinkUseChart(QWidget* parent = nullptr);
    void setRun(const ScenarioRun& run);
    QBarSeries* histogram() const { return histogram_; }

private:
    QBarSeries* histogram_;
    QBarSeries* perDimension_;
    QBarCategoryAxis* bands_;
    QValueAxis* links_;
};

} // namespace podscope::ui
