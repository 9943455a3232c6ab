#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace podscope::trace {

// Builds a Chrome Trace Event Format file (the JSON object form), which Perfetto and
// chrome://tracing both open. Times are given in seconds and written in microseconds, the
// unit the format requires for "ts" and "dur".
class TraceEvents {
public:
    void processName(int pid, const std::string& name, int sortIndex);
    void threadName(int pid, int tid, const std::string& name, int sortIndex);
    // A complete ("X") event: a span on one track.
    void span(int pid, int tid, const std::string& name, double startS, double durationS,
              nlohmann::json args = nlohmann::json::object());
    // The same from start to end, both rounded alike, so that spans that follow one another
    // exactly never overlap in the file (an overlap breaks the nesting of a track).
    void spanBetween(int pid, int tid, const std::string& name, double startS, double endS,
                     nlohmann::json args = nlohmann::json::object());
    // A counter ("C") sample; each key of `values` becomes one series of the counter track.
    void counter(int pid, const std::string& name, double atS, nlohmann::json values);

    std::size_t size() const { return events_.size(); }
    // {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": ...}.
    nlohmann::json toJson(nlohmann::json otherData = nlohmann::json::object()) const;

private:
    nlohmann::json events_ = nlohmann::json::array();
};

// Seconds to trace microseconds, rounded to a nanosecond so that files stay short.
double toTraceMicros(double seconds);

} // namespace podscope::trace
