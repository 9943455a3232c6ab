#pragma once

#include "report/Report.hpp"

#include <vector>

namespace podscope::ui {

// The report's figures, drawn by the app's own charts (the same classes, styles and export code
// as File > Export): strong scaling, weak scaling, the step breakdown, the batch sweep, the time
// per layer group and the roofline, each as an SVG and a PNG of 1600x1000 px at 200 DPI (8 x 5 in),
// with its title and caption. Without a QApplication (podscope-cli) it makes one on the offscreen
// platform for the call. Call it on the thread that runs the QApplication, if there is one. Throws
// std::runtime_error when an image cannot be made.
std::vector<report::ReportFigure> drawReportFigures(const report::ReportData& data);

} // namespace podscope::ui
