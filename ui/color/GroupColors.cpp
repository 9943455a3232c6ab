#include "color/GroupColors.hpp"

#include <array>

namespace podscope::ui {
namespace {

// The cycle: Okabe and Ito's seven hues and a violet from categoryColor's extra ones (its grey
// would read as an idle chip).
constexpr std::array<int, kCycleColors> kCycleCategories = {0, 1, 2, 3, 4, 5, 6, 9};

std::string capitalised(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') {
        text[0] = static_cast<char>(text[0] - 'a' + 'A');
    }
    return text;
}

Rgb cycleColor(int slot) {
    return categoryColor(kCycleCategories[static_cast<std::size_t>(
        ((slot % kCycleColors) + kCycleColors) % kCycleColors)]);
}

} // namespace

int cycleSlot(const std::vector<int>& blockCoordinates) {
    long long sum = 0;
    for (std::size_t d = 0; d < blockCoordinates.size(); ++d) {
        sum += static_cast<long long>(2 * d + 1) * blockCoordinates[d];
    }
    return static_cast<int>(((sum % kCycleColors) + kCycleColors) % kCycleColors);
}

Rgb groupColor(int group, int count, int slot) {
    return count <= kMaxCategoricalGroups ? categoryColor(group) : cycleColor(slot);
}

Legend groupLegend(const std::string& noun, int count, const std::vector<int>& firstGroupOfSlot) {
    Legend legend;
    legend.continuous = false;
    if (count <= kMaxCategoricalGroups) {
        legend.title = capitalised(noun + (count == 1 ? "" : "s"));
        for (int g = 0; g < count; ++g) {
            legend.categories.push_back({noun + " " + std::to_string(g), categoryColor(g)});
        }
        return legend;
    }
    legend.title = capitalised(noun + "s");
    for (int s = 0; s < kCycleColors; ++s) {
        const int first = s < static_cast<int>(firstGroupOfSlot.size())
                              ? firstGroupOfSlot[static_cast<std::size_t>(s)]
                              : -1;
        if (first >= 0) {
            legend.categories.push_back(
                {noun + " " + std::to_string(first) + ", ...", cycleColor(s)});
        }
    }
    legend.note = std::to_string(count) + " " + noun + "s; colours repeat, neighbours differ";
    return legend;
}

} // namespace podscope::ui
