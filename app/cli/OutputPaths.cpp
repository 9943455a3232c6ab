#include "OutputPaths.hpp"

#include "common/InputError.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace podscope::cli {
namespace {

namespace fs = std::filesystem;

// Empty when a file can be created in `folder` (a temporary one, removed at once); the
// system's reason otherwise. Permission bits alone do not tell (root, read-only mounts, /proc).
std::string whyFolderRefusesFiles(const fs::path& folder) {
    std::string pattern = (folder / ".podscope-write-check-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
        return std::strerror(errno);
    }
    ::close(fd);
    ::unlink(pattern.c_str());
    return {};
}

fs::path folderOf(const fs::path& file) {
    return file.has_parent_path() ? file.parent_path() : fs::path(".");
}

} // namespace

void checkOutputFile(const std::string& path, const std::string& field) {
    const fs::path target(path);
    std::error_code ec;
    if (fs::is_directory(target, ec)) {
        throw InputError(field, "'" + path + "' is a folder, not a file");
    }
    const fs::path folder = folderOf(target);
    if (!fs::is_directory(folder, ec)) {
        throw InputError(field, "cannot write '" + path + "': no folder '" + folder.string() + "'");
    }
    if (const std::string why = whyFolderRefusesFiles(folder); !why.empty()) {
        throw InputError(field,
                         "cannot write '" + path + "': folder '" + folder.string() + "': " + why);
    }
}

void checkOutputFolder(const std::string& path, const std::string& field) {
    std::error_code ec;
    fs::path existing = fs::absolute(fs::path(path), ec).lexically_normal();
    while (!fs::exists(existing, ec) && existing.has_relative_path()) {
        existing = existing.parent_path();
    }
    if (!fs::is_directory(existing, ec)) {
        throw InputError(field, "cannot write into '" + path + "': '" + existing.string() +
                                    "' is not a folder");
    }
    if (const std::string why = whyFolderRefusesFiles(existing); !why.empty()) {
        throw InputError(field, "cannot write into '" + path + "': folder '" + existing.string() +
                                    "': " + why);
    }
}

} // namespace podscope::cli
