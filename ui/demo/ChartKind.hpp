#pragma once

#include <string>

namespace podscope::ui {

// The charts of the explorer, in the order of their tabs.
enum class ChartKind { Scaling, Breakdown, Batch, Links };

// "scaling", "breakdown", "batch", "links"; InputError("chart", ...) when unknown.
ChartKind parseChartKind(const std::string& text);
std::string toString(ChartKind chart);

} // namespace podscope::ui
