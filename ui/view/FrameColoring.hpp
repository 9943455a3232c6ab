#pragma once

#include "collective/CollectiveSpec.hpp"
#include "color/ColorScale.hpp"
#include "scene/Replay.hpp"
#include "scene/SceneLayout.hpp"
#include "topology/Topology.hpp"

#include <string>
#include <vector>

namespace podscope::ui {

// What chips are coloured by; links always show their utilisation per direction. A replica is
// one copy of the model on its cores; a data-parallel group is the chips at the same place in
// every replica, which sum their gradients together (docs/user-guide.md, "Terms").
enum class ColorMode { ChipState, Replica, DataParallelGroup, Host, Pod };

// Also accepts the names of earlier versions: model-parallel-group (replica) and
// replica-group (data-parallel-group). InputError("color-by", ...) for anything else.
ColorMode parseColorMode(const std::string& text);
std::string toString(ColorMode mode);
std::vector<ColorMode> allColorModes();

struct FrameColors {
    std::vector<Rgb> chips;
    std::vector<Rgb> links; // SceneGeometry::links order
    // Multislice: every DCN link between the slices (SceneGeometry::dcnLinks), busy while the
    // step timeline's DCN stage runs.
    Rgb dcnLink{58, 62, 72};
    std::vector<Vec3> markers;
    Legend chipLegend;
    Legend linkLegend;
    std::string caption;
};

// Turns a replay time into the colours of one frame. Buffers are reused between frames so
// that playing the animation allocates nothing per frame.
class FrameColoring {
public:
    // `replicaTile`: chips per replica along each dimension (1x1 when a replica fits on one
    // chip); `replicasPerChip`: 2 when each core of a chip holds a replica of its own.
    FrameColoring(const Topology& topology, const SceneGeometry& scene, const Replay& replay,
                  std::vector<int> replicaTile, int replicasPerChip = 1);

    // Multislice: the replay's DCN stage (ScenarioRun::dcnStartS, dcnEndS), when the DCN links
    // are in use (`linkUse`, 0..1) and every chip's shard is on its way across the slices.
    void setDcnStage(double startS, double endS, double linkUse);

    // `windowS`: the sliding window over which link utilisation is averaged.
    void compute(double t, double windowS, ColorMode mode, FrameColors& out);

private:
    const Topology& topology_;
    const SceneGeometry& scene_;
    const Replay& replay_;

    std::vector<int> tile_;
    int replicasPerChip_ = 1;
    double dcnStartS_ = 0, dcnEndS_ = 0, dcnLinkUse_ = 1;
    std::vector<float> utilization_;
    std::vector<ChipActivity> activity_;
    std::vector<Replay::InFlight> inFlight_;
};

} // namespace podscope::ui
