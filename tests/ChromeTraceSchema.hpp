#pragma once

// The rules of the Chrome Trace Event Format that Perfetto's JSON importer relies on, checked
// event by event (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU):
// every event has name, ph, ts (µs), pid and tid; complete events ("X") a duration >= 0 and,
// on one thread, spans that nest in Perfetto's integer nanoseconds (a span starts after the
// previous one ends or lies inside it);
// counters ("C") numeric args; metadata ("M") names processes and threads, and every process and
// thread with events is named.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace podscope::test {

struct TraceCounts {
    int spans = 0;
    int counters = 0;
    int processes = 0;
    int threads = 0;
};

// Fatal failures (ASSERT) end the check, which needs a function returning void.
inline void checkChromeTraceSchema(const nlohmann::json& trace, TraceCounts& counts) {
    ASSERT_TRUE(trace.is_object());
    ASSERT_TRUE(trace.contains("traceEvents") && trace.at("traceEvents").is_array())
        << "no traceEvents array";
    if (trace.contains("displayTimeUnit")) {
        const auto unit = trace.at("displayTimeUnit");
        EXPECT_TRUE(unit == "ms" || unit == "ns") << unit;
    }
    std::set<int> namedProcesses, usedProcesses;
    std::set<std::pair<int, int>> namedThreads, usedThreads;
    // In integer nanoseconds, as Perfetto's JSON importer reads them (llround(µs * 1000)).
    std::map<std::pair<int, int>, std::vector<std::pair<std::int64_t, std::int64_t>>> spansByThread;
    for (const auto& e : trace.at("traceEvents")) {
        ASSERT_TRUE(e.is_object());
        for (const char* key : {"ph", "pid", "tid", "name", "ts"}) {
            ASSERT_TRUE(e.contains(key)) << key << " missing in " << e.dump();
        }
        ASSERT_TRUE(e.at("name").is_string()) << e.dump();
        ASSERT_TRUE(e.at("ph").is_string()) << e.dump();
        ASSERT_TRUE(e.at("pid").is_number_integer()) << e.dump();
        ASSERT_TRUE(e.at("tid").is_number_integer()) << e.dump();
        ASSERT_TRUE(e.at("ts").is_number()) << e.dump();
        const std::string ph = e.at("ph");
        const int pid = e.at("pid");
        const int tid = e.at("tid");
        const double ts = e.at("ts");
        EXPECT_TRUE(std::isfinite(ts) && ts >= 0) << e.dump();
        if (e.contains("args")) {
            EXPECT_TRUE(e.at("args").is_object()) << e.dump();
        }
        if (ph == "M") {
            ASSERT_TRUE(e.contains("args")) << e.dump();
            const std::string name = e.at("name");
            const auto& args = e.at("args");
            if (name == "process_name" || name == "thread_name") {
                EXPECT_TRUE(args.contains("name") && args.at("name").is_string()) << e.dump();
                if (name == "process_name") {
                    namedProcesses.insert(pid);
                    ++counts.processes;
                } else {
                    namedThreads.insert({pid, tid});
                    ++counts.threads;
                }
            } else if (name == "process_sort_index" || name == "thread_sort_index") {
                EXPECT_TRUE(args.contains("sort_index") &&
                            args.at("sort_index").is_number_integer())
                    << e.dump();
            } else {
                ADD_FAILURE() << "unknown metadata " << e.dump();
            }
        } else if (ph == "X") {
            ASSERT_TRUE(e.contains("dur") && e.at("dur").is_number()) << e.dump();
            const double dur = e.at("dur");
            EXPECT_TRUE(std::isfinite(dur) && dur >= 0) << e.dump();
            usedProcesses.insert(pid);
            usedThreads.insert({pid, tid});
            const std::int64_t startNs = std::llround(ts * 1000.0);
            spansByThread[{pid, tid}].emplace_back(startNs, startNs + std::llround(dur * 1000.0));
            ++counts.spans;
        } else if (ph == "C") {
            ASSERT_TRUE(e.contains("args") && e.at("args").is_object() && !e.at("args").empty())
                << e.dump();
            for (const auto& [key, value] : e.at("args").items()) {
                EXPECT_TRUE(value.is_number() && std::isfinite(value.get<double>()))
                    << key << " in " << e.dump();
            }
            usedProcesses.insert(pid);
            ++counts.counters;
        } else {
            ADD_FAILURE() << "unexpected phase " << ph;
        }
    }
    for (const int pid : usedProcesses) {
        EXPECT_TRUE(namedProcesses.count(pid)) << "process " << pid << " has no process_name";
    }
    for (const auto& thread : usedThreads) {
        EXPECT_TRUE(namedThreads.count(thread))
            << "thread " << thread.first << "/" << thread.second << " has no thread_name";
    }
    // Spans on a thread nest: sorted by start (longer first), each lies inside the innermost open
    // span or starts after it ends.
    for (auto& [thread, spans] : spansByThread) {
        std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
        std::vector<std::int64_t> open; // ends of the enclosing spans
        for (const auto& [start, end] : spans) {
            while (!open.empty() && open.back() <= start) {
                open.pop_back();
            }
            if (!open.empty()) {
                EXPECT_LE(end, open.back())
                    << "span [" << start << ", " << end << "] overlaps its neighbour on thread "
                    << thread.first << "/" << thread.second;
            }
            open.push_back(end);
        }
    }
}

inline TraceCounts expectChromeTraceSchema(const nlohmann::json& trace) {
    TraceCounts counts;
    checkChromeTraceSchema(trace, counts);
    return counts;
}

} // namespace podscope::test
