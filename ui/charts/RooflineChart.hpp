#pragma once

#include "compute/KernelCost.hpp"
#include "figure/FigureData.hpp"

#include <QChartView>
#include <array>

class QLineSeries;
class QScatterSeries;

namespace podscope::ui {

class FigureAxis;
class FigureFrame;
struct TrainingAnalysis;

// The roofline of one core's training step: each layer's arithmetic intensity (FLOP per byte
// of HBM traffic) against the FLOP/s it achieves, both axes logarithmic, under the HBM roof
// (achieved bandwidth x intensity) and the MXU roof (peak x the calibrated streaming
// efficiency; the nominal peak dashed above it). Points are coloured and shaped by the unit
// that bound the layer. Same data as podscope-cli layers (core's LayerTable).
class RooflineChart : public QChartView {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    void setAnalysis(const TrainingAnalysis& analysis);
    void setFigure(const RooflineFigure& figure);

    const RooflineFigure& figure() const { return figure_; }
    // Points are stored on the axes' scales (log10 of intensity, of TFLOP/s).
    const FigureAxis& intensityAxis() const { return *intensity_; }
    const FigureAxis& flopsAxis() const { return *flops_; }
    // One series per bounding unit (CoreUnit order: MXU, HBM, vector, transcendental, permute,
    // overhead).
    const std::array<QScatterSeries*, kCoreUnitCount>& layerSeries() const { return layers_; }
    QLineSeries* roofSeries() const { return roof_; }
    const FigureFrame& frame() const { return *frame_; }

    // The y axis' unit: FLOP/s per axis value.
    static constexpr double kFlopsPerUnit = 1e12;

private:
    RooflineFigure figure_;
    std::array<std::vector<std::size_t>, kCoreUnitCount>
        shown_; // per series, the layer index of each point
    FigureFrame* frame_;
    QLineSeries* roof_;
    QLineSeries* peak_;
    std::array<QScatterSeries*, kCoreUnitCount> layers_{};
    FigureAxis* intensity_;
    FigureAxis* flops_;
};

} // namespace podscope::ui
