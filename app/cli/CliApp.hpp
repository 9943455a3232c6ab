#pragma once

#include <iosfwd>

namespace podscope::cli {

// Exit status: 0 success, 2 bad input (the message names the flag or field), 1 anything else.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

int run(int argc, char** argv, std::ostream& out, std::ostream& err);

} // namespace podscope::cli
