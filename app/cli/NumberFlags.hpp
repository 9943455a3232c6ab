#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>

namespace podscope::cli {

// Checks a numeric flag's text before CLI11 converts it, so that a typo reads
// "chips: 'abc' is not a whole number" instead of CLI11's "Could not convert: --chips = abc".
CLI::Validator wholeNumber(std::int64_t lowest, std::int64_t highest);
CLI::Validator realNumber();

// The whole numbers an option of type Integer can hold.
template <typename Integer> CLI::Validator wholeNumberFor() {
    return wholeNumber(std::numeric_limits<Integer>::min(), std::numeric_limits<Integer>::max());
}

} // namespace podscope::cli
