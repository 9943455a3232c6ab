#include "TextFormat.hpp"

#include "collective/DcnAllReduce.hpp"
#include "common/NumberFormat.hpp"
#include "training/Scenario.hpp"

#include <cmath>

namespace podscope::cli {

std::string formatNumber(double value, int precision) {
    return groupedDecimals(value, precision);
}

std::string formatDuration(double seconds) {
    return readableDuration(seconds);
}

std::size_t displayWidth(std::string_view text) {
    std::size_t columns = 0;
    for (const char c : text) {
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0; // not a continuation
    }
    return columns;
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
    std::string text = groupedDecimals(static_cast<double>(count), 0) + " ";
    if (count == 1) {
        text += noun;
    } else if (!plural.empty()) {
        text += plural;
    } else {
        text.append(noun).append("s");
    }
    return text;
}

std::string formatPercent(double fraction) {
    return formatNumber(fraction * 100, 1) + " %";
}

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
