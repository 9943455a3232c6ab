#pragma once

#include <string>

namespace podscope::cli {

// Checked before a command starts its work, so that a typo in an output path fails at once
// instead of after seconds of simulation. Both throw InputError naming `field` and the path;
// neither leaves anything on disk.

// `path` can be written as a file: its folder exists and takes new files (the file is written
// next to it and renamed over it), and `path` is not a folder.
void checkOutputFile(const std::string& path, const std::string& field);

// `path` can become a folder of outputs: an existing folder that takes new files, or a missing
// one whose nearest existing parent folder takes new folders.
void checkOutputFolder(const std::string& path, const std::string& field);

} // namespace podscope::cli
