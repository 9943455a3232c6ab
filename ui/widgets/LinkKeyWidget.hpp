#pragma once

#include "scene/LinkKey.hpp"

#include <QRect>
#include <QWidget>

#include <vector>

namespace podscope::ui {

// The key of the kinds of link the 3-D view draws: a sample of each stroke and what it joins
// (scene/LinkKey.hpp), the entries side by side while they fit the width, then on further rows,
// so that the key takes little of the legend column's height. Hidden where it says nothing the
// scene does not (keyIsWorthShowing: a plain torus).
class LinkKeyWidget : public QWidget {
    Q_OBJECT
public:
    explicit LinkKeyWidget(QWidget* parent = nullptr);
    void setKey(std::vector<LinkKeyEntry> key);
    const std::vector<LinkKeyEntry>& key() const { return key_; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Where each entry goes at this width, its sample and label, row by row; an entry wider
    // than the width has a row of its own and its label wrapped.
    std::vector<QRect> entryRects(int width) const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<LinkKeyEntry> key_;
};

} // namespace podscope::ui
