#pragma once

#include "ScenarioOptions.hpp"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace podscope::cli {

struct ReportOptions {
    ScenarioChoice scenario;
    std::string out;
};

CLI::App* addReportCommand(CLI::App& app, ReportOptions& options);

// Writes the report files into --out; progress and warnings go to `err`.
void runReportCommand(const ReportOptions& options, std::ostream& out, std::ostream& err);

} // namespace podscope::cli
