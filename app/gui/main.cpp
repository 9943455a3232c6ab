// podscope: the desktop application. Thin: parse arguments, build the window, or run one of
// the scripted modes (screenshot, frame-rate benchmark) that tests and docs use.
#include "GuiModes.hpp"

#include <QApplication>
#include <QSurfaceFormat>

#include <chrono>

int main(int argc, char** argv) {
    const auto started = std::chrono::steady_clock::now();
    // VTK needs a 3.2 core profile; MSAA off (it costs 4-6x under software rendering).
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    format.setAlphaBufferSize(8);
    format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    format.setSamples(0);
    QSurfaceFormat::setDefaultFormat(format);

    QApplication app(argc, argv);
    QApplication::setApplicationName("PodScope");
    QApplication::setOrganizationName("PodScope");
    QApplication::setApplicationVersion(PODSCOPE_VERSION);
    return podscope::gui::run(app, started);
}
