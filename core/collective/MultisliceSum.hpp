#pragma once

#include "collective/CollectiveSpec.hpp"
#include "collective/EventEngine.hpp"
#include "topology/Topology.hpp"

#include <string>

namespace podscope {

// `first`, then a stage of `gapS` that uses no ICI link (named `gapName`, a phase of collective
// 0), then `second` shifted after it: its rings, transfers and phases appended, its ring phase
// indices moved past the gap. Neither record changes.
Record joinRecords(const Record& first, double gapS, const std::string& gapName,
                   const Record& second);

// The gradient sum of one slice of a multislice run as the plan times it (docs/multislice.md):
// the slice's reduce-scatter over the ICI, the all-reduce across `slices` over the DCN for
// `dcnS` (the core's DCN stage; no ICI link), then the all-gather over the ICI. `allReduce` is
// the slice's all-reduce; both ICI parts are simulated by the event engine. The result reports
// the three parts as its phases and their sum as its time.
EventSimulation multisliceGradientSum(const Topology& topology, const CollectiveSpec& allReduce,
                                      int slices, double dcnS, const StopFlag* stop = nullptr);

// The DCN stage's name: the step timeline's item and the replay's phase, so the view finds it.
std::string dcnStageName(int slices);

} // namespace podscope
