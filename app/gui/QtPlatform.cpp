#include "QtPlatform.hpp"

#include <QGuiApplication>
#include <QtGlobal>
#include <cstdio>

namespace podscope::gui {
namespace {

// Set when chooseQtPlatform, not the user, set QT_QPA_PLATFORM.
bool chosenHere = false;
// From quietPlatformMessages until unreachableDisplay: QApplication is starting.
bool startingUp = false;

const char* const kNoDisplay =
    "no display (DISPLAY is not set): the window, --screenshot, --export-view and the "
    "benchmarks draw the 3-D view with OpenGL on an X server; run under xvfb-run -a, or use "
    "--export-chart, which needs no display";

QtMessageHandler previousHandler = nullptr;

void dropPlatformChatter(QtMsgType type, const QMessageLogContext& context,
                         const QString& message) {
    // QPlatformWindow's default for platforms without window managers (offscreen, minimal).
    if (message == QLatin1String("This plugin does not support propagateSizeHints()")) {
        return;
    }
    // The xcb plugin's "could not connect to display" and Qt's "could not load the Qt platform
    // plugin" precede our own fallback to offscreen, which unreachableDisplay explains where it
    // matters.
    const QLatin1String category(context.category ? context.category : "");
    if (startingUp && chosenHere &&
        (category == QLatin1String("qt.qpa.xcb") || category == QLatin1String("qt.qpa.plugin"))) {
        return;
    }
    if (previousHandler) {
        previousHandler(type, context, message);
    } else {
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
    }
}

} // namespace

void quietPlatformMessages() {
    previousHandler = qInstallMessageHandler(dropPlatformChatter);
    startingUp = true;
}

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
    startingUp = false;
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
