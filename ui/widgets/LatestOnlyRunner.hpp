#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace podscope::ui {

// Runs jobs off the UI thread, one at a time. Only the newest request's result is delivered:
// a request made while another runs replaces any waiting one, so dragging a control never
// queues stale work, and cancel() drops the running job's result (it finishes unseen).
class LatestOnlyRunner : public QObject {
    Q_OBJECT
public:
    // A job returns its result or throws; std::exception messages become failed().
    using Job = std::function<std::shared_ptr<const void>()>;

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
};

} // namespace podscope::ui
