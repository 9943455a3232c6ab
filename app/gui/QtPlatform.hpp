#pragma once

#include <optional>
#include <string>

namespace podscope::gui {

// What a run draws: the 3-D view needs OpenGL through GLX on an X server (Debian's VTK has no
// EGL or OSMesa); charts and the other widgets draw anywhere, the offscreen platform included.
enum class DisplayNeed { None, OpenGL };

// Chooses the Qt platform, before QApplication exists, so that Qt never aborts for want of a
// display. A platform the user chose (QT_QPA_PLATFORM) stands. Otherwise, with no X display
// (DISPLAY unset), a run that needs no OpenGL gets the offscreen platform, and one that needs
// the 3-D view gets the returned message instead; with a display, xcb, falling back to offscreen
// when the X server cannot be reached (see unreachableDisplay).
std::optional<std::string> chooseQtPlatform(DisplayNeed need);

// Before QApplication: keeps Qt's platform chatter that says nothing to a user off stderr (the
// offscreen platform's "does not support propagateSizeHints()", and the failed connection that
// chooseQtPlatform's fallback to offscreen already handles). Other messages pass through.
void quietPlatformMessages();

// After QApplication: the message for a run that needs the 3-D view but fell back to offscreen
// because the X server named by DISPLAY could not be reached; nothing otherwise.
std::optional<std::string> unreachableDisplay(DisplayNeed need);

} // namespace podscope::gui
