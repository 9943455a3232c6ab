#pragma once

#include <string>

namespace podscope {

// The table of docs/settings.md, from scenarioSettings(): `podscope-cli settings --markdown`
// prints it, and a test fails when the docs hold another.
std::string settingsMarkdown();

} // namespace podscope
