#include "search/TuneReport.hpp"

#include "common/InputError.hpp"
#include "common/Workers.hpp"
#include "timeline/StepTimeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include "common/NumberFormat.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

namespace podscope::search {
namespace {

// The objective split into parts that add up to it (per-example step time for throughput), so
// that two configurations can be compared part by part.
std::vector<std::pair<std::string, double>> contributions(const RankedConfiguration& row,
                                                          Objective objective) {
    const TrainingResult& r = row.result;
    const double steps = static_cast<double>(r.steps);
    const double timelineExtraS = row.confirmed ? row.timelineStepS - r.trainStepS : 0.0;
    std::vector<std::pair<std::string, double>> parts;
    if (objective == Objective::Throughput) {
        const double batch = static_cast<double>(row.scenario.globalBatch);
        for (const BreakdownPart& part : kBreakdownParts) {
            if (part.seconds != &StepBreakdown::evalAmortized) {
                parts.emplace_back(part.label, r.breakdown.*part.seconds / batch);
            }
        }
        parts.emplace_back("step timeline", timelineExtraS / batch);
        return parts;
    }
    const double scale = objective == Objective::ChipSeconds ? static_cast<double>(r.chips) : 1.0;
    for (const BreakdownPart& part : kBreakdownParts) {
        parts.emplace_back(part.label, scale * steps * r.breakdown.*part.seconds);
    }
    parts.emplace_back("start-up and last evaluation", scale * (r.startupS + r.finalEvalWaitS));
    parts.emplace_back("step timeline", scale * steps * timelineExtraS);
    return parts;
}

std::string partAmount(Objective objective, double value) {
    switch (objective) {
    case Objective::Throughput:
        return formatSeconds(value) + " per example";
    case Objective::ChipSeconds:
        return significantDigits(value) + " chip-s";
    case Objective::TimeToTrain:
        break;
    }
    return formatSeconds(value);
}

std::string whyBeats(const RankedConfiguration& a, const RankedConfiguration& b, int nextRank,
                     Objective objective) {
    std::string next(
        1, '#'); // appended apart: GCC 12 at -O3 reports a false -Wrestrict for "#" + string
    next += std::to_string(nextRank);
    if (a.score == b.score) {
        return "ties with " + next + "; listed first by its place in the enumeration";
    }
    const auto pa = contributions(a, objective), pb = contributions(b, objective);
    std::size_t most = 0;
    for (std::size_t i = 0; i < pa.size(); ++i) {
        if (pb[i].second - pa[i].second > pb[most].second - pa[most].second) {
            most = i;
        }
    }
    const double lead =
        std::abs(objectiveValue(objective, b.score) - objectiveValue(objective, a.score));
    const double relative = lead / std::abs(objectiveValue(objective, b.score));
    std::string text = "beats " + next + " by " + formatObjective(objective, lead) + " (" +
                       significantDigits(100 * relative) + " %): " + pa[most].first + " " +
                       partAmount(objective, pb[most].second - pa[most].second) + " less";
    std::string differs;
    for (int d = 0; d < kDimensionCount; ++d) {
        const auto i = static_cast<std::size_t>(d);
        if (a.settings[i] != b.settings[i]) {
            differs += (differs.empty() ? "" : ", ") + dimensionKeys()[i] + " " + a.settings[i] +
                       " (" + next + ": " + b.settings[i] + ")";
        }
    }
    return text + (differs.empty() ? "" : "; differs in " + differs);
}

// Runs the step timeline of each row on `threads` threads; rows are independent.
void confirmWithTimeline(std::vector<RankedConfiguration>& rows, int threads) {
    std::atomic<std::size_t> next{0};
    runWorkers(threads, [&](std::size_t, const std::atomic<bool>& failed) {
        for (std::size_t i = next.fetch_add(1); i < rows.size() && !failed.load();
             i = next.fetch_add(1)) {
            RankedConfiguration& row = rows[i];
            std::optional<StepTimeline> run;
            try {
                const StepPlan plan = buildStepPlan(row.scenario);
                run = simulateStepTimeline(row.scenario, plan);
            } catch (const InputError& e) {
                // A configuration the timeline refuses (none known): ranked as analytic.
                row.timelineDifference = std::string("not confirmed: ") + e.what();
                row.timelineStepS = row.result.trainStepS;
                row.timelineTimeToTrainS = row.result.timeToTrainS;
                continue;
            }
            const StepTimeline& timeline = *run;
            row.confirmed = true;
            row.timelineStepS = timeline.stepS;
            row.timelineTimeToTrainS =
                row.result.timeToTrainS +
                static_cast<double>(row.result.steps) * (timeline.stepS - row.result.trainStepS);
            row.timelineDifference = timeline.difference;
        }
    });
}

nlohmann::json settingsJson(const std::array<std::string, kDimensionCount>& settings) {
    nlohmann::json object = nlohmann::json::object();
    for (int d = 0; d < kDimensionCount; ++d) {
        object[dimensionKeys()[static_cast<std::size_t>(d)]] =
            settings[static_cast<std::size_t>(d)];
    }
    return object;
}

} // namespace

std::string toString(Fidelity fidelity) {
    return fidelity == Fidelity::Analytic ? "analytic" : "timeline";
}

std::string toString(ParetoAxis axis) {
    return axis == ParetoAxis::Chips ? "chips" : "chip-seconds";
}

std::string formatSeconds(double seconds) {
    const double magnitude = std::abs(seconds);
    if (magnitude != 0 && magnitude < 1e-3) {
        return significantDigits(seconds * 1e6) + " µs";
    }
    if (magnitude != 0 && magnitude < 1) {
        return significantDigits(seconds * 1e3) + " ms";
    }
    return significantDigits(seconds) + " s";
}

std::string formatObjective(Objective objective, double value) {
    if (objective == Objective::TimeToTrain) {
        return formatSeconds(value);
    }
    return significantDigits(value) + " " + objectiveUnit(objective);
}

TuneReport buildTuneReport(const SearchSpace& space, const SearchTally& tally,
                           const TuneSettings& settings) {
    TuneReport report;
    report.workload = space.base().workload;
    report.framework = space.base().framework;
    report.settings = settings;
    for (int d = 0; d < kDimensionCount; ++d) {
        report.dimensions[static_cast<std::size_t>(d)] = space.values(d);
    }
    report.configurations = space.configurationCount();
    report.evaluated = tally.evaluated();
    report.skipped = tally.skipped();
    report.complete = report.evaluated + report.skipped.total() == report.configurations;

    // The rows to show and, for the explanation of the last one, the next after it.
    const std::vector<Candidate>& best = tally.best();
    const std::size_t shown = std::min(settings.top + 1, best.size());
    std::vector<RankedConfiguration> rows;
    for (std::size_t i = 0; i < shown; ++i) {
        RankedConfiguration row;
        row.index = best[i].index;
        row.settings = space.settings(row.index);
        row.scenario = space.scenario(space.configuration(row.index));
        row.result = simulateTraining(row.scenario);
        row.score = best[i].score;
        row.analyticRank = static_cast<int>(i + 1);
        rows.push_back(std::move(row));
    }
    if (settings.fidelity == Fidelity::Timeline) {
        if (rows.size() > settings.top) {
            rows.pop_back(); // the timeline ranks only the K it confirms
        }
        confirmWithTimeline(rows, settings.threads);
        for (RankedConfiguration& row : rows) {
            const double throughput =
                static_cast<double>(row.scenario.globalBatch) / row.timelineStepS;
            row.score =
                objectiveScore(settings.objective, row.timelineTimeToTrainS, throughput,
                               row.timelineTimeToTrainS * static_cast<double>(row.result.chips));
        }
        std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return std::tie(a.score, a.index) < std::tie(b.score, b.index);
        });
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const RankedConfiguration& row = rows[i];
            if (row.analyticRank != static_cast<int>(i + 1)) {
                report.orderChanges.push_back(
                    "analytic #" + std::to_string(row.analyticRank) + " is #" +
                    std::to_string(i + 1) + " on the step timeline: step " +
                    formatSeconds(row.timelineStepS) + " against " +
                    formatSeconds(row.result.trainStepS) + " analytic" +
                    (row.timelineDifference.empty() ? "" : " (" + row.timelineDifference + ")"));
            }
        }
    }
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
        rows[i].whyBeatsNext =
            whyBeats(rows[i], rows[i + 1], static_cast<int>(i + 2), settings.objective);
    }
    if (rows.size() > settings.top) {
        rows.pop_back();
    }
    report.top = std::move(rows);

    std::vector<Candidate> front;
    if (settings.axis == ParetoAxis::Chips) {
        for (const auto& [chips, c] : tally.fastestPerChips()) {
            if (front.empty() || c.timeToTrainS < front.back().timeToTrainS) {
                front.push_back(c);
            }
        }
    } else {
        front = tally.chipSecondsFront();
    }
    for (const Candidate& c : front) {
        report.front.push_back({c.index, space.settings(c.index), c.chips, c.timeToTrainS,
                                c.chipSeconds(), c.throughputExamplesPerS,
                                space.scenario(space.configuration(c.index))});
    }
    return report;
}

nlohmann::json toJson(const TuneReport& report) {
    nlohmann::json dimensions = nlohmann::json::object();
    for (int d = 0; d < kDimensionCount; ++d) {
        dimensions[dimensionKeys()[static_cast<std::size_t>(d)]] =
            report.dimensions[static_cast<std::size_t>(d)];
    }
    nlohmann::json top = nlohmann::json::array();
    for (std::size_t i = 0; i < report.top.size(); ++i) {
        const RankedConfiguration& row = report.top[i];
        const TrainingResult& r = row.result;
        nlohmann::json breakdown = nlohmann::json::object();
        for (const BreakdownPart& part : kBreakdownParts) {
            breakdown[part.key] = r.breakdown.*part.seconds;
        }
        nlohmann::json item = {{"rank", i + 1},
                               {"settings", settingsJson(row.settings)},
                               {"objective", objectiveValue(report.settings.objective, row.score)},
                               {"time_to_train_s", r.timeToTrainS},
                               {"step_time_s", r.stepTimeS},
                               {"throughput_examples_per_s", r.throughputExamplesPerS},
                               {"chip_seconds", r.timeToTrainS * static_cast<double>(r.chips)},
                               {"steps", r.steps},
                               {"extrapolated", r.extrapolated},
                               {"bottleneck", r.bottleneck},
                               {"hbm_bytes_per_core", r.memory.total()},
                               {"breakdown", breakdown},
                               {"why_beats_next", row.whyBeatsNext}};
        if (report.settings.fidelity == Fidelity::Timeline) {
            item["analytic_rank"] = row.analyticRank;
            item["timeline"] = {{"confirmed", row.confirmed},
                                {"step_time_s", row.timelineStepS},
                                {"time_to_train_s", row.timelineTimeToTrainS},
                                {"difference", row.timelineDifference}};
        }
        top.push_back(item);
    }
    nlohmann::json points = nlohmann::json::array();
    for (const FrontPoint& p : report.front) {
        points.push_back({{"chips", p.chips},
                          {"time_to_train_s", p.timeToTrainS},
                          {"chip_seconds", p.chipSeconds},
                          {"throughput_examples_per_s", p.throughputExamplesPerS},
                          {"settings", settingsJson(p.settings)}});
    }
    return {{"model", report.workload},
            {"framework", report.framework},
            {"objective", toString(report.settings.objective)},
            {"fidelity", toString(report.settings.fidelity)},
            {"space",
             {{"configurations", report.configurations},
              {"evaluated", report.evaluated},
              {"skipped",
               {{"hbm", report.skipped.hbm},
                {"uneven", report.skipped.uneven},
                {"unsupported", report.skipped.unsupported}}},
              {"complete", report.complete},
              {"dimensions", dimensions}}},
            {"top", top},
            {"pareto_front", {{"axis", toString(report.settings.axis)}, {"points", points}}},
            {"order_changes", report.orderChanges}};
}

} // namespace podscope::search
