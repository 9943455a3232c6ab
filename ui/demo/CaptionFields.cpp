#include "demo/CaptionFields.hpp"

#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "common/NumberFormat.hpp"
#include "training/StepPlan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

namespace podscope::ui {
namespace {

// A whole number without decimals, a fraction with two: "16", "0.25".
std::string count(double value) {
    return std::abs(value - std::round(value)) < 1e-9 ? groupDigits(value) : fixedDecimals(value, 2);
}

// The rings of the gradient sum as the core schedules them (its all-reduce, or the
// reduce-scatter and all-gather of weight-update sharding): the largest ring, and the ring
// steps one chip takes in all, each step one neighbour-to-neighbour transfer.
struct GradientRings {
    int largestRing = 0;
    int steps = 0;
};

GradientRings gradientRings(const Scenario& scenario) {
    const Topology slice = scenarioTopology(scenario);
    GradientRings rings;
    for (const CollectiveSpec& spec : gradientCollectives(scenario)) {
        const Schedule schedule = buildSchedule(slice, spec, ScheduleScope::ThroughChipZero);
        if (schedule.streams.empty()) {
            continue;
        }
        for (const Phase& phase : schedule.streams.front().phases) {
            rings.largestRing = std::max(rings.largestRing, phase.rings.ringSize);
            rings.steps += phase.rings.ringSize - 1;
        }
    }
    return rings;
}

using Field = std::function<std::string(const Scenario&, const TrainingResult&)>;

const std::map<std::string, Field>& fields() {
    static const std::map<std::string, Field> table{
        {"chips", [](const Scenario&, const TrainingResult& r) { return groupDigits(static_cast<double>(r.chips)); }},
        {"cores", [](const Scenario&, const TrainingResult& r) { return groupDigits(static_cast<double>(r.plan.cores)); }},
        {"replicas", [](const Scenario&, const TrainingResult& r) { return groupDigits(static_cast<double>(r.plan.replicas)); }},
        {"cores_per_replica", [](const Scenario&, const TrainingResult& r) { return std::to_string(r.plan.modelParallel); }},
        {"global_batch", [](const Scenario& s, const TrainingResult&) { return groupDigits(static_cast<double>(s.globalBatch)); }},
        {"per_core_batch", [](const Scenario&, const TrainingResult& r) { return count(r.plan.examplesPerCore); }},
        {"step_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.stepTimeS * 1e3, 2); }},
        {"compute_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.compute * 1e3, 2); }},
        {"sync_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.gradientSyncS * 1e3, 3); }},
        {"exposed_sync_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.gradientSyncExposed * 1e3, 3); }},
        {"model_parallel_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.modelParallelComm * 1e3, 3); }},
        {"optimizer_us", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.optimizer * 1e6, 1); }},
        {"optimizer_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.optimizer * 1e3, 3); }},
        {"input_stall_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.inputStall * 1e3, 2); }},
        {"evaluations", [](const Scenario&, const TrainingResult& r) { return std::to_string(r.evaluations); }},
        {"evaluation_s", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.evaluationS, 2); }},
        {"eval_ms", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.breakdown.evalAmortized * 1e3, 3); }},
        {"throughput", [](const Scenario&, const TrainingResult& r) { return groupDigits(r.throughputExamplesPerS); }},
        {"time_to_train_s", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.timeToTrainS, 1); }},
        {"time_to_train_min", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.timeToTrainS / 60, 1); }},
        {"epochs", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.epochs, 1); }},
        {"steps", [](const Scenario&, const TrainingResult& r) { return groupDigits(static_cast<double>(r.steps)); }},
        {"efficiency_pct", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.computeEfficiency * 100, 1); }},
        {"bottleneck", [](const Scenario&, const TrainingResult& r) { return r.bottleneck; }},
        {"hosts", [](const Scenario&, const TrainingResult& r) { return groupDigits(r.input.hosts); }},
        {"chips_per_host", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.input.chipsPerHost, 0); }},
        {"host_cores", [](const Scenario&, const TrainingResult& r) { return fixedDecimals(r.input.cpuCores, 0); }},
        {"input_need", [](const Scenario&, const TrainingResult& r) { return groupDigits(r.input.requiredExamplesPerSPerHost); }},
        {"input_capacity", [](const Scenario&, const TrainingResult& r) { return groupDigits(r.input.capacityExamplesPerSPerHost); }},
        {"hardware", [](const Scenario& s, const TrainingResult&) { return s.hardware; }},
        {"topology", [](const Scenario& s, const TrainingResult&) { return scenarioTopology(s).dimsText(); }},
        {"slices", [](const Scenario&, const TrainingResult& r) { return std::to_string(r.slices); }},
        {"ring_chips", [](const Scenario& s, const TrainingResult&) { return std::to_string(gradientRings(s).largestRing); }},
        {"ring_steps", [](const Scenario& s, const TrainingResult&) { return std::to_string(gradientRings(s).steps); }},
    };
    return table;
}

} // namespace

std::vector<std::string> captionFieldNames() {
    std::vector<std::string> names;
    for (const auto& [name, field] : fields()) {
        names.push_back(name);
    }
    names.emplace_back("replay_clock");
    return names;
}

std::string fillCaption(const std::string& caption, const Scenario& scenario, const TrainingResult& result) {
    std::string filled;
    std::size_t at = 0;
    while (at < caption.size()) {
        const std::size_t open = caption.find('{', at);
        if (open == std::string::npos) {
            filled += caption.substr(at);
            break;
        }
        const std::size_t close = caption.find('}', open);
        if (close == std::string::npos) {
            throw InputError("caption", "'{' at character " + std::to_string(open + 1) + " is not closed");
        }
        const std::string name = caption.substr(open + 1, close - open - 1);
        if (caption.compare(open, close + 1 - open, kReplayClockField) == 0) {
            filled += caption.substr(at, close + 1 - at); // the demo panel fills it
            at = close + 1;
            continue;
        }
        const auto field = fields().find(name);
        if (field == fields().end()) {
            std::string known;
            for (const auto& n : captionFieldNames()) {
                known += (known.empty() ? "" : ", ") + n;
            }
            throw InputError("caption", "unknown field {" + name + "} (known: " + known + ")");
        }
        filled += caption.substr(at, open - at) + field->second(scenario, result);
        at = close + 1;
    }
    return filled;
}

} // namespace podscope::ui
