#pragma once

#include "training/Scenario.hpp"

#include <QObject>
#include <QString>

class QUndoStack;

namespace podscope::ui {

// The configuration being explored: every change goes through here, so it can be undone,
// saved and reopened. Files are the CLI's --config format (.podscope.json).
class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(const Scenario& initial, QObject* parent = nullptr);

    const Scenario& scenario() const { return scenario_; }
    // Records an undoable change; `what` names it in the Edit menu ("global batch 8192").
    // Nothing happens when `next` equals the current scenario.
    void edit(const Scenario& next, const QString& what);
    QUndoStack* undoStack() const { return undo_; }

    // Both return an empty string on success; otherwise the problem (naming the field) and
    // the document is unchanged. Saving writes a temporary file and renames it.
    QString open(const QString& path);
    QString save(const QString& path);
    QString path() const { return path_; }
    bool isModified() const;

    // Replaces the scenario without recording an undo step (undo and redo use this).
    void assign(const Scenario& scenario);

signals:
    void changed();

private:
    Scenario scenario_;
    QUndoStack* undo_;
    QString path_;
};

// Two scenarios are the same when they serialise the same.
bool sameScenario(const Scenario& a, const Scenario& b);

} // namespace podscope::ui
