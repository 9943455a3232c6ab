#include "NumberFlags.hpp"

#include <charconv>
#include <string>
#include <system_error>

namespace podscope::cli {
namespace {

// The text without one leading '+', which CLI11's own conversion accepts too.
std::string_view withoutPlus(const std::string& text) {
    std::string_view view(text);
    if (view.size() > 1 && view.front() == '+' && view[1] != '-') {
        view.remove_prefix(1);
    }
    return view;
}

} // namespace

CLI::Validator wholeNumber(std::int64_t lowest, std::int64_t highest) {
    // The description stays empty: the help text keeps CLI11's plain "INT".
    return CLI::Validator(
        [lowest, highest](std::string& text) -> std::string {
            const std::string_view digits = withoutPlus(text);
            std::int64_t value = 0;
            const auto [end, ec] =
                std::from_chars(digits.data(), digits.data() + digits.size(), value);
            if (ec == std::errc::result_out_of_range ||
                (ec == std::errc() && end == digits.data() + digits.size() &&
                 (value < lowest || value > highest))) {
                return "'" + text + "' is out of range";
            }
            if (ec != std::errc() || end != digits.data() + digits.size()) {
                return "'" + text + "' is not a whole number";
            }
            return {};
        },
        "");
}

CLI::Validator realNumber() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const std::string_view digits = withoutPlus(text);
            double value = 0;
            const auto [end, ec] =
                std::from_chars(digits.data(), digits.data() + digits.size(), value);
            if (ec == std::errc::result_out_of_range) {
                return "'" + text + "' is out of range";
            }
            if (ec != std::errc() || end != digits.data() + digits.size()) {
                return "'" + text + "' is not a number";
            }
            return {};
        },
        "");
}

} // namespace podscope::cli
