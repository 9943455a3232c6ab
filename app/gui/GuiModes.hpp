#pragma once

class QApplication;

namespace podscope::gui {

// Parses the command line and runs the window, --screenshot or --benchmark-frames.
// Exit status: 0 success, 2 bad arguments (named on stderr), 1 failure.
int run(QApplication& app);

} // namespace podscope::gui
