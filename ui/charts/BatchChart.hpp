#pragma once

#include "view/TrainingAnalysis.hpp"

#include <QChartView>

class QLineSeries;
class QScatterSeries;
class QLogValueAxis;
class QValueAxis;

namespace podscope::ui {

// Time to train against global batch on the current slice: a larger batch runs faster steps
// but needs more epochs to converge. The fastest batch is marked: the paper's batch-size limit.
class BatchChart : public QChartView {
    Q_OBJECT
public:
    explicit BatchChart(QWidget* parent = nullptr);
    void setAnalysis(const TrainingAnalysis& analysis);
    QLineSeries* timeSeries() const { return time_; }
    QScatterSeries* fastestSeries() const { return fastest_; }

private:
    QLineSeries* time_;
    QLineSeries* epochs_;
    QScatterSeries* fastest_;
    QScatterSeries* current_;
    QLogValueAxis* batchAxis_;
    QValueAxis* timeAxis_;
    QValueAxis* epochsAxis_;
};

} // namespace podscope::ui
