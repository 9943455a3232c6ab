#pragma once

#include "common/Cancelled.hpp"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace podscope::ui {

// Runs jobs off the UI thread, one at a time. Only the newest request's result is delivered:
// a request made while another runs replaces any waiting one, so dragging a control never
// queues stale work. cancel(), or a newer request, sets the running job's stop flag: a job that
// checks it (the event engine, the step timeline) throws Cancelled and ends early, unseen; one
// that does not finishes unseen.
class LatestOnlyRunner : public QObject {
    Q_OBJECT
public:
    // A job returns its result or throws; std::exception messages become failed(). It may
    // check `stop` and give up once it is set.
    using Job = std::function<std::shared_ptr<const void>(const StopFlag& stop)>;

    explicit LatestOnlyRunner(QObject* parent = nullptr);
    void request(Job job);
    void cancel();
    bool busy() const { return running_; }

signals:
    void started();
    void finished(std::shared_ptr<const void> result);
    void failed(const QString& message);
    void cancelled();

private:
    void launch(Job job);

    quint64 generation_ = 0;
    bool running_ = false;
    Job pending_;
    std::shared_ptr<StopFlag> stopRunning_; // the running job's flag
};

} // namespace podscope::ui
