// libFuzzer target for the configuration loader: any text goes to parseScenario and, when it
// parses, to simulateTraining. Bad input must end as InputError; any other exception escapes
// and libFuzzer reports it as a crash, as do sanitizer findings and timeouts.
#include "common/InputError.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const podscope::Scenario scenario = podscope::parseScenario(text, "fuzz input");
        podscope::simulateTraining(scenario);
    } catch (const podscope::InputError&) {
        // The expected answer to bad input.
    }
    return 0;
}
