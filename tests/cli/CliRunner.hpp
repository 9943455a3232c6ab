#pragma once

#include "CliApp.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace podscope::cli::test {

struct Outcome {
    int status;
    std::string out;
    std::string err;
};

// Runs podscope-cli's entry point in-process, as `podscope-cli ARGS...` would.
inline Outcome runCli(std::vector<std::string> args) {
    args.insert(args.begin(), "podscope-cli");
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    std::ostringstream out, err;
    const int status = run(static_cast<int>(argv.size()), argv.data(), out, err);
    return {status, out.str(), err.str()};
}

} // namespace podscope::cli::test
