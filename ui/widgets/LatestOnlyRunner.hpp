#pragma once

#include "common/Cancelled.hpp"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <stdexcept>

namespace podscope::ui {

// Runs jobs off the UI thread, one at a time. Only the newest request's result is delivered:
// a request made while another runs replaces any waiting one, so dragging a control never
// queues stale work. cancel(), or a newer request, sets the running job's stop flag: a job that
// checks it (the event engine, the step timeline) throws Cancelled and ends early, unseen; one
// that does not finishes unseen. The scheduling lives here; LatestOnlyRunner<Result> below
// gives it a result type.
class LatestOnlyRunnerBase : public QObject {
    Q_OBJECT
public:
    void cancel();
    bool busy() const { return running_; }

signals:
    void started();
    void finished(); // the newest request's result is ready: the typed runner's result()
    void failed(const QString& message);
    void cancelled();

protected:
    // What a finished job leaves to run on the UI thread once its result is the one to show.
    using Delivery = std::function<void()>;
    using ErasedJob = std::function<Delivery(const StopFlag& stop)>;

    explicit LatestOnlyRunnerBase(QObject* parent);
    void requestErased(ErasedJob job);

private:
    void launch(ErasedJob job);

    quint64 generation_ = 0;
    bool running_ = false;
    ErasedJob pending_;
    std::shared_ptr<StopFlag> stopRunning_; // the running job's flag
};

template <class Result> class LatestOnlyRunner final : public LatestOnlyRunnerBase {
public:
    // A job returns its result or throws; std::exception messages become failed(). It may
    // check `stop` and give up once it is set.
    using Job = std::function<std::shared_ptr<const Result>(const StopFlag& stop)>;

    explicit LatestOnlyRunner(QObject* parent = nullptr)
        : LatestOnlyRunnerBase(parent) {}

    void request(Job job) {
        // The delivery only names `this`; it runs only while the runner lives (a job that
        // outlives a closed window returns it unseen).
        requestErased([this, job = std::move(job)](const StopFlag& stop) -> Delivery {
            std::shared_ptr<const Result> result = job(stop);
            if (!result) {
                throw std::logic_error("a background job returned no result");
            }
            return [this, result = std::move(result)] { result_ = result; };
        });
    }

    // The newest delivered result; null until the first finished().
    const std::shared_ptr<const Result>& result() const { return result_; }

private:
    std::shared_ptr<const Result> result_;
};

} // namespace podscope::ui
