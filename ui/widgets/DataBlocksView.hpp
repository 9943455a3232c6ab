#pragma once

#include "collective/BlockTimeline.hpp"

#include <QWidget>

namespace podscope::ui {

// The data every chip of a group holds at one moment of a collective, as coloured blocks: one
// row per chip, its blocks side by side, each block striped with the colours of the chips
// whose data is summed into it. Blocks that just arrived are outlined. With two streams
// (bidirectional rings) each row's upper half is the clockwise ring's data, the lower half
// the counter-clockwise ring's. Frames come from blockTimeline, that is from the functional
// check's own run; a slider or Back/Next buttons drive setFrame.
class DataBlocksView : public QWidget {
    Q_OBJECT
public:
    explicit DataBlocksView(QWidget* parent = nullptr);

    void setTimeline(BlockTimeline timeline);
    const BlockTimeline& timeline() const { return timeline_; }
    int frameCount() const { return static_cast<int>(timeline_.frames.size()); }
    int frame() const { return frame_; }

    // Where the blocks of row `row` (group member) are painted, for tests and overlays.
    QRect blocksRect(int row) const;
    // The colour of group member `member` (its stripes, swatch and legend entry).
    static QColor memberColor(int member);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    // Clamped to the timeline; emits frameChanged when the frame changes.
    void setFrame(int frame);
    void nextFrame();
    void previousFrame();

signals:
    void frameChanged(int frame);
    void timelineChanged(int frameCount);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Layout;
    Layout layout() const;
    // Splits what the caption and legend leave into one row per chip.
    void placeRows(Layout& layout, QRect area, int pixels) const;

    BlockTimeline timeline_;
    int frame_ = 0;
};

} // namespace podscope::ui
