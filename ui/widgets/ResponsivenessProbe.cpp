#include "widgets/ResponsivenessProbe.hpp"

#include "session/ScenarioDocument.hpp"
#include "view/TrainingAnalysis.hpp"
#include "widgets/ControlPanel.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/MainWindow.hpp"

#include <QComboBox>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

constexpr int kHeartbeatMs = 5;
constexpr int kChangeEveryMs = 8;

double percentile(std::vector<double> values, double fraction) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const auto rank =
        static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

} // namespace

ResponsivenessProbe::ResponsivenessProbe(MainWindow& window, int changes, int settleTimeoutMs)
    : window_(window)
    , changes_(changes)
    , settleTimeoutMs_(settleTimeoutMs) {
    heartbeat_.setInterval(kHeartbeatMs);
    connect(&heartbeat_, &QTimer::timeout, this, [this] {
        gapsMs_.push_back(static_cast<double>(sinceBeat_.nsecsElapsed()) * 1e-6);
        sinceBeat_.restart();
    });
    changeTimer_.setInterval(kChangeEveryMs);
    connect(&changeTimer_, &QTimer::timeout, this, &ResponsivenessProbe::makeChange);
    settleTimer_.setInterval(10);
    connect(&settleTimer_, &QTimer::timeout, this, &ResponsivenessProbe::checkSettled);
}

void ResponsivenessProbe::start() {
    made_ = 0;
    gapsMs_.clear();
    result_ = Result{};
    sinceBeat_.start();
    heartbeat_.start();
    changeTimer_.start();
}

void ResponsivenessProbe::makeChange() {
    ControlPanel* controls = window_.explorer()->controls();
    QComboBox* batch = controls->globalBatchBox();
    auto* chunks = controls->findChild<QSpinBox*>("gradient.chunks");
    if (made_ % 2 == 0) {
        batch->setCurrentIndex(made_ / 2 % batch->count());
    } else if (chunks) {
        chunks->setValue(1 + made_ % 8);
    }
    if (++made_ == changes_) {
        changeTimer_.stop();
        sinceLastChange_.start();
        settleTimer_.start();
    }
}

void ResponsivenessProbe::checkSettled() {
    Explorer* explorer = window_.explorer();
    const Scenario& wanted = explorer->document().scenario();
    const TrainingAnalysis* analysis = explorer->analysis();
    const ScenarioRun* run = window_.currentRun();
    if (analysis && sameScenario(analysis->scenario, wanted) && run &&
        sameView(run->scenario, gradientSyncView(wanted, analysis->result))) {
        finish(true);
    } else if (sinceLastChange_.elapsed() > settleTimeoutMs_) {
        finish(false);
    }
}

void ResponsivenessProbe::finish(bool settled) {
    settleTimer_.stop();
    heartbeat_.stop();
    // The time since the last heartbeat counts too: a stall may still be going on.
    gapsMs_.push_back(static_cast<double>(sinceBeat_.nsecsElapsed()) * 1e-6);
    result_.changes = made_;
    result_.maxStallMs = *std::max_element(gapsMs_.begin(), gapsMs_.end());
    result_.p99StallMs = percentile(gapsMs_, 0.99);
    result_.medianStallMs = percentile(gapsMs_, 0.5);
    result_.settleMs = static_cast<double>(sinceLastChange_.nsecsElapsed()) * 1e-6;
    result_.showsLastConfiguration = settled;
    emit finished();
}

} // namespace podscope::ui
