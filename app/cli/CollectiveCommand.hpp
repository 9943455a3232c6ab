#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace podscope::cli {

struct CollectiveOptions {
    std::optional<std::string> hardware; // default: the default machine
    std::optional<std::string> topology; // default: the machine's first named preset
    std::optional<std::string> wrap;
    bool twisted = false;
    std::string op = "all-reduce";
    std::string algorithm = "2d";
    std::string bytes = "64MiB";
    std::string element = "bf16";
    std::string groups = "all";
    std::optional<std::string> dimOrder;
    std::string engine = "analytic";
    std::optional<double> linkBwGBps;
    std::optional<double> crossPodBwGBps;
    std::optional<double> latencyUs;
    int chunks = 1;
    bool verify = false;
    bool json = false;
    // Chrome trace of the event engine's record (written atomically); empty: none.
    std::string trace;
};

CLI::App* addCollectiveCommand(CLI::App& app, CollectiveOptions& options);

// Throws InputError on bad input.
void runCollectiveCommand(const CollectiveOptions& options, std::ostream& out);

} // namespace podscope::cli
