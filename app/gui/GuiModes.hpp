#pragma once

#include <chrono>

class QApplication;

namespace podscope::gui {

// Parses the command line and runs the window, --screenshot or --benchmark-frames.
// Exit status: 0 success, 2 bad arguments (named on stderr), 1 failure.
// `started`: when the process began, for the time to the first rendered frame.
int run(QApplication& app, std::chrono::steady_clock::time_point started);

} // namespace podscope::gui
