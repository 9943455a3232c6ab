#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace podscope::resources {

// The files of resources/ are compiled into the core library, so that the programs work
// from any directory and after installation. Paths are relative to resources/, with '/'.

// The text of a bundled file; throws std::out_of_range naming the path when there is none.
std::string_view text(std::string_view path);

// Paths of the bundled files that start with `prefix`, sorted.
std::vector<std::string> list(std::string_view prefix);

} // namespace podscope::resources
