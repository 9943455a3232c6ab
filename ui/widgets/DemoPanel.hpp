#pragma once

#include "demo/DemoScript.hpp"

#include <QTimer>
#include <QWidget>

class QCommandLinkButton;
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
    // The demo the last step offers next (its title; empty: none), shown from the next showStep.
    void setNextDemo(const QString& title);
    // The replay clock's total as the window shows it ("2340.6 µs"), for the captions that
    // quote it ({replay_clock}); empty until the step's replay is on screen.
    void setReplayClock(const QString& total);
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
    QCommandLinkButton* nextDemoButton() const { return nextDemo_; }

signals:
    void backClicked();
    void nextClicked();
    void leaveClicked();
    void nextDemoClicked();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitCaption();
    void fillCaption();

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
    QCommandLinkButton* nextDemo_ = nullptr;
    QString nextDemoTitle_;
    QString captionTemplate_; // the step's caption, {replay_clock} not yet filled
    QString replayClock_;
    QTimer playTimer_;
};

} // namespace podscope::ui
