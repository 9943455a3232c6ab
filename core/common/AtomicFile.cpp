#include "common/AtomicFile.hpp"

#include "common/InputError.hpp"

#include <filesystem>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace podscope {

void writeFileAtomically(const std::string& path, std::string_view content,
                         const std::string& field) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir)) {
        throw InputError(field, "no directory '" + dir.string() + "'");
    }
    // Appended, not `"." + std::string`: GCC 12 at -O3 reports a false -Wrestrict there.
    const fs::path temp = dir / std::string(".")
                                    .append(target.filename().string())
                                    .append(".tmp")
                                    .append(std::to_string(static_cast<long>(::getpid())));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw InputError(field, "cannot write '" + temp.string() + "'");
        }
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            out.close();
            std::error_code ignored;
            fs::remove(temp, ignored);
            throw InputError(field, "cannot write '" + temp.string() + "'");
        }
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw InputError(field, "cannot replace '" + path + "'");
    }
}

} // namespace podscope
