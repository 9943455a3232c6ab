#pragma once

#include <chrono>

namespace podscope::gui {

// Parses the command line (--help and --version need no display), chooses the Qt platform, then
// runs the window, --screenshot, --export-chart/--export-view or a benchmark.
// Exit status: 0 success, 2 bad arguments (named on stderr), 1 failure (a mode that draws the
// 3-D view without an X display among them).
// `started`: when the process began, for the time to the first rendered frame.
int run(int argc, char** argv, std::chrono::steady_clock::time_point started);

} // namespace podscope::gui
