#pragma once

#include <string>

namespace podscope::ui {

// The charts of the explorer, in the order of their tabs; the Layers tab holds two charts (the
// layer times and the roofline).
enum class ChartKind { Scaling, Breakdown, Batch, Links, Layers, Roofline, Machines };

// "scaling", "breakdown", "batch", "links", "layers", "roofline", "machines"; InputError("chart",
// ...) when unknown.
ChartKind parseChartKind(const std::string& text);
std::string toString(ChartKind chart);

} // namespace podscope::ui
