#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace podscope::cli {

struct CalibrateOptions {
    bool json = false;
    std::optional<std::string> hardware; // the machine whose measured steps are fitted
    std::optional<std::string> write;    // the calibration file to replace with the fit
};

CLI::App* addCalibrateCommand(CLI::App& app, CalibrateOptions& options);
void runCalibrateCommand(const CalibrateOptions& options, std::ostream& out);

} // namespace podscope::cli
