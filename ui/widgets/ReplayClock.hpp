#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace podscope::ui {

// The replay's clock: a simulated time within the span replayed (a collective or a whole
// step), played at a wall-clock pace (the whole span in `replaySeconds` at speed 1) and
// looping at the end. The window only draws the time it is told.
class ReplayClock : public QObject {
    Q_OBJECT
public:
    explicit ReplayClock(QObject* parent = nullptr);

    // What is replayed now; the time is clamped into it. Does not signal: the caller redraws
    // once everything that depends on the span is rebuilt.
    void setSpan(double durationS, double replaySeconds);
    // Moves the time without signalling (clamped), for the same reason.
    void place(double timeS);
    double durationS() const { return durationS_; }
    double timeS() const { return timeS_; }
    // The time as a share of the span; `ifEmpty` when nothing is replayed.
    double fraction(double ifEmpty = 0) const;
    // "1.375 s / 4.582 s": the time and the span in one unit, chosen by the span so that the
    // reading keeps its unit and width while it runs (µs to one decimal, ms and s to three).
    QString reading() const;
    // The span alone as the reading writes it ("4.582 s").
    QString spanReading() const;

    // Moves the time (clamped) and signals timeChanged.
    void setTimeS(double timeS);
    void setSpeed(double speed) { speed_ = speed; }
    double speed() const { return speed_; }
    void setPlaying(bool playing);
    bool playing() const { return timer_.isActive(); }
    // Advances by `wallSeconds` of playing at the current speed, looping at the end.
    void advance(double wallSeconds);

signals:
    void timeChanged(double timeS);
    void playingChanged(bool playing);

private:
    double durationS_ = 0;
    double replaySeconds_ = 1;
    double timeS_ = 0;
    double speed_ = 1;
    QTimer timer_;
    QElapsedTimer elapsed_;
};

} // namespace podscope::ui
