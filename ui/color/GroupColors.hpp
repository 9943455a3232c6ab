#pragma once

#include "color/ColorScale.hpp"

#include <string>
#include <vector>

namespace podscope::ui {

// Up to this many groups get a categorical colour each (Okabe and Ito's palette); more share
// the kCycleColors colours of a repeating cycle.
constexpr int kMaxCategoricalGroups = 8;
constexpr int kCycleColors = 8;

// Where in the cycle a group falls, from its block's coordinates (the block's index along each
// dimension): sum of (2d + 1) * coordinate[d] modulo kCycleColors. The weights are odd, so two
// groups whose blocks are neighbours along any dimension never share a colour.
int cycleSlot(const std::vector<int>& blockCoordinates);

// The colour of group `group` (0-based) of `count` groups (replicas, hosts, pods ...). Few
// groups: a colour each. Many (thousands of replicas on the multipod): the colour of `slot`
// (cycleSlot), so neighbouring groups differ and every colour drawn is one of the legend's
// (an index scale with shaded blocks read on screen as one colour that was not on its bar).
Rgb groupColor(int group, int count, int slot);

// The legend for such a colouring: one swatch per group, or one per cycle colour named by the
// lowest group drawn in it (`firstGroupOfSlot[s]`, -1 where no group has slot s). `noun`:
// "replica", "host" ...
Legend groupLegend(const std::string& noun, int count,
                   const std::vector<int>& firstGroupOfSlot = {});

} // namespace podscope::ui
