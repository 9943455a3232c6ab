#pragma once

#include "topology/Topology.hpp"

#include <utility>
#include <vector>

namespace podscope::ui::test {

// A bare grid of these dimensions and wrap-around, for scene layout tests (no links' numbers:
// the layouts place chips and links only).
inline Topology grid(std::vector<int> dims, std::vector<bool> wrap) {
    TopologySpec spec;
    spec.name = "test";
    spec.dims = std::move(dims);
    spec.wrap = std::move(wrap);
    return Topology(spec);
}

} // namespace podscope::ui::test
