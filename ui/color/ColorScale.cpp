#include "color/ColorScale.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace podscope::ui {
namespace {

// Stops sampled from the viridis colour map (matplotlib, CC0), which stays readable in grey
// and for the common colour-vision deficiencies.
constexpr std::array<Rgb, 6> kViridis = {{{68, 1, 84}, {65, 68, 135}, {42, 120, 142}, {34, 168, 132}, {122, 209, 81},
                                          {253, 231, 37}}};

// Okabe and Ito's palette for categorical data, then a few extra distinct hues.
constexpr std::array<Rgb, 10> kCategories = {{{230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {240, 228, 66},
                                              {0, 114, 178}, {213, 94, 0}, {204, 121, 167}, {160, 160, 160},
                                              {150, 90, 40}, {110, 60, 200}}};

std::uint8_t mix(std::uint8_t a, std::uint8_t b, float t) {
    return static_cast<std::uint8_t>(std::lround(a + (b - a) * t));
}

} // namespace

Rgb utilizationColor(float utilization) {
    const float u = std::isfinite(utilization) ? std::clamp(utilization, 0.0f, 1.0f) : 0.0f;
    const float scaled = u * static_cast<float>(kViridis.size() - 1);
    const auto low = static_cast<std::size_t>(std::min<float>(std::floor(scaled), kViridis.size() - 2));
    const float t = scaled - static_cast<float>(low);
    const Rgb a = kViridis[low];
    const Rgb b = kViridis[low + 1];
    return {mix(a.r, b.r, t), mix(a.g, b.g, t), mix(a.b, b.b, t)};
}

Rgb categoryColor(int index) {
    const auto n = static_cast<int>(kCategories.size());
    return kCategories[static_cast<std::size_t>(((index % n) + n) % n)];
}

} // namespace podscope::ui
