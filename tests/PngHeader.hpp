#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace podscope::test {

struct PngSize {
    unsigned width = 0;
    unsigned height = 0;
};

// The width and height a PNG file's header (its IHDR chunk) states; nothing when the bytes do
// not start as a PNG does. For the command-line tests, which have no image library.
inline std::optional<PngSize> pngSize(const std::string& png) {
    if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
        return std::nullopt;
    }
    const auto be32 = [&png](std::size_t at) {
        return (unsigned(std::uint8_t(png[at])) << 24) |
               (unsigned(std::uint8_t(png[at + 1])) << 16) |
               (unsigned(std::uint8_t(png[at + 2])) << 8) | unsigned(std::uint8_t(png[at + 3]));
    };
    return PngSize{be32(16), be32(20)};
}

} // namespace podscope::test
