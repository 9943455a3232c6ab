#include "widgets/LatestOnlyRunner.hpp"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace podscope::ui {
namespace {

struct Outcome {
    std::shared_ptr<const void> result;
    QString error;
};

} // namespace

LatestOnlyRunner::LatestOnlyRunner(QObject* parent)
    : QObject(parent) {}

void LatestOnlyRunner::request(Job job) {
    if (running_) {
        pending_ = std::move(job);
        ++generation_;
        return;
    }
    launch(std::move(job));
}

void LatestOnlyRunner::cancel() {
    if (running_ || pending_) {
        ++generation_;
        pending_ = nullptr;
        emit cancelled();
    }
}

void LatestOnlyRunner::launch(Job job) {
    running_ = true;
    const quint64 generation = ++generation_;
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
        if (outcome.result) {
            emit finished(outcome.result);
        } else {
            emit failed(outcome.error);
        }
    });
    watcher->setFuture(QtConcurrent::run([job = std::move(job)] {
        try {
            return Outcome{job(), {}};
        } catch (const std::exception& e) {
            return Outcome{nullptr, QString::fromStdString(e.what())};
        }
    }));
}

} // namespace podscope::ui
