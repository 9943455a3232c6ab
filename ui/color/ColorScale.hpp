#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace podscope::ui {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb&) const = default;
};

// Link utilisation 0..1 on a perceptually ordered scale (dark blue, teal, green, yellow);
// values outside are clamped for display only.
Rgb utilizationColor(float utilization);

// The continuous colour maps: link utilisation (viridis) and group index (plasma, so that
// chips coloured by group never read as link load).
enum class ColorMap { Utilization, GroupIndex };

// A colour map at 0..1; values outside are clamped for display only.
Rgb colorMapAt(ColorMap map, float at);

// Distinct colours for categories (groups, hosts, pods), cycling after the palette ends.
Rgb categoryColor(int index);

// What a legend shows: a continuous scale with its unit, or named categories.
struct Legend {
    std::string title;
    bool continuous = true;
    double minimum = 0, maximum = 1;
    std::string unit;
    std::vector<std::pair<std::string, Rgb>> categories;
    ColorMap map = ColorMap::Utilization; // of a continuous scale
    std::string note;                     // a line under the scale, e.g. how blocks are marked
    bool operator==(const Legend&) const = default;
};

} // namespace podscope::ui
