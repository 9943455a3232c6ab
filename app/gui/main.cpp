// podscope: the desktop application. Thin: parse arguments, build the window, or run one of
// the scripted modes (screenshot, exports, benchmarks) that tests and docs use.
#include "GuiModes.hpp"

#include <chrono>

int main(int argc, char** argv) { return podscope::gui::run(argc, argv, std::chrono::steady_clock::now()); }
