#pragma once

#include "collective/CollectiveResult.hpp"
#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

#include <nlohmann/json.hpp>

namespace podscope {

// Field names match `podscope-cli collective --json` (docs/cli.md).
nlohmann::json toJson(const CollectiveResult& result);
nlohmann::json toJson(const CollectiveSpec& spec);
nlohmann::json toJson(const Topology& topology);

} // namespace podscope
