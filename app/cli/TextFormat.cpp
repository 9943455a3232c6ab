#include "TextFormat.hpp"

#include "common/NumberFormat.hpp"

#include <cmath>

namespace podscope::cli {

std::string formatNumber(double value, int precision) { return fixedDecimals(value, precision); }

std::string formatDuration(double seconds) {
    const double magnitude = std::fabs(seconds);
    if (magnitude < 1e-3) {
        return formatNumber(seconds * 1e6, 1) + " µs";
    }
    if (magnitude < 1) {
        return formatNumber(seconds * 1e3, 3) + " ms";
    }
    return formatNumber(seconds, 2) + " s";
}

std::string formatBytes(double bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    return formatNumber(bytes, bytes == std::floor(bytes) ? 0 : 2) + " " + units[unit];
}

std::string formatCount(long long count, std::string_view noun, std::string_view plural) {
    std::string text = std::to_string(count) + " ";
    if (count == 1) {
        text += noun;
    } else if (!plural.empty()) {
        text += plural;
    } else {
        text.append(noun).append("s");
    }
    return text;
}

std::string formatPercent(double fraction) { return formatNumber(fraction * 100, 1) + " %"; }

} // namespace podscope::cli
