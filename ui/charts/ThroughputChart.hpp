#pragma once

#include "view/TrainingAnalysis.hpp"

#include <QChartView>

class QLineSeries;
class QScatterSeries;
class QLogValueAxis;

namespace podscope::ui {

// Throughput against chips at the current global batch: the model's curve, ideal linear
// scaling from its smallest point, and the measured MLPerf v0.7 points of the same model.
class ThroughputChart : public QChartView {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);
    void setAnalysis(const TrainingAnalysis& analysis);
    QLineSeries* modelSeries() const { return model_; }
    QScatterSeries* measuredSeries() const { return measured_; }

private:
    QLineSeries* model_;
    QLineSeries* ideal_;
    QScatterSeries* measured_;
    QLogValueAxis* chipsAxis_;
    QLogValueAxis* throughputAxis_;
};

} // namespace podscope::ui
