#pragma once

#include <optional>
#include <string>
#include <vector>

namespace podscope {

// The candidate a mistyped word most likely meant: the only one it starts, or the nearest one
// within two edits (a letter left out, added, changed or two swapped); nothing when none is close.
std::optional<std::string> closestMatch(const std::string& word,
                                        const std::vector<std::string>& candidates);

// Letters to add, remove, change or swap (adjacent) to turn `a` into `b` (optimal string
// alignment distance).
std::size_t editDistance(const std::string& a, const std::string& b);

} // namespace podscope
