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

// Stops sampled from the plasma colour map (matplotlib, CC0), also perceptually ordered.
constexpr std::array<Rgb, 6> kPlasma = {
    {{13, 8, 135}, {106, 0, 168}, {177, 42, 144}, {225, 100, 98}, {252, 166, 54}, {240, 249, 33}}};

// Okabe and Ito's palette for categorical data, then a few extra distinct hues.
constexpr std::array<Rgb, 10> kCategories = {{{230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {240, 228, 66},
                                              {0, 114, 178}, {213, 94, 0}, {204, 121, 167}, {160, 160, 160},
                                              {150, 90, 40}, {110, 60, 200}}};

std::uint8_t mix(std::uint8_t a, std::uint8_t b, float t) {
    return static_cast<std::uint8_t>(std::lround(a + (b - a) * t));
}

Rgb sample(const std::array<Rgb, 6>& stops, float at) {
    const float u = std::isfinite(at) ? std::clamp(at, 0.0f, 1.0f) : 0.0f;
    const float scaled = u * static_cast<float>(stops.size() - 1);
    const auto low =
        static_cast<std::size_t>(std::min<float>(std::floor(scaled), stops.size() - 2));
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
    return sample(map == ColorMap::GroupIndex ? kPlasma : kViridis, at);
}

Rgb categoryColor(int index) {
    const auto n = static_cast<int>(kCategories.size());
    return kCategories[static_cast<std::size_t>(((index % n) + n) % n)];
}

} // namespace podscope::ui
