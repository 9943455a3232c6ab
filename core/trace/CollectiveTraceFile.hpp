#pragma once

#include "collective/CollectiveSpec.hpp"
#include "collective/Record.hpp"
#include "topology/Topology.hpp"

#include <nlohmann/json.hpp>

namespace podscope::trace {

// One event-engine collective as a whole Chrome trace file: the process appendCollectiveTrace
// builds, with the topology and the collective under otherData so that the run can be
// repeated. `extraOther` (an object) is merged into otherData, e.g. the training scenario the
// collective belongs to.
nlohmann::json buildCollectiveTrace(const Topology& topology, const CollectiveSpec& spec,
                                    const Record& record,
                                    const nlohmann::json& extraOther = nlohmann::json::object(),
                                    int timeBins = 200);

} // namespace podscope::trace
