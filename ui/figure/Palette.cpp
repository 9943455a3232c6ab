#include "figure/Palette.hpp"

#include <array>

namespace podscope::ui::palette {

Rgb breakdownPartColor(int part) {
    // Compute, the part every step has, in the model's blue; the communication parts in warm
    // colours; the rest in the palette's remaining hues.
    static constexpr std::array<Rgb, 7> kParts = {
        kBlue, kOrange, kReddishPurple, kBluishGreen, kVermillion, kSkyBlue, kYellow};
    return kParts[static_cast<std::size_t>(((part % 7) + 7) % 7)];
}

Rgb dimensionColor(int dimension) {
    static constexpr std::array<Rgb, 4> kDimensions = {kBlue, kOrange, kBluishGreen,
                                                       kReddishPurple};
    return kDimensions[static_cast<std::size_t>(((dimension % 4) + 4) % 4)];
}

} // namespace podscope::ui::palette
