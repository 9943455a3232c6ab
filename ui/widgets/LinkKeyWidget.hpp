#pragma once

#include "scene/LinkKey.hpp"

#include <QWidget>

#include <vector>

namespace podscope::ui {

// The key of the kinds of link the 3-D view draws: a sample of each stroke and what it joins
// (scene/LinkKey.hpp). Hidden when the scene draws one kind only.
class LinkKeyWidget : public QWidget {
    Q_OBJECT
public:
    explicit LinkKeyWidget(QWidget* parent = nullptr);
    void setKey(std::vector<LinkKeyEntry> key);
    const std::vector<LinkKeyEntry>& key() const { return key_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<LinkKeyEntry> key_;
};

} // namespace podscope::ui
