#include "trace/TraceEvents.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace podscope::trace {

double toTraceMicros(double seconds) {
    return std::round(seconds * 1e9) / 1e3;
}

void TraceEvents::processName(int pid, const std::string& name, int sortIndex) {
    events_.push_back({{"ph", "M"},
                       {"pid", pid},
                       {"tid", 0},
                       {"ts", 0},
                       {"name", "process_name"},
                       {"args", {{"name", name}}}});
    events_.push_back({{"ph", "M"},
                       {"pid", pid},
                       {"tid", 0},
                       {"ts", 0},
                       {"name", "process_sort_index"},
                       {"args", {{"sort_index", sortIndex}}}});
}

void TraceEvents::threadName(int pid, int tid, const std::string& name, int sortIndex) {
    events_.push_back({{"ph", "M"},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", 0},
                       {"name", "thread_name"},
                       {"args", {{"name", name}}}});
    events_.push_back({{"ph", "M"},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", 0},
                       {"name", "thread_sort_index"},
                       {"args", {{"sort_index", sortIndex}}}});
}

void TraceEvents::span(int pid, int tid, const std::string& name, double startS, double durationS,
                       nlohmann::json args) {
    nlohmann::json event = {{"ph", "X"},
                            {"pid", pid},
                            {"tid", tid},
                            {"name", name},
                            {"ts", toTraceMicros(startS)},
                            {"dur", toTraceMicros(durationS)}};
    if (!args.empty()) {
        event["args"] = std::move(args);
    }
    events_.push_back(std::move(event));
}

void TraceEvents::spanBetween(int pid, int tid, const std::string& name, double startS, double endS,
                              nlohmann::json args) {
    const double ts = toTraceMicros(startS);
    const double dur = std::max(0.0, std::round((toTraceMicros(endS) - ts) * 1e3) / 1e3);
    nlohmann::json event = {{"ph", "X"},    {"pid", pid}, {"tid", tid},
                            {"name", name}, {"ts", ts},   {"dur", dur}};
    if (!args.empty()) {
        event["args"] = std::move(args);
    }
    events_.push_back(std::move(event));
}

void TraceEvents::counter(int pid, const std::string& name, double atS, nlohmann::json values) {
    events_.push_back({{"ph", "C"},
                       {"pid", pid},
                       {"tid", 0},
                       {"name", name},
                       {"ts", toTraceMicros(atS)},
                       {"args", std::move(values)}});
}

nlohmann::json TraceEvents::toJson(nlohmann::json otherData) const {
    return {
        {"traceEvents", events_}, {"displayTimeUnit", "ms"}, {"otherData", std::move(otherData)}};
}

} // namespace podscope::trace
