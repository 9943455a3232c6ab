#pragma once

#include "search/TuneReport.hpp"

#include <string>

namespace podscope::cli {

// The result of `tune` for a person: the space, the top K with why each beats the next, the
// order changes of the timeline and the Pareto front.
std::string tuneText(const search::TuneReport& report);

// CSV: one line per row of the top K (list "top") and of the Pareto front (list "pareto").
std::string tuneCsv(const search::TuneReport& report);

} // namespace podscope::cli
