#pragma once

#include "color/ColorScale.hpp"
#include "timeline/StepTimeline.hpp"

#include <vector>

namespace podscope::ui {

// One colour per chip activity of the step timeline, in the 3-D step replay, its legend and the
// timeline panel. Okabe and Ito's hues (figure/Palette.hpp) for the eight things a chip does,
// in the breakdown chart's colours where a part has one (compute blue, gradient sync orange,
// model-parallel purple, batch-norm green, optimizer vermillion, evaluation yellow); the three
// ways of not computing in greys of distinct lightness, readable on the view's dark background
// and on the panel's light one.
Rgb activityColor(podscope::ChipActivity activity);

// The activities in the order legends and the panel's stacked counts list them.
const std::vector<podscope::ChipActivity>& activitiesInLegendOrder();

// The categorical legend of activityColor.
Legend activityLegend();

// Whether an activity puts traffic on the links (gradient sync, model-parallel, batch-norm).
bool carriesTraffic(podscope::ChipActivity activity);

} // namespace podscope::ui
