#pragma once

#include <cstddef>
#include <string>

namespace podscope {

// Reads a small text file the user names (a configuration, a demo script). Reads at most
// `limit` + 1 bytes, so that a huge file (or /dev/zero) is noticed without reading it all; the
// caller refuses what is longer than `limit`. Throws InputError naming `field` for a folder or
// a file that cannot be read.
std::string readUserTextFile(const std::string& path, const std::string& field, std::size_t limit);

} // namespace podscope
