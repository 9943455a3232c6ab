// libFuzzer target for the machine loader: any text goes to parseMachine. Bad input must end as
// InputError; any other exception escapes and libFuzzer reports it as a crash, as do sanitizer
// findings and timeouts.
#include "common/InputError.hpp"
#include "machine/Machine.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const podscope::Machine machine = podscope::parseMachine(text, "fuzz input");
        (void)machine.podChips();
    } catch (const podscope::InputError&) {
        // The expected answer to bad input.
    }
    return 0;
}
