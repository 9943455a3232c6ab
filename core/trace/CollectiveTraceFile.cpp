#include "trace/CollectiveTraceFile.hpp"

#include "collective/CollectiveJson.hpp"
#include "trace/CollectiveTrace.hpp"
#include "trace/TraceEvents.hpp"

namespace podscope::trace {

nlohmann::json buildCollectiveTrace(const Topology& topology, const CollectiveSpec& spec,
                                    const Record& record, const nlohmann::json& extraOther,
                                    int timeBins) {
    TraceEvents events;
    CollectiveTraceOptions options;
    options.processName = toString(spec.op) + " (event engine, " + toString(spec.algorithm) + ")";
    options.timeBins = timeBins;
    appendCollectiveTrace(events, topology, record, options);
    nlohmann::json other = {
        {"topology", toJson(topology)}, {"collective", toJson(spec)}, {"generator", "podscope"}};
    if (extraOther.is_object()) {
        other.update(extraOther);
    }
    return events.toJson(std::move(other));
}

} // namespace podscope::trace
