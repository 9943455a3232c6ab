#include "export/OffscreenApplication.hpp"

#include <QApplication>

namespace podscope::ui {
namespace {

// QApplication may rewrite its arguments: they must be writable and outlive it.
char gName[] = "podscope";
char gPlatformFlag[] = "-platform";
char gOffscreen[] = "offscreen";

QtMessageHandler gPreviousHandler = nullptr;

// A program that only draws figures has no use for Qt's notes about its platform: running as
// root without XDG_RUNTIME_DIR, debug and info lines. Warnings about anything else still show.
void quietPlatformNotes(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtDebugMsg || type == QtInfoMsg || message.contains("XDG_RUNTIME_DIR") ||
        QByteArray(context.category ? context.category : "").startsWith("qt.qpa")) {
        return;
    }
    if (gPreviousHandler) {
        gPreviousHandler(type, context, message);
    }
}

} // namespace

OffscreenApplication::OffscreenApplication() {
    if (QCoreApplication::instance()) {
        return;
    }
    argv_[0] = gName;
    argv_[1] = gPlatformFlag; // wins over QT_QPA_PLATFORM: no display is needed or used
    argv_[2] = gOffscreen;
    argv_[3] = nullptr;
    gPreviousHandler = qInstallMessageHandler(quietPlatformNotes);
    application_ = std::make_unique<QApplication>(argc_, argv_);
}

OffscreenApplication::~OffscreenApplication() {
    if (application_) {
        application_.reset();
        qInstallMessageHandler(gPreviousHandler);
    }
}

} // namespace podscope::ui
