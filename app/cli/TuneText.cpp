#include "TuneText.hpp"

#include "common/NumberFormat.hpp"

#include <iomanip>
#include <sstream>

namespace podscope::cli {
namespace {

using namespace search;

// The settings that matter to a reader, on one line.
std::string settingsLine(const std::array<std::string, kDimensionCount>& s) {
    std::string line;
    for (int d = 0; d < kDimensionCount; ++d) {
        if (d == kChips) {
            continue;
        }
        std::string key = dimensionKeys()[static_cast<std::size_t>(d)];
        if (key.rfind("gradient.", 0) == 0) {
            key = key.substr(9);
        }
        line += (line.empty() ? "" : " ") + key + "=" + s[static_cast<std::size_t>(d)];
    }
    return line;
}

} // namespace

std::string tuneText(const TuneReport& r) {
    std::ostringstream out;
    const Objective objective = r.settings.objective;
    out << "tune: " << r.workload << " (" << r.framework << "), objective " << toString(objective)
        << ", fidelity " << toString(r.settings.fidelity) << "\n";
    out << "space: " << r.configurations << " configurations =";
    for (int d = 0; d < kDimensionCount; ++d) {
        out << (d ? " x " : " ") << r.dimensions[static_cast<std::size_t>(d)].size() << " "
            << dimensionKeys()[static_cast<std::size_t>(d)];
    }
    out << "\n       evaluated " << r.evaluated << ", skipped " << r.skipped.total() << " ("
        << r.skipped.hbm << " do not fit in HBM, " << r.skipped.uneven << " do not divide evenly, "
        << r.skipped.unsupported << " unsupported)"
        << (r.complete ? "" : "; INTERRUPTED: the results cover the configurations evaluated")
        << "\n\n";
    out << "top " << r.top.size() << " by " << toString(objective) << ":\n";
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        const RankedConfiguration& row = r.top[i];
        const TrainingResult& t = row.result;
        out << "#" << i + 1 << "  "
            << formatObjective(objective, objectiveValue(objective, row.score))
            << "  chips=" << row.settings[kChips] << " " << settingsLine(row.settings) << "\n";
        out << "     time to train " << formatSeconds(t.timeToTrainS) << ", step "
            << formatSeconds(t.stepTimeS) << ", " << groupedDecimals(t.throughputExamplesPerS, 0)
            << " examples/s, " << groupedDecimals(static_cast<double>(t.steps), 0)
            << " steps, bottleneck " << t.bottleneck
            << (t.extrapolated ? ", batch EXTRAPOLATED" : "") << "\n";
        if (r.settings.fidelity == Fidelity::Timeline && !row.confirmed) {
            out << "     step timeline: " << row.timelineDifference << " (ranked as analytic)\n";
        }
        if (row.confirmed) {
            out << "     step timeline: step " << formatSeconds(row.timelineStepS) << " (analytic "
                << formatSeconds(t.trainStepS) << ", #" << row.analyticRank
                << " analytically), time to train " << formatSeconds(row.timelineTimeToTrainS)
                << (row.timelineDifference.empty() ? "" : "; " + row.timelineDifference) << "\n";
        }
        if (!row.whyBeatsNext.empty()) {
            out << "     " << row.whyBeatsNext << "\n";
        }
    }
    if (r.settings.fidelity == Fidelity::Timeline) {
        out << "\norder on the step timeline: "
            << (r.orderChanges.empty() ? "as analytic\n" : "changed\n");
        for (const auto& change : r.orderChanges) {
            out << "  " << change << "\n";
        }
    }
    out << "\nPareto front (time to train against " << toString(r.settings.axis) << "):\n";
    for (const FrontPoint& p : r.front) {
        out << "  " << std::setw(5) << p.chips << " chips  " << std::setw(9)
            << formatSeconds(p.timeToTrainS) << "  " << std::setw(10)
            << groupedDecimals(p.chipSeconds, 0) << " chip-s  " << settingsLine(p.settings) << "\n";
    }
    return out.str();
}

std::string tuneCsv(const TuneReport& r) {
    std::ostringstream out;
    out << "list,rank";
    for (const auto& key : dimensionKeys()) {
        out << "," << key;
    }
    out << ",objective,time_to_train_s,step_time_s,throughput_examples_per_s,chip_seconds";
    for (const BreakdownPart& part : kBreakdownParts) {
        out << "," << part.key;
    }
    out << ",timeline_step_time_s,timeline_time_to_train_s,why_beats_next\n";
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        const RankedConfiguration& row = r.top[i];
        const TrainingResult& t = row.result;
        out << "top," << i + 1;
        for (const auto& value : row.settings) {
            out << "," << value;
        }
        out << "," << roundTripDigits(objectiveValue(r.settings.objective, row.score)) << ","
            << roundTripDigits(t.timeToTrainS) << "," << roundTripDigits(t.stepTimeS) << ","
            << roundTripDigits(t.throughputExamplesPerS) << ","
            << roundTripDigits(t.timeToTrainS * static_cast<double>(t.chips));
        for (const BreakdownPart& part : kBreakdownParts) {
            out << "," << roundTripDigits(t.breakdown.*part.seconds);
        }
        std::string why = row.whyBeatsNext;
        for (char& c : why) {
            if (c == ',') {
                c = ';';
            }
        }
        out << "," << (row.confirmed ? roundTripDigits(row.timelineStepS) : "") << ","
            << (row.confirmed ? roundTripDigits(row.timelineTimeToTrainS) : "") << "," << why
            << "\n";
    }
    for (std::size_t i = 0; i < r.front.size(); ++i) {
        const FrontPoint& p = r.front[i];
        out << "pareto," << i + 1;
        for (const auto& value : p.settings) {
            out << "," << value;
        }
        out << ",," << roundTripDigits(p.timeToTrainS) << ",,"
            << roundTripDigits(p.throughputExamplesPerS) << "," << roundTripDigits(p.chipSeconds);
        for (std::size_t k = 0; k < std::size(kBreakdownParts); ++k) {
            out << ",";
        }
        out << ",,,\n";
    }
    return out.str();
}

} // namespace podscope::cli
