#pragma once

#include <string>

namespace podscope {

// Numbers as people write them, one implementation for the CLI, the app's figures and the
// report (locale-independent: a decimal point, commas between thousands).

// `decimals` places: fixedDecimals(0.6994, 2) == "0.70"; a negative zero loses its sign.
std::string fixedDecimals(double value, int decimals);

// Up to `digits` significant digits, trailing zeros dropped: 43.1, 102, 0.699; from 10^digits
// on, the rounded number grouped as groupedDecimals writes it: 1,230,000.
std::string significantDigits(double value, int digits = 3);

// The rounded whole number with commas between thousands: "1,048,576", "-512".
std::string groupDigits(double value);

// `decimals` places, the whole part grouped by commas from five digits on, as style guides
// write numbers in running text: "4096", "90,788", "1,048,576.5".
std::string groupedDecimals(double value, int decimals);

// A duration as the CLI and the app write it: "812.4 µs", "3.210 ms", "28.90 s", "2,561.79 s".
std::string readableDuration(double seconds);

// Enough digits to read the value back (files meant for machines: CSV, the report's tables).
std::string roundTripDigits(double value, int digits = 9);

} // namespace podscope
