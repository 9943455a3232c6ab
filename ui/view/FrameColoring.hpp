#pragma once

#include "collective/CollectiveSpec.hpp"
#include "color/ColorScale.hpp"
#include "scene/Replay.hpp"
#include "scene/SceneLayout.hpp"
#include "topology/Topology.hpp"

#include <string>
#include <vector>

namespace podscope::ui {

// What chips are coloured by; links always show their utilisation per direction.
enum class ColorMode { ChipState, ReplicaGroup, ModelParallelGroup, Host, Pod };

ColorMode parseColorMode(const std::string& text); // InputError("color-by", ...)
std::string toString(ColorMode mode);
std::vector<ColorMode> allColorModes();

struct FrameColors {
    std::vector<Rgb> chips;
    std::vector<Rgb> links; // SceneGeometry::links order
    std::vector<Vec3> markers;
    Legend chipLegend;
    Legend linkLegend;
    std::string caption;
};

// Turns a replay time into the colours of one frame. Buffers are reused between frames so
// that playing the animation allocates nothing per frame.
class FrameColoring {
public:
    // `modelParallelTile`: chips per model-parallel group along each dimension (1x1 when none).
    FrameColoring(const Topology& topology, const SceneGeometry& scene, const Replay& replay,
                  std::vector<int> modelParallelTile);

    // `windowS`: the sliding window over which link utilisation is averaged.
    void compute(double t, double windowS, ColorMode mode, FrameColors& out);

private:
    const Topology& topology_;
    const SceneGeometry& scene_;
    const Replay& replay_;
    std::vector<int> tile_;
    std::vector<float> utilization_;
    std::vector<ChipActivity> activity_;
    std::vector<Replay::InFlight> inFlight_;
};

} // namespace podscope::ui
