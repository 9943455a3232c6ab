#pragma once

// The suggestions live in the core (the API's messages use them too).
#include "common/Suggestion.hpp"

namespace podscope::cli {
using podscope::closestMatch;
using podscope::editDistance;
} // namespace podscope::cli
