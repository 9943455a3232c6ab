#include "common/TextFile.hpp"

#include "common/InputError.hpp"

#include <filesystem>
#include <fstream>

namespace podscope {

std::string readUserTextFile(const std::string& path, const std::string& field, std::size_t limit) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        throw InputError(field, "'" + path + "' is a directory, not a file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(field, "cannot read '" + path + "'");
    }
    std::string text(limit + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (in.bad()) {
        throw InputError(field, "cannot read '" + path + "'");
    }
    return text;
}

} // namespace podscope
