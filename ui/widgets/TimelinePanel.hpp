#pragma once

#include "view/StepRun.hpp"
#include "view/TimelineTracks.hpp"

#include <QPixmap>
#include <QWidget>
#include <memory>
#include <vector>

namespace podscope::ui {

// The step as a timeline under the 3-D view (a Perfetto-like panel): one chip's tracks (input,
// compute by layer group, model-parallel, batch-norm, gradient sync by bucket, optimizer,
// evaluation) and, below them, how many chips do each thing over time, on one time axis with
// round ticks. Wheel zooms about the pointer, dragging the tracks pans, clicking or dragging on
// the axis asks for a replay time (timeRequested); the window owns the time and moves the
// cursor back with setCursorS, so the panel and the 3-D view always show the same moment.
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const StepRun> run);
    const StepRun* run() const { return run_.get(); }
    void setChip(ChipId chip);
    ChipId chip() const { return chip_; }
    void setCursorS(double t);
    double cursorS() const { return cursorS_; }

    // The visible time range (seconds); clamped to the step, at least a microsecond wide.
    void setVisibleRange(double fromS, double toS);
    double visibleFromS() const { return fromS_; }
    double visibleToS() const { return toS_; }

    // Geometry, for tests and tooltips: the x of a time, the time at an x, where a track's
    // row and the time axis are drawn (rows of empty tracks are not drawn: an empty rect).
    int xOfTime(double t) const;
    double timeAtX(int x) const;
    QRect trackRect(int track) const;
    QRect countsRect() const;
    QRect axisRect() const;
    const std::vector<Track>& tracks() const { return tracks_; }
    // The tooltip at a position: the layer or collective there with its bytes and times.
    QString toolTipAt(QPoint position) const;
    // The title over the chip counts as drawn now (shorter in a narrow panel).
    QString countsTitle() const;
    // The axis's tick labels as drawn now (round values with the unit).
    QStringList tickLabels() const;
    // The chip-count axis's labels as drawn now, where they are drawn (the chips at the top, 0 at
    // the bottom, "chips" beside them); a strip too short for two lines shows the top alone.
    struct CountLabel {
        QRect rect;
        int alignment;
        QString text;
    };
    std::vector<CountLabel> countLabels() const;

    // The least height that shows every track and the time axis, the chip counts a strip.
    int compactHeight() const { return compactHeight_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // The user asked to replay time t (seconds of the step): a click, or a drag on the axis.
    void timeRequested(double t);
    // The panel's tracks changed the height it needs to show them all (sizeHint).
    void neededHeightChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void layoutRows();
    void invalidate();
    void paintStatic(QPainter& painter);
    void paintTrack(QPainter& painter, const Track& track, QRect row);
    void paintCounts(QPainter& painter, QRect area);
    void paintAxis(QPainter& painter, QRect area);
    QRect plotArea() const;

    std::shared_ptr<const StepRun> run_;
    std::vector<Track> tracks_;
    std::vector<QRect> trackRows_;
    QRect counts_, axis_;
    ChipId chip_ = 0;
    double cursorS_ = 0;
    double fromS_ = 0, toS_ = 1e-3;
    QPixmap cache_; // everything but the cursor, redrawn when the data, range or size change
    bool cacheValid_ = false;
    enum class Drag { None, Pan, Scrub } drag_ = Drag::None;
    QPoint pressPosition_;
    double pressFromS_ = 0, pressToS_ = 0;
    bool moved_ = false;
    int neededHeight_ = 200;
    int compactHeight_ = 120;
};

} // namespace podscope::ui
