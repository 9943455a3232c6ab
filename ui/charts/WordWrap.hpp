#pragma once

#include <QStringList>

class QFont;
class QString;

namespace podscope::ui {

// The words of `text` in lines no wider than `width` in `font`; a word wider than that gets a
// line of its own (it would not fit anywhere, and is not cut). Titles, legends and captions of
// every figure wrap with it rather than truncate.
QStringList wrapWords(const QString& text, const QFont& font, double width);

} // namespace podscope::ui
