#include "common/NumberFormat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace podscope {

std::string fixedDecimals(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    std::string s = text;
    // "-0.00" is zero: drop the sign.
    if (s.size() > 1 && s.front() == '-' &&
        std::all_of(s.begin() + 1, s.end(), [](char c) { return c == '0' || c == '.'; })) {
        s.erase(0, 1);
    }
    return s;
}

std::string significantDigits(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    // From 10^digits on, %g writes "9.08e+04": people write the rounded number, grouped.
    if (std::string_view(text).find("e+") != std::string_view::npos) {
        return groupedDecimals(std::strtod(text, nullptr), 0);
    }
    return text;
}

std::string groupDigits(double value) {
    const auto whole = static_cast<long long>(std::llround(std::abs(value)));
    std::string digits = std::to_string(whole);
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
        // One char, not a string: GCC 12 at -O3 reports a false -Wrestrict for the latter.
        digits.insert(static_cast<std::size_t>(at), 1, ',');
    }
    if (value <= -0.5) {
        digits.insert(0, 1, '-');
    }
    return digits;
}

std::string groupedDecimals(double value, int decimals) {
    std::string s = fixedDecimals(value, decimals);
    const std::size_t begin = (!s.empty() && s.front() == '-') ? 1 : 0;
    const std::size_t point = s.find('.');
    const std::size_t end = point == std::string::npos ? s.size() : point;
    // Digits only: "inf" and "nan" stay as they are.
    if (end - begin < 5 || !std::all_of(s.begin() + static_cast<std::ptrdiff_t>(begin),
                                        s.begin() + static_cast<std::ptrdiff_t>(end),
                                        [](char c) { return c >= '0' && c <= '9'; })) {
        return s;
    }
    for (std::size_t at = end; at > begin + 3; at -= 3) {
        s.insert(at - 3, 1, ',');
    }
    return s;
}

std::string readableDuration(double seconds) {
    const double magnitude = std::fabs(seconds);
    if (magnitude < 1e-3) {
        return groupedDecimals(seconds * 1e6, 1) + " µs";
    }
    if (magnitude < 1) {
        return groupedDecimals(seconds * 1e3, 3) + " ms";
    }
    return groupedDecimals(seconds, 2) + " s";
}

std::string roundTripDigits(double value, int digits) {
    char text[64]; // %g as it is: machines read exponents, not commas
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

} // namespace podscope
