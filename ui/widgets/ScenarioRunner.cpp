#include "widgets/ScenarioRunner.hpp"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace podscope::ui {
namespace {

struct Outcome {
    std::shared_ptr<const ScenarioRun> run;
    QString error;
};

} // namespace

ScenarioRunner::ScenarioRunner(QObject* parent)
    : QObject(parent) {}

void ScenarioRunner::request(const ViewScenario& scenario) {
    if (running_) {
        // One simulation at a time; the newest waiting request replaces any older one.
        pending_ = std::make_unique<ViewScenario>(scenario);
        ++generation_;
        return;
    }
    launch(scenario);
}

void ScenarioRunner::cancel() {
    if (running_ || pending_) {
        ++generation_;
        pending_.reset();
        emit cancelled();
    }
}

void ScenarioRunner::launch(const ViewScenario& scenario) {
    running_ = true;
    const quint64 generation = ++generation_;
    emit started();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        running_ = false;
        if (pending_) {
            auto next = std::move(pending_);
            launch(*next);
            return;
        }
        if (generation != generation_) {
            return; // superseded or cancelled
        }
        if (outcome.run) {
            emit finished(outcome.run);
        } else {
            emit failed(outcome.error);
        }
    });
    watcher->setFuture(QtConcurrent::run([scenario] {
        try {
            return Outcome{runScenario(scenario), {}};
        } catch (const std::exception& e) {
            return Outcome{nullptr, QString::fromStdString(e.what())};
        }
    }));
}

} // namespace podscope::ui
