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

// Distinct colours for categories (groups, hosts, pods), cycling after the palette ends.
Rgb categoryColor(int index);

// What a legend shows: a continuous scale with its unit, or named categories.
struct Legend {
    std::string title;
    bool continuous = true;
    double minimum = 0, maximum = 1;
    std::string unit;
    std::vector<std::pair<std::string, Rgb>> categories;
    bool operator==(const Legend&) const = default;
};

} // namespace podscope::ui
