#pragma once

#include <span>
#include <string_view>

namespace podscope::resources::detail {

struct BundledResource {
    std::string_view path;
    std::string_view text;
};

// Defined in a source file that the build generates from resources/ (core/resources/EmbedResources.cmake).
std::span<const BundledResource> bundledResourceTable();

} // namespace podscope::resources::detail
