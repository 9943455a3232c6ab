// podscope: the desktop application. Thin: parse arguments, build the window, or run one of
// the scripted modes (screenshot, frame-rate benchmark) that tests and docs use.
#include "GuiModes.hpp"
#include "vtk/VtkView.hpp"

#include <QApplication>

#include <chrono>

int main(int argc, char** argv) {
    const auto started = std::chrono::steady_clock::now();
    podscope::ui::VtkView::useDefaultSurfaceFormat();

    QApplication app(argc, argv);
    QApplication::setApplicationName("PodScope");
    QApplication::setOrganizationName("PodScope");
    QApplication::setApplicationVersion(PODSCOPE_VERSION);
    return podscope::gui::run(app, started);
}
