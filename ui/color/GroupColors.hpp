#pragma once

#include "color/ColorScale.hpp"

#include <string>

namespace podscope::ui {

// Up to this many groups get distinct categorical colours (Okabe and Ito's palette); more
// would repeat colours and read as confetti.
constexpr int kMaxCategoricalGroups = 8;

// The colour of group `group` (0-based) of `count` groups (replicas, hosts, pods ...). Few
// groups: a categorical colour each. Many: a sequential colour map by group index, so the
// colour bar says roughly which group a chip is in; `alternate` marks every other block of
// chips (a checkerboard of groups), drawn darker (or, where the map is dark, lighter), so that
// neighbouring groups stay apart where their indices, and so their colours, are close.
Rgb groupColor(int group, int count, bool alternate);

// The legend for such a colouring: one swatch per group, or the group-index colour bar.
// `noun`: "replica", "host" ...
Legend groupLegend(const std::string& noun, int count);

} // namespace podscope::ui
