#pragma once

#include "color/ColorScale.hpp"

namespace podscope::ui::palette {

// The colours of every figure (charts in the app, their exports, the report, the 3-D export's
// overlays): Okabe and Ito's palette, distinguishable with the common colour-vision deficiencies
// and in grey. Series differ by line style or marker shape as well, never by colour alone.
inline constexpr Rgb kBlack{0, 0, 0};
inline constexpr Rgb kOrange{230, 159, 0};
inline constexpr Rgb kSkyBlue{86, 180, 233};
inline constexpr Rgb kBluishGreen{0, 158, 115};
inline constexpr Rgb kYellow{240, 228, 66};
inline constexpr Rgb kBlue{0, 114, 178};
inline constexpr Rgb kVermillion{213, 94, 0};
inline constexpr Rgb kReddishPurple{204, 121, 167};
// Neutral greys for reference lines, grids and text.
inline constexpr Rgb kGrey{110, 110, 110};
inline constexpr Rgb kLightGrey{222, 222, 222};
inline constexpr Rgb kText{34, 34, 34};

// Roles, so that a model line or a measurement has one colour in every figure.
inline constexpr Rgb kModel = kBlue;              // what PodScope's model predicts
inline constexpr Rgb kSecondModel = kBluishGreen; // a second modelled quantity (epochs)
inline constexpr Rgb kMeasured = kVermillion;     // published measurements
inline constexpr Rgb kReference = kGrey;          // ideal lines, baselines
inline constexpr Rgb kHighlight = kOrange;        // the best point

// The parts of a training step (kBreakdownParts order): compute, exposed gradient sync,
// model-parallel communication, batch-norm sync, optimizer, input stall, evaluation, overhead,
// recompute.
Rgb breakdownPartColor(int part);

// Link dimensions X, Y, Z, W.
Rgb dimensionColor(int dimension);

} // namespace podscope::ui::palette
