#include "common/NumberFormat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

std::string roundTripDigits(double value, int digits) {
    return significantDigits(value, digits);
}

} // namespace podscope
