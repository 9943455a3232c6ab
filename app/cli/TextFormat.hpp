#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace podscope {
struct DcnAllReduce;
struct Scenario;
} // namespace podscope

namespace podscope::cli {

// Seconds as "812.4 µs", "3.21 ms", "28.9 s" (µs as in the app; JSON keys keep "_us").
std::string formatDuration(double seconds);
// A count and its noun, singular for one: "1 step", "4 steps", "2 link occupancies" (`plural`
// when it is not the noun plus "s").
std::string formatCount(long long count, std::string_view noun, std::string_view plural = {});
// Bytes as "64 MiB".
std::string formatBytes(double bytes);
// A fraction as "65.2 %".
std::string formatPercent(double fraction);
std::string formatNumber(double value, int precision = 1);
// Columns on a terminal: UTF-8 characters, not bytes ("µs" is two columns).
std::size_t displayWidth(std::string_view text);
// A bandwidth in bytes per second as "25 GB/s", "12.5 GB/s", "800 MB/s" (three significant digits).
std::string formatBandwidth(double bytesPerSecond);
// Multislice (docs/multislice.md): the DCN stage of the gradient sum as the lines of `simulate`
// and `timeline`: its time, the bytes each host all-reduces, the DCN bandwidth per host the model
// used (given or the machine's) and the rate the ring moves them at. Empty for one slice.
std::string dcnStageText(const Scenario& scenario, const DcnAllReduce& dcn);

} // namespace podscope::cli
