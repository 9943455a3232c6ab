#pragma once

#include <memory>

class QApplication;

namespace podscope::ui {

// A QApplication on the offscreen platform for as long as this object lives, unless one already
// exists (then nothing changes): lets programs without a window (podscope-cli) draw Qt Charts
// figures without a display.
class OffscreenApplication {
public:
    OffscreenApplication();
    ~OffscreenApplication();
    OffscreenApplication(const OffscreenApplication&) = delete;
    OffscreenApplication& operator=(const OffscreenApplication&) = delete;

private:
    int argc_ = 3;
    char* argv_[4] = {};
    std::unique_ptr<QApplication> application_;
};

} // namespace podscope::ui
