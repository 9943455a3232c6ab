#include "widgets/DemoPanel.hpp"

#include "demo/CaptionFields.hpp"
#include "training/StepModel.hpp"
#include "view/TrainingAnalysis.hpp"
#include "widgets/DataBlocksView.hpp"

#include <QCommandLinkButton>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace podscope::ui {
namespace {

constexpr int kFrameMs = 700; // slow enough for a class to follow one ring step

// The frame of the data-block timeline that matches a point of the replay (0..1).
int frameAt(double fraction, int frames) {
    return frames <= 1 ? 0 : static_cast<int>(std::lround(fraction * (frames - 1)));
}

} // namespace

DemoPanel::DemoPanel(QWidget* parent)
    : QWidget(parent) {
    // A long caption scrolls; the data blocks take the room below it, and the buttons stay in
    // sight at the bottom whatever the window's height.
    auto* outer = new QVBoxLayout(this);
    text_ = new QScrollArea;
    text_->setWidgetResizable(true);
    text_->setFrameShape(QFrame::NoFrame);
    text_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget;
    text_->setWidget(content);
    outer->addWidget(text_);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel;
    title_->setWordWrap(true);
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    title_->setFont(big);
    step_ = new QLabel;
    step_->setWordWrap(true);
    QFont bold = step_->font();
    bold.setBold(true);
    step_->setFont(bold);
    caption_ = new QLabel;
    caption_->setWordWrap(true);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    caption_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    busy_ = new QLabel(tr("Preparing the step ..."));
    busy_->setVisible(false);
    column->addWidget(title_);
    column->addWidget(step_);
    column->addWidget(caption_);
    column->addWidget(busy_);
    column->addStretch(1);

    blocksBox_ = new QWidget;
    auto* blocksColumn = new QVBoxLayout(blocksBox_);
    blocksColumn->setContentsMargins(0, 0, 0, 0);
    blocks_ = new DataBlocksView;
    blocksColumn->addWidget(blocks_, 1);
    auto* frameRow = new QHBoxLayout;
    play_ = new QToolButton;
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    play_->setCheckable(true);
    play_->setToolTip(tr("Play the ring steps"));
    frames_ = new QSlider(Qt::Horizontal);
    frames_->setToolTip(tr("Ring step"));
    frameRow->addWidget(play_);
    frameRow->addWidget(frames_, 1);
    blocksColumn->addLayout(frameRow);
    outer->addWidget(blocksBox_, 1);
    blocksBox_->setVisible(false);

    // The last step leads on: the next demo, one click away (a clicker's Page Down never jumps
    // into another demo by accident).
    nextDemo_ = new QCommandLinkButton(tr("Next demo"));
    nextDemo_->setObjectName("nextDemo");
    nextDemo_->setVisible(false);
    outer->addWidget(nextDemo_);

    auto* buttons = new QHBoxLayout;
    back_ = new QPushButton(tr("< Back"));
    next_ = new QPushButton(tr("Next >"));
    leave_ = new QPushButton(tr("Leave demo"));
    leave_->setToolTip(tr("Close the demo and keep exploring from this step's configuration"));
    buttons->addWidget(back_);
    buttons->addWidget(next_);
    buttons->addStretch(1);
    buttons->addWidget(leave_);
    outer->addLayout(buttons);

    connect(back_, &QPushButton::clicked, this, &DemoPanel::backClicked);
    connect(next_, &QPushButton::clicked, this, &DemoPanel::nextClicked);
    connect(leave_, &QPushButton::clicked, this, &DemoPanel::leaveClicked);
    connect(nextDemo_, &QPushButton::clicked, this, &DemoPanel::nextDemoClicked);
    connect(frames_, &QSlider::valueChanged, blocks_, &DataBlocksView::setFrame);
    connect(blocks_, &DataBlocksView::frameChanged, frames_, &QSlider::setValue);
    playTimer_.setInterval(kFrameMs);
    connect(&playTimer_, &QTimer::timeout, this, [this] {
        if (blocks_->frame() + 1 >= blocks_->frameCount()) {
            play_->setChecked(false);
            return;
        }
        blocks_->nextFrame();
    });
    connect(play_, &QToolButton::toggled, this, [this](bool on) {
        if (on && blocks_->frame() + 1 >= blocks_->frameCount()) {
            blocks_->setFrame(0); // play again from the start
        }
        play_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        on ? playTimer_.start() : playTimer_.stop();
    });
}

void DemoPanel::showStep(const DemoScript& script, int index) {
    const DemoStep& step = script.steps.at(static_cast<std::size_t>(index));
    title_->setText(QString::fromStdString(script.title));
    step_->setText(tr("Step %1 of %2: %3")
                       .arg(index + 1)
                       .arg(script.steps.size())
                       .arg(QString::fromStdString(step.title)));
    captionTemplate_ = QString::fromStdString(step.caption);
    replayClock_.clear();
    fillCaption();
    back_->setEnabled(index > 0);
    const bool last = index + 1 == static_cast<int>(script.steps.size());
    next_->setEnabled(!last);
    nextDemo_->setVisible(last && !nextDemoTitle_.isEmpty());
    nextDemo_->setDescription(nextDemoTitle_);
    play_->setChecked(false);
    blocksBox_->setVisible(step.dataBlocks);
    fitCaption();
    if (!step.dataBlocks) {
        return;
    }
    // The same collective the 3-D view replays, run through the functional check's code.
    const ViewScenario view = gradientSyncView(step.scenario, simulateTraining(step.scenario));
    blocks_->setTimeline(blockTimeline(viewTopology(view), view.collective));
    frames_->setRange(0, std::max(0, blocks_->frameCount() - 1));
    const int frame = frameAt(step.timeFraction, blocks_->frameCount());
    blocks_->setFrame(frame);
    frames_->setValue(frame);
}

void DemoPanel::setPresentation(bool on) {
    // Readable from the back of a classroom: the caption about twice the interface's size.
    const double base = font().pointSizeF();
    QFont title = title_->font();
    title.setPointSizeF(base * (on ? 1.9 : 1.25));
    title_->setFont(title);
    QFont step = step_->font();
    step.setPointSizeF(base * (on ? 1.6 : 1.0));
    step_->setFont(step);
    QFont caption = caption_->font();
    caption.setPointSizeF(base * (on ? 1.75 : 1.0));
    caption_->setFont(caption);
    fitCaption();
}

void DemoPanel::setNextDemo(const QString& title) {
    nextDemoTitle_ = title;
}

void DemoPanel::setReplayClock(const QString& total) {
    replayClock_ = total;
    fillCaption();
}

void DemoPanel::fillCaption() {
    // The replay's length is known once the step's replay runs: until then the caption says
    // so rather than quote another step's clock.
    QString text = captionTemplate_;
    text.replace(QString::fromUtf8(kReplayClockField),
                 replayClock_.isEmpty() ? tr("(replaying ...)") : replayClock_);
    if (caption_->text() != text) {
        caption_->setText(text);
        fitCaption();
    }
}

void DemoPanel::setBusy(bool busy) { busy_->setVisible(busy); }

void DemoPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitCaption();
}

void DemoPanel::fitCaption() {
    // Beside the data blocks the caption keeps the height its text needs (up to half the
    // panel; beyond, it scrolls), rather than the blocks taking all the room.
    int wanted = 0;
    if (!blocksBox_->isHidden()) {
        const int textWidth = std::max(1, text_->viewport()->width());
        wanted = std::min(text_->widget()->heightForWidth(textWidth) + 2, height() / 2);
    }
    if (text_->minimumHeight() != wanted) {
        text_->setMinimumHeight(wanted);
    }
}

bool DemoPanel::busy() const { return !busy_->isHidden(); }

QString DemoPanel::captionText() const { return caption_->text(); }

QString DemoPanel::stepText() const { return step_->text(); }

bool DemoPanel::dataBlocksShown() const { return !blocksBox_->isHidden(); }

} // namespace podscope::ui
