#include "widgets/LatestOnlyRunner.hpp"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace podscope::ui {
namespace {

struct Outcome {
    std::function<void()> deliver; // empty when the job failed
    QString error;
};

} // namespace

LatestOnlyRunnerBase::LatestOnlyRunnerBase(QObject* parent)
    : QObject(parent) {}

void LatestOnlyRunnerBase::requestErased(ErasedJob job) {
    if (running_) {
        pending_ = std::move(job);
        ++generation_;
        stopRunning_->store(true); // its result would be dropped: let it end early
        return;
    }
    launch(std::move(job));
}

void LatestOnlyRunnerBase::cancel() {
    if (running_ || pending_) {
        ++generation_;
        if (stopRunning_) {
            stopRunning_->store(true);
        }
        pending_ = nullptr;
        emit cancelled();
    }
}

void LatestOnlyRunnerBase::launch(ErasedJob job) {
    running_ = true;
    const quint64 generation = ++generation_;
    stopRunning_ = std::make_shared<StopFlag>(false);
    emit started();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        running_ = false;
        if (pending_) {
            launch(std::exchange(pending_, nullptr));
            return;
        }
        if (generation != generation_) {
            return; // superseded or cancelled
        }
        if (outcome.deliver) {
            outcome.deliver();
            emit finished();
        } else {
            emit failed(outcome.error);
        }
    });
    // The job holds its flag: it outlives the runner if the window closes first.
    watcher->setFuture(QtConcurrent::run([job = std::move(job), stop = stopRunning_] {
        try {
            return Outcome{job(*stop), {}};
        } catch (const std::exception& e) {
            return Outcome{nullptr, QString::fromStdString(e.what())};
        }
    }));
}

} // namespace podscope::ui
