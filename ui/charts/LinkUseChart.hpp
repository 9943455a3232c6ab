#pragma once

#include "view/ScenarioRun.hpp"

#include <QChartView>

class QBarCategoryAxis;
class QBarSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;

// For the replayed collective: how many links of each dimension fell into each utilisation
// band, and each dimension's mean utilisation in the subtitle.
class LinkUseChart : public QChartView {
    Q_OBJECT
public:
    explicit LinkUseChart(QWidget* parent = nullptr);
    void setRun(const ScenarioRun& run);
    QBarSeries* histogram() const { return histogram_; }
    const FigureFrame& frame() const { return *frame_; }

private:
    // Bands named "0-10" ... "90-100" where those fit under the bars, else by their lower
    // edges, "0" ... "90".
    void labelBands();

    FigureFrame* frame_;
    QBarSeries* histogram_;
    QBarCategoryAxis* bands_;
    FigureAxis* links_;
};

} // namespace podscope::ui
