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

// ColorBrewer's YlOrBr (Cynthia Brewer, colorbrewer2.org), pale yellow to brown, without its
// near-white first and darkest last class: ordered in lightness, safe for the common
// colour-vision deficiencies, and sharing no hue with viridis, so that chips coloured by group
// never read as link load.
constexpr std::array<Rgb, 7> kYellowOrangeBrown = {{{255, 247, 188},
                                                    {254, 227, 145},
                                                    {254, 196, 79},
                                                    {254, 153, 41},
                                                    {236, 112, 20},
                                                    {204, 76, 2},
                                                    {153, 52, 4}}};

// Okabe and Ito's palette for categorical data, then a few extra distinct hues.
constexpr std::array<Rgb, 10> kCategories = {{{230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {240, 228, 66},
                                              {0, 114, 178}, {213, 94, 0}, {204, 121, 167}, {160, 160, 160},
                                              {150, 90, 40}, {110, 60, 200}}};

std::uint8_t mix(std::uint8_t a, std::uint8_t b, float t) {
    return static_cast<std::uint8_t>(std::lround(a + (b - a) * t));
}

template <std::size_t N> Rgb sample(const std::array<Rgb, N>& stops, float at) {
    const float u = std::isfinite(at) ? std::clamp(at, 0.0f, 1.0f) : 0.0f;
    const float scaled = u * static_cast<float>(N - 1);
    const auto low = static_cast<std::size_t>(std::min<float>(std::floor(scaled), N - 2));
    const float t = scaled - static_cast<float>(low);
    const Rgb a = stops[low];
    const Rgb b = stops[low + 1];
    return {mix(a.r, b.r, t), mix(a.g, b.g, t), mix(a.b, b.b, t)};
}

} // namespace

Rgb utilizationColor(float utilization) {
    return sample(kViridis, utilization);
}

Rgb colorMapAt(ColorMap map, float at) {
    return map == ColorMap::GroupIndex ? sample(kYellowOrangeBrown, at) : sample(kViridis, at);
}

Rgb categoryColor(int index) {
    const auto n = static_cast<int>(kCategories.size());
    return kCategories[static_cast<std::size_t>(((index % n) + n) % n)];
}

} // namespace podscope::ui
