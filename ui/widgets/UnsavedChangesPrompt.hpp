#pragma once

#include <QString>
#include <functional>

class QWidget;

namespace podscope::ui {

// What the user answered when asked about unsaved changes before the window closes.
enum class UnsavedAnswer { Save, Discard, Cancel };

// Asks, window-modal and without blocking the event loop (a replay keeps running and tests can
// answer it), whether to save the changed configuration before closing. `answered` runs once
// with the choice; Esc or closing the box is Cancel. The box is the window's child named
// "unsavedChangesPrompt".
void askAboutUnsavedChanges(QWidget& window, const QString& documentName,
                            std::function<void(UnsavedAnswer)> answered);

} // namespace podscope::ui
