#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace podscope::ui {

class MainWindow;

// Makes rapid configuration changes in the window, as a user dragging through the controls
// would (the global batch and the chunk count in turn, one every 8 ms), while a 5 ms heartbeat
// timer measures how long the event loop went without running it; then waits for the window to
// show the last configuration. The GUI test asserts that nothing freezes; the benchmark mode
// (podscope --benchmark-responsiveness) reports the stalls.
class ResponsivenessProbe : public QObject {
    Q_OBJECT

public:
    struct Result {
        int changes = 0;
        double maxStallMs = 0;               // the longest time between two heartbeats
        double p99StallMs = 0;               // 99th percentile of the times between heartbeats
        double medianStallMs = 0;            // the heartbeat's own period when nothing stalls
        double settleMs = 0;                 // from the last change until the window showed it
        bool showsLastConfiguration = false; // false: not shown within the settle timeout
    };

    // `settleTimeoutMs`: how long to wait, after the last change, for the window to show it.
    ResponsivenessProbe(MainWindow& window, int changes, int settleTimeoutMs = 30000);

    void start();
    const Result& result() const { return result_; }

signals:
    void finished();

private:
    void makeChange();
    void checkSettled();
    void finish(bool settled);

    MainWindow& window_;
    int changes_;
    int settleTimeoutMs_;
    int made_ = 0;
    QTimer heartbeat_;
    QTimer changeTimer_;
    QTimer settleTimer_;
    QElapsedTimer sinceBeat_;
    QElapsedTimer sinceLastChange_;
    std::vector<double> gapsMs_;
    Result result_;
};

} // namespace podscope::ui
