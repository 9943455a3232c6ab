#pragma once

#include "demo/DemoScript.hpp"

#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QScrollArea;
class QSlider;
class QToolButton;

namespace podscope::ui {

class DataBlocksView;

// What the class sees of a demo: the step's title and caption, the data each chip holds
// (for steps that show it), and Back / Next / Leave. The DemoPlayer decides what a step does.
class DemoPanel : public QWidget {
    Q_OBJECT
public:
    explicit DemoPanel(QWidget* parent = nullptr);

    // Shows step `index` of `script`; computes the step's data blocks when it has them.
    void showStep(const DemoScript& script, int index);
    // Large fonts for a projector (the presentation layout), or the normal ones.
    void setPresentation(bool on);
    QLabel* captionLabel() const { return caption_; }
    // "Preparing ..." until the step's configuration is analysed and on screen.
    void setBusy(bool busy);
    bool busy() const;

    QString captionText() const;
    QString stepText() const;
    DataBlocksView* dataBlocks() const { return blocks_; }
    bool dataBlocksShown() const;
    QPushButton* backButton() const { return back_; }
    QPushButton* nextButton() const { return next_; }
    QPushButton* leaveButton() const { return leave_; }

signals:
    void backClicked();
    void nextClicked();
    void leaveClicked();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitCaption();

    QScrollArea* text_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* step_ = nullptr;
    QLabel* caption_ = nullptr;
    QLabel* busy_ = nullptr;
    QWidget* blocksBox_ = nullptr;
    DataBlocksView* blocks_ = nullptr;
    QSlider* frames_ = nullptr;
    QToolButton* play_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    QPushButton* leave_ = nullptr;
    QTimer playTimer_;
};

} // namespace podscope::ui
