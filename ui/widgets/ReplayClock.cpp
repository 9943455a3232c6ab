#include "widgets/ReplayClock.hpp"

#include "figure/TimeUnit.hpp"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace podscope::ui {

ReplayClock::ReplayClock(QObject* parent)
    : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(16); // about 60 frames a second; slower displays drop frames, not time
    connect(&timer_, &QTimer::timeout, this, [this] {
        const double wallS = static_cast<double>(elapsed_.nsecsElapsed()) * 1e-9;
        elapsed_.restart();
        advance(wallS);
    });
}

void ReplayClock::setSpan(double durationS, double replaySeconds) {
    durationS_ = std::max(durationS, 0.0);
    replaySeconds_ = replaySeconds > 0 ? replaySeconds : 1;
    timeS_ = std::clamp(timeS_, 0.0, durationS_);
}

void ReplayClock::place(double timeS) {
    timeS_ = std::clamp(timeS, 0.0, durationS_);
}

double ReplayClock::fraction(double ifEmpty) const {
    return durationS_ > 0 ? timeS_ / durationS_ : ifEmpty;
}

void ReplayClock::setTimeS(double timeS) {
    place(timeS);
    emit timeChanged(timeS_);
}

void ReplayClock::setPlaying(bool playing) {
    if (playing == timer_.isActive()) {
        return;
    }
    if (playing) {
        elapsed_.start();
        timer_.start();
    } else {
        timer_.stop();
    }
    emit playingChanged(playing);
}

void ReplayClock::advance(double wallSeconds) {
    if (durationS_ <= 0) {
        return;
    }
    timeS_ += wallSeconds * speed_ * durationS_ / replaySeconds_;
    if (timeS_ > durationS_) {
        timeS_ = std::fmod(timeS_, durationS_);
    }
    emit timeChanged(timeS_);
}

namespace {

// `seconds` in the unit the span chooses, as the clock writes it.
QString inSpanUnit(double seconds, double spanS) {
    const TimeUnit unit = timeUnitFor(spanS);
    const int decimals = unit.perSecond > 1e3 ? 1 : 3;
    return QLocale().toString(seconds * unit.perSecond, 'f', decimals) + QChar(' ') +
           QString::fromUtf8(unit.symbol);
}

} // namespace

QString ReplayClock::reading() const {
    return inSpanUnit(timeS_, durationS_) + QStringLiteral(" / ") + spanReading();
}

QString ReplayClock::spanReading() const {
    return inSpanUnit(durationS_, durationS_);
}

} // namespace podscope::ui
