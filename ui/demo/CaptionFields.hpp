#pragma once

#include "training/Scenario.hpp"
#include "training/StepModel.hpp"

#include <string>
#include <vector>

namespace podscope::ui {

// Demo captions quote the model rather than hard-coded numbers: "{step_ms}" in a caption
// becomes the step time of that step's configuration, so a caption stays true when the model
// or its data change. Throws InputError("caption", ...) naming an unknown {field}.
std::string fillCaption(const std::string& caption, const Scenario& scenario,
                        const TrainingResult& result);

// "{replay_clock}": the length of the replay the 3-D view shows for the step, exactly as the replay
// clock writes it. Only the window knows it (its replay runs after the caption is read), so
// fillCaption leaves it for the demo panel to fill.
inline constexpr const char* kReplayClockField = "{replay_clock}";

// The names that may appear in braces, for messages and docs/demos.md.
std::vector<std::string> captionFieldNames();

} // namespace podscope::ui
