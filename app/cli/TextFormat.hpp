#pragma once

#include <string>

namespace podscope::cli {

// Seconds as "812.4 us", "3.21 ms", "28.9 s".
std::string formatDuration(double seconds);
// Bytes as "64 MiB".
std::string formatBytes(double bytes);
// A fraction as "65.2 %".
std::string formatPercent(double fraction);
std::string formatNumber(double value, int precision = 1);

} // namespace podscope::cli
