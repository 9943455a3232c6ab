#pragma once

#include <functional>
#include <string>
#include <vector>

namespace podscope::ui {

// How a tick label writes its number.
enum class NumberStyle {
    // Decimal: plain up to 9999, then 10k, 250k, 1.5M, 2G (k = 1000).
    Decimal,
    // Binary, for powers of two such as global batches: plain up to 512, then 1k, 64k, 1M
    // (k = 1024, M = 1024 k); the axis title says so.
    Binary,
};

enum class AxisScale { Linear, Log };

struct Tick {
    double value = 0;
    std::string label;
    bool operator==(const Tick&) const = default;
};

// One way to tick an axis: its range (data units) and labelled ticks inside it.
struct AxisTicks {
    double low = 0, high = 1;
    std::vector<Tick> ticks;
    bool operator==(const AxisTicks&) const = default;
};

// The number as a tick label, with as many decimals as `step` (the distance to the next tick)
// needs, so that neighbouring labels differ: formatTick(65536, Binary, 32768) == "64k",
// formatTick(0.25, Decimal, 0.05) == "0.25", formatTick(15000, Decimal, 5000) == "15k".
std::string formatTick(double value, NumberStyle style, double step);

// The 1-2-5 step (1, 2, 5, 10, 20, 50 ...) just above `roughStep`.
double niceStep(double roughStep);

// Ways to tick a linear axis over the data [low, high], densest first: for each 1-2-5 step, the
// range rounded out to multiples of the step (from zero when `fromZero` and the data is not
// negative) and every multiple inside it. At most `maxTicks` ticks each.
std::vector<AxisTicks> linearTickChoices(double low, double high, bool fromZero, NumberStyle style,
                                         int maxTicks = 12);

// Ways to tick a logarithmic axis over the data [low, high] (both > 0), densest first. The range
// is the data widened by a quarter of an octave (base 2) or a tenth of a decade (base 10) on each
// side, so that points at the ends are drawn whole. Base 2: every power of two, then every second,
// fourth ... power. Base 10: 1-2-5 in every decade, then 1 and 3, then every decade, every second
// decade ...
std::vector<AxisTicks> logTickChoices(double low, double high, int base, NumberStyle style);

// Whether data over [low, high] spans at least a decade: only then is a log axis the right one.
bool spansDecade(double low, double high);

// Picks the densest choice whose labels do not collide along an axis `lengthPx` long: `position`
// maps a value to its pixel along the axis (0..lengthPx) for that choice's range, `extent` gives
// a label's size along the axis in pixels, and neighbouring labels keep `gapPx` between them.
// Returns the sparsest choice when none fits (and an empty AxisTicks when there is none).
AxisTicks chooseTicks(const std::vector<AxisTicks>& choices, double lengthPx, double gapPx,
                      const std::function<double(const AxisTicks&, double value)>& position,
                      const std::function<double(const std::string&)>& extent);

} // namespace podscope::ui
