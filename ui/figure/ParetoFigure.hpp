#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace podscope::search {
struct TuneReport;
}

namespace podscope::ui {

// What a search found, as a figure: time to train against what it costs (chips, or
// chip-seconds), the Pareto front (no configuration trains faster for that cost or less) and the
// configurations listed in the search's table (the best by its objective). Plain numbers, so the
// dialog's chart and its exports draw the same thing; times are the analytic model's, the front's
// basis, whatever the fidelity.
struct ParetoFigure {
    enum class Cost { Chips, ChipSeconds };
    struct Point {
        double cost = 0; // chips or chip-seconds
        double timeToTrainS = 0;
        std::uint64_t index = 0; // the configuration's number in the search space
        std::string label;       // its settings, "key=value" joined by ", "
    };
    std::string workload;
    std::string objective; // "time-to-train", "throughput" or "chip-seconds"
    Cost cost = Cost::Chips;
    std::uint64_t evaluated = 0;
    bool complete = true;      // false when the search was cancelled
    std::vector<Point> front;  // by cost
    std::vector<Point> listed; // in the table's (objective's) order
};

ParetoFigure paretoFigure(const search::TuneReport& report);

// The cost of a point as the axis counts it, the axis' title with its unit.
std::string costAxisTitle(const ParetoFigure& figure);
// "Pareto front: time to train against chips" and "resnet50, 112,000 configurations, analytic
// model" (and "cancelled: the configurations evaluated" when incomplete).
std::string title(const ParetoFigure& figure);
std::string subtitle(const ParetoFigure& figure);
// What the figure shows and where the front stops paying: the step on the front that buys the
// least time per unit of cost added.
std::string caption(const ParetoFigure& figure);

} // namespace podscope::ui
