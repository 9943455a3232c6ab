#pragma once

#include "view/ScenarioRun.hpp"

#include <QObject>
#include <QString>

#include <memory>

namespace podscope::ui {

// Runs simulations off the UI thread. Only the newest request's result is delivered: a request
// made while another runs supersedes it, so dragging a control never queues stale work.
class ScenarioRunner : public QObject {
    Q_OBJECT
public:
    explicit ScenarioRunner(QObject* parent = nullptr);
    void request(const ViewScenario& scenario);
    // Drops the running request's result (the engine finishes in the background).
    void cancel();
    bool busy() const { return running_; }

signals:
    void started();
    void finished(std::shared_ptr<const podscope::ui::ScenarioRun> run);
    void failed(const QString& message);
    void cancelled();

private:
    void launch(const ViewScenario& scenario);

    quint64 generation_ = 0;
    bool running_ = false;
    std::unique_ptr<ViewScenario> pending_;
};

} // namespace podscope::ui
