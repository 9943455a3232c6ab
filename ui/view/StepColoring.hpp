#pragma once

#include "scene/SceneLayout.hpp"
#include "view/FrameColoring.hpp"
#include "view/StepRun.hpp"

#include <vector>

namespace podscope::ui {

// How the step replay colours links: by the kind of traffic they carry (gradient sync,
// model-parallel, batch-norm sums) or by their utilisation (a heat map).
enum class StepLinkColors { TrafficKind, Utilisation };

// Turns a time of the step replay into the colours of one frame: each chip in the colour of
// what it does then (StepTimeline::activityAt), each link by the traffic TimelineLinkUse puts on
// it. Buffers are reused between frames.
class StepColoring {
public:
    // The scene must be built from the run's topology (one position per chip).
    StepColoring(const StepRun& run, const SceneGeometry& scene);

    // `reference`: the chip whose item the caption names (the selected chip, or chip 0).
    // `windowS`: the window utilisation is averaged over. `chipColors`: ChipState colours each
    // chip by its activity; the other modes by its group, as in the collective replay.
    void compute(double t, ChipId reference, StepLinkColors links, double windowS, FrameColors& out,
                 ColorMode chipColors = ColorMode::ChipState);
    const std::vector<podscope::ChipActivity>& activities() const { return activity_; }

private:
    const StepRun& run_;
    const SceneGeometry& scene_;
    std::vector<podscope::ChipActivity> activity_;
    std::vector<podscope::ChipActivity> linkKind_;
    std::vector<float> utilisation_;
};

} // namespace podscope::ui
