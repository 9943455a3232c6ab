#include "scene/LinkKey.hpp"

#include <algorithm>

namespace podscope::ui {

LinkStroke strokeOf(LinkKind kind) {
    switch (kind) {
    case LinkKind::InBlock: return LinkStroke::Solid;
    case LinkKind::BetweenBlocks: return LinkStroke::Dashed;
    case LinkKind::WrapAround: return LinkStroke::Dotted;
    }
    return LinkStroke::Solid;
}

namespace {

std::string dimsText(const std::vector<int>& dims) {
    std::string out;
    for (const int d : dims) {
        out += (out.empty() ? "" : "x") + std::to_string(d);
    }
    return out;
}

} // namespace

bool keyIsWorthShowing(const std::vector<LinkKeyEntry>& key) {
    return std::any_of(key.begin(), key.end(), [](const LinkKeyEntry& entry) {
        return entry.stroke == LinkStroke::Dashed || entry.stroke == LinkStroke::Curve ||
               entry.optical;
    });
}

std::vector<LinkKeyEntry> linkKey(const SceneGeometry& scene, const std::vector<int>& opticalCube) {
    auto drawn = [&](LinkKind kind) {
        return std::find(scene.linkKinds.begin(), scene.linkKinds.end(), kind) !=
               scene.linkKinds.end();
    };
    // Blocks are drawn exactly when a layout explodes the slice; they are the machine's cubes
    // only when their edges are the cube's.
    const bool cubes = !opticalCube.empty() && scene.blockEdge == opticalCube;
    const bool blocks = !scene.blockEdge.empty();
    std::vector<LinkKeyEntry> key;
    if (drawn(LinkKind::InBlock)) {
        key.push_back({strokeOf(LinkKind::InBlock),
                       cubes    ? "in a " + dimsText(opticalCube) + " cube (electrical)"
                       : blocks ? "in a " + dimsText(scene.blockEdge) + " block"
                                : "ICI link"});
    }
    if (drawn(LinkKind::BetweenBlocks)) {
        key.push_back({strokeOf(LinkKind::BetweenBlocks),
                       cubes ? "between cubes (optical)" : "between blocks", cubes});
    }
    if (drawn(LinkKind::WrapAround)) {
        key.push_back({strokeOf(LinkKind::WrapAround),
                       cubes ? "wrap-around (optical)" : "wrap-around", cubes});
    }
    if (!scene.dcnLinks.empty()) {
        key.push_back({LinkStroke::Curve, "DCN, one per host"});
    }
    return key;
}

} // namespace podscope::ui
