#include "color/GroupColors.hpp"

#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

// How far alternate blocks are mixed towards black (light colours) or white (dark ones).
constexpr float kAlternateShift = 0.45f;

Rgb shifted(Rgb c) {
    const bool light = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b > 110;
    const auto towards = [light](std::uint8_t v) {
        const float target = light ? 0.0f : 255.0f;
        return static_cast<std::uint8_t>(std::lround(v + (target - v) * kAlternateShift));
    };
    return {towards(c.r), towards(c.g), towards(c.b)};
}

std::string capitalised(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') {
        text[0] = static_cast<char>(text[0] - 'a' + 'A');
    }
    return text;
}

} // namespace

Rgb groupColor(int group, int count, bool alternate) {
    if (count <= kMaxCategoricalGroups) {
        return categoryColor(group);
    }
    // The middle of the group's stretch of the colour bar, which runs from 0 to `count`.
    const float at =
        (static_cast<float>(std::clamp(group, 0, count - 1)) + 0.5f) / static_cast<float>(count);
    const Rgb color = colorMapAt(ColorMap::GroupIndex, at);
    return alternate ? shifted(color) : color;
}

Legend groupLegend(const std::string& noun, int count) {
    Legend legend;
    if (count <= kMaxCategoricalGroups) {
        legend.title = capitalised(noun + (count == 1 ? "" : "s"));
        legend.continuous = false;
        for (int g = 0; g < count; ++g) {
            legend.categories.push_back({noun + " " + std::to_string(g), categoryColor(g)});
        }
        return legend;
    }
    legend.title = capitalised(noun) + " index";
    legend.continuous = true;
    legend.map = ColorMap::GroupIndex;
    legend.minimum = 0;
    legend.maximum = count;
    legend.note = std::to_string(count) + " " + noun + "s; neighbours alternate in shade";
    return legend;
}

} // namespace podscope::ui
