#include "analysis/ScalingSweeps.hpp"
#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"
#include "training/TrainingJson.hpp"

#include <algorithm>
#include <podscope/sweep.hpp>

namespace podscope::api {
namespace {

SweepRow rowOf(std::int64_t chips, std::int64_t batch, const TrainingResult& r) {
    SweepRow row;
    row.chips = chips;
    row.globalBatch = batch;
    row.timeToTrainS = r.timeToTrainS;
    row.timeToTrainKnown = r.timeToTrainKnown;
    row.stepTimeS = r.stepTimeS;
    row.throughputExamplesPerS = r.throughputExamplesPerS;
    row.steps = r.steps;
    row.epochs = r.epochs;
    for (const BreakdownPart& part : kBreakdownParts) {
        row.breakdownS.push_back(r.breakdown.*part.seconds);
    }
    row.bottleneck = r.bottleneck;
    row.requiredExamplesPerSPerHost = r.input.requiredExamplesPerSPerHost;
    row.capacityExamplesPerSPerHost = r.input.capacityExamplesPerSPerHost;
    row.extrapolated = r.extrapolated;
    row.hbmBytesPerCore = r.memory.total();
    row.json = podscope::toJson(r);
    row.json["chips"] = chips;
    row.json["global_batch"] = batch;
    return row;
}

// The base's own chips and batch would be replaced point by point: a request that gives them
// as settings has mixed up the two.
void checkBaseSettings(const ConfigurationRequest& base) {
    for (const SettingValue& v : base.settings) {
        std::string flag = v.name;
        std::replace(flag.begin(), flag.end(), '_', '-');
        if (flag == "chips" || flag == "global-batch") {
            throw InputError(flag, "a sweep takes a list of them, not a setting of its base");
        }
    }
}

} // namespace

std::vector<std::string> breakdownKeys() {
    std::vector<std::string> keys;
    for (const BreakdownPart& part : kBreakdownParts) {
        keys.emplace_back(part.key);
    }
    return keys;
}

std::vector<std::string> sweepColumns() {
    std::vector<std::string> c = {
        "chips", "global_batch", "time_to_train_s", "step_time_s", "throughput_examples_per_s",
        "steps", "epochs"};
    for (const auto& key : breakdownKeys()) {
        c.push_back(key);
    }
    for (const char* name :
         {"bottleneck", "required_examples_per_s_per_host", "capacity_examples_per_s_per_host",
          "extrapolated", "hbm_bytes_per_core", "error"}) {
        c.push_back(name);
    }
    return c;
}

std::vector<SweepRow> sweep(const SweepRequest& request) {
    checkBaseSettings(request.base);
    const Configuration base = Configuration::load(request.base);
    if (request.chips.empty()) {
        throw InputError("chips", "give at least one chip count");
    }
    if (request.chips.size() * std::max<std::size_t>(request.globalBatches.size(), 1) >
        limits::kMaxSweepPoints) {
        throw InputError("chips", "too many points: chip counts times global batches must be at "
                                  "most " +
                                      std::to_string(limits::kMaxSweepPoints));
    }
    // A batch that no chip count can use is a typo, not a row of the table.
    for (const auto batch : request.globalBatches) {
        const std::string problem = problemWithValue(*findSetting("global_batch"), batch);
        if (!problem.empty()) {
            throw InputError("global-batch", std::to_string(batch) + " " + problem);
        }
    }
    const std::vector<std::int64_t> batches = request.globalBatches.empty()
                                                  ? std::vector{base.scenario().globalBatch}
                                                  : request.globalBatches;
    std::vector<SweepRow> rows;
    for (const analysis::SweepPoint& p : analysis::sweepGrid(base.scenario(), request.chips, batches)) {
        if (p.result) {
            rows.push_back(rowOf(p.chips, p.globalBatch, *p.result));
            continue;
        }
        SweepRow row;
        row.chips = p.chips;
        row.globalBatch = p.globalBatch;
        row.error = p.error;
        row.json = {{"chips", p.chips}, {"global_batch", p.globalBatch}, {"error", row.error}};
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace podscope::api
