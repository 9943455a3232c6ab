#pragma once

#include "figure/ParetoFigure.hpp"

#include <string>

namespace podscope::ui {

// podscope-cli tune --chart: the search dialog's Pareto chart (charts/ParetoChart) written to
// `path` (.png, .svg or .pdf) at the print size, 1600 x 1000 px at 200 DPI (8 x 5 in), through
// a temporary file and a rename. Without a QApplication it makes one on the offscreen platform
// for the call. Returns the problem, naming the path, or an empty string on success.
std::string writeParetoChart(const ParetoFigure& figure, const std::string& path);

} // namespace podscope::ui
