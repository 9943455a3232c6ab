#include "session/ScenarioDocument.hpp"

#include "common/InputError.hpp"
#include "training/ScenarioJson.hpp"

#include <QUndoStack>

namespace podscope::ui {
namespace {

class EditCommand : public QUndoCommand {
public:
    EditCommand(ScenarioDocument& document, Scenario before, Scenario after, const QString& what)
        : QUndoCommand(what)
        , document_(document)
        , before_(std::move(before))
        , after_(std::move(after)) {}

    void undo() override { document_.assign(before_); }
    void redo() override { document_.assign(after_); }

private:
    ScenarioDocument& document_;
    Scenario before_;
    Scenario after_;
};

} // namespace

bool sameScenario(const Scenario& a, const Scenario& b) { return toJson(a) == toJson(b); }

ScenarioDocument::ScenarioDocument(const Scenario& initial, QObject* parent)
    : QObject(parent)
    , scenario_(initial)
    , undo_(new QUndoStack(this)) {}

void ScenarioDocument::edit(const Scenario& next, const QString& what) {
    if (sameScenario(next, scenario_)) {
        return;
    }
    undo_->push(new EditCommand(*this, scenario_, next, what)); // push() applies redo()
}

void ScenarioDocument::assign(const Scenario& scenario) {
    scenario_ = scenario;
    emit changed();
}

QString ScenarioDocument::open(const QString& path) {
    try {
        const Scenario loaded = loadScenarioFile(path.toStdString());
        path_ = path;
        undo_->clear();
        assign(loaded);
        undo_->setClean();
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QString ScenarioDocument::save(const QString& path) {
    try {
        saveScenarioFile(path.toStdString(), scenario_);
        path_ = path;
        undo_->setClean();
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

bool ScenarioDocument::isModified() const { return !undo_->isClean(); }

} // namespace podscope::ui
