#include "figure/Palette.hpp"

#include <array>

namespace podscope::ui::palette {

Rgb breakdownPartColor(int part) {
    // Compute, the part every step has, in the model's blue; the communication parts (gradient
    // sync, model-parallel exchanges, batch-norm sums) in orange, purple and green; the rest in
    // the palette's remaining hues; the fixed overhead in grey; recomputation (rare) in black.
    // One colour per part of kBreakdownParts, none repeated.
    static constexpr std::array<Rgb, 9> kParts = {kBlue,        kOrange,     kReddishPurple,
                                                  kBluishGreen, kVermillion, kSkyBlue,
                                                  kYellow,      kGrey,       kBlack};
    return kParts[static_cast<std::size_t>(((part % 9) + 9) % 9)];
}

Rgb dimensionColor(int dimension) {
    static constexpr std::array<Rgb, 4> kDimensions = {kBlue, kOrange, kBluishGreen,
                                                       kReddishPurple};
    return kDimensions[static_cast<std::size_t>(((dimension % 4) + 4) % 4)];
}

} // namespace podscope::ui::palette
