// libFuzzer target for the profiler op table reader (podscope-cli profile --table) and the
// summary files (--summary FILE): any text goes to parseOpTable and, when it parses, to
// summarizeProfile as the command reads it (cores and steps from the table) and with both given;
// text that opens like JSON also goes to parseProfileFile. Bad input must end as InputError.
#include "common/InputError.hpp"
#include "profile/OpTable.hpp"
#include "profile/ProfileFile.hpp"
#include "profile/ProfileSummary.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto ops = podscope::parseOpTable(text, "fuzz input");
        try {
            podscope::summarizeProfile(ops, {0, 0, {}});
        } catch (const podscope::InputError&) {
        }
        podscope::summarizeProfile(ops, {2, 1.5, {"eval/"}});
    } catch (const podscope::InputError&) {
        // The expected answer to bad input.
    }
    if (!text.empty() && text.front() == '{') {
        try {
            podscope::parseProfileFile(text, "fuzz input");
        } catch (const podscope::InputError&) {
        }
    }
    return 0;
}
