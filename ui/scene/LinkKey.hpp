#pragma once

#include "scene/SceneLayout.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace podscope::ui {

// How each kind of link is drawn, one place for the view and its key: inside a block solid,
// between blocks dashed, wrap-around dotted; the DCN between slices as long curves.
enum class LinkStroke : std::uint8_t { Solid, Dashed, Dotted, Curve };

LinkStroke strokeOf(LinkKind kind);

struct LinkKeyEntry {
    LinkStroke stroke = LinkStroke::Solid;
    std::string label;
    bool optical = false; // runs through the machine's optical switches
    bool operator==(const LinkKeyEntry&) const = default;
};

// The key of the kinds of link this scene draws, and only those: inside a block, between blocks,
// wrap-around, DCN. `opticalCube` is the machine's (Machine::opticalCube): where the scene's blocks
// are those cubes, the links leaving them are named optical.
std::vector<LinkKeyEntry> linkKey(const SceneGeometry& scene, const std::vector<int>& opticalCube);

// Whether a key says more than the scene shows by itself: links between blocks, optical links or
// the DCN. A plain torus (its links and their wrap-around) goes without, so that the legend
// column keeps its room on a small screen (a ring demo at 1024x768).
bool keyIsWorthShowing(const std::vector<LinkKeyEntry>& key);

} // namespace podscope::ui
