#include "QtPlatform.hpp"

#include <QGuiApplication>
#include <QtGlobal>

namespace podscope::gui {
namespace {

// Set when chooseQtPlatform, not the user, set QT_QPA_PLATFORM.
bool chosenHere = false;

const char* const kNoDisplay =
    "no display (DISPLAY is not set): the window, --screenshot, --export-view and the "
    "benchmarks draw the 3-D view with OpenGL on an X server; run under xvfb-run -a, or use "
    "--export-chart, which needs no display";

} // namespace

std::optional<std::string> chooseQtPlatform(DisplayNeed need) {
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        return std::nullopt;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY")) {
        if (need == DisplayNeed::OpenGL) {
            return kNoDisplay;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
        chosenHere = true;
        return std::nullopt;
    }
    // Qt tries the platforms in order: a DISPLAY whose server is gone ends on offscreen instead
    // of aborting the program.
    qputenv("QT_QPA_PLATFORM", "xcb;offscreen");
    chosenHere = true;
    return std::nullopt;
}

std::optional<std::string> unreachableDisplay(DisplayNeed need) {
    if (chosenHere) {
        qunsetenv("QT_QPA_PLATFORM"); // programs started from the window choose for themselves
    }
    if (!chosenHere || need == DisplayNeed::None || QGuiApplication::platformName() == "xcb") {
        return std::nullopt;
    }
    return "cannot open the X display '" + qEnvironmentVariable("DISPLAY").toStdString() +
           "': the window, --screenshot, --export-view and the benchmarks draw the 3-D view "
           "with OpenGL on an X server";
}

} // namespace podscope::gui
