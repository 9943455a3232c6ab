#pragma once

#include "collective/CollectiveSpec.hpp"
#include "common/Cancelled.hpp"
#include "training/StepPlan.hpp"

#include <utility>
#include <vector>

namespace podscope {

// Times the exchanges of a step plan: collectives with a collective engine, the sum between a
// chip's two cores at the HBM rate, halo swaps at the link rate. Many exchanges repeat one shape
// (every layer of a transformer, every batch norm of a width), so collective times are
// remembered. The analytic evaluator uses the analytic engine; the step timeline the event
// engine (their results agree within 1 % without other traffic: docs/collectives.md), or the
// flow engine where the event engine's ring steps would be too many.
class ExchangeTimer {
public:
    enum class Engine { Analytic, Event };

    ExchangeTimer(const StepPlan& plan, Engine engine = Engine::Analytic)
        : plan_(plan)
        , engine_(engine) {}

    // The exchange's whole time, including the launch cost of its kernel.
    double seconds(const Exchange& e);
    // Only the collective part over the links (0 without a collective).
    double collectiveSeconds(const CollectiveSpec& spec);
    // The event engine's runs throw Cancelled once `stop` is set.
    void setStop(const StopFlag* stop) { stop_ = stop; }
    // Whether a collective had too many ring steps for the event engine and was timed by the
    // flow engine instead (collective/ConcurrentCollectives.hpp).
    bool usedFlows() const { return usedFlows_; }

private:
    const StepPlan& plan_;
    Engine engine_;
    const StopFlag* stop_ = nullptr;
    bool usedFlows_ = false;
    std::vector<std::pair<CollectiveSpec, double>> cache_;
};

} // namespace podscope
