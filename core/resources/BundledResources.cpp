#include "resources/BundledResources.hpp"

#include "resources/BundledResourceTable.hpp"

#include <algorithm>
#include <stdexcept>

namespace podscope::resources {

std::string_view text(std::string_view path) {
    for (const auto& entry : detail::bundledResourceTable()) {
        if (entry.path == path) {
            return entry.text;
        }
    }
    throw std::out_of_range("no bundled resource named '" + std::string(path) + "'");
}

std::vector<std::string> list(std::string_view prefix) {
    std::vector<std::string> paths;
    for (const auto& entry : detail::bundledResourceTable()) {
        if (entry.path.substr(0, prefix.size()) == prefix) {
            paths.emplace_back(entry.path);
        }
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

} // namespace podscope::resources
