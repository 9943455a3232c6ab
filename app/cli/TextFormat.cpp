#include "TextFormat.hpp"

#include "collective/DcnAllReduce.hpp"
#include "common/NumberFormat.hpp"
#include "training/Scenario.hpp"

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

std::string formatBandwidth(double bytesPerSecond) {
    if (std::fabs(bytesPerSecond) < 1e9) {
        return significantDigits(bytesPerSecond / 1e6) + " MB/s";
    }
    return significantDigits(bytesPerSecond / 1e9) + " GB/s";
}

std::string dcnStageText(const Scenario& s, const DcnAllReduce& dcn) {
    if (dcn.slices <= 1) {
        return {};
    }
    const double seconds = dcn.seconds();
    // A ring reduce-scatter then all-gather sends 2(S-1)/S of the bytes from each host.
    const double sent = 2.0 * (dcn.slices - 1) / dcn.slices * dcn.bytesPerHost;
    return "DCN stage      " + formatDuration(seconds) + " per step: all-reduce of " +
           formatBytes(dcn.bytesPerHost) + " per host across " + formatCount(dcn.slices, "slice") +
           " (ring sends " + formatBytes(sent) + " per host)\n               DCN bandwidth " +
           formatBandwidth(dcn.hostBps) + " per host (" +
           (s.dcnBandwidthGBps ? "given" : "the machine file's") + "), " +
           formatBandwidth(seconds > 0 ? sent / seconds : 0) + " in use over the stage\n";
}

} // namespace podscope::cli
