#pragma once

#include <string>
#include <string_view>

namespace podscope {

// Writes `content` to a temporary file next to `path` and renames it over `path`, so that a
// reader (or a crash) never sees a half-written file and an error leaves the old file intact.
// Throws InputError naming `field` when the directory is missing or unwritable.
void writeFileAtomically(const std::string& path, std::string_view content,
                         const std::string& field);

} // namespace podscope
