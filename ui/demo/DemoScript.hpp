#pragma once

#include "figure/ChartKind.hpp"
#include "scene/SceneLayout.hpp"
#include "training/Scenario.hpp"
#include "view/FrameColoring.hpp"
#include "view/StepRun.hpp"

#include <string>
#include <vector>

namespace podscope::ui {

// One step of a guided demo. A step starts from everything the previous step showed and
// changes only what its script names: the configuration, the chart, the 3-D view.
struct DemoStep {
    std::string title;
    std::string caption;       // a few sentences for the class
    Scenario scenario;         // resolved: the previous step's with this step's changes
    ChartKind chart = ChartKind::Breakdown;
    LayoutKind layout = LayoutKind::Torus;
    ColorMode colorMode = ColorMode::ChipState;
    ReplayKind replay = ReplayKind::Collective; // the gradient sync, or the whole step
    double timeFraction = 0.25; // where the replay (collective or step) is shown (0..1)
    bool dataBlocks = false;    // show the data each chip holds, from the functional mode
    bool fullScale = false;     // the "show me at full scale" step
    // A before/after step: the previous step's step breakdown stays beside this one's, on one
    // scale, and the pair's charts keep that scale.
    bool compareWithPrevious = false;
};

// A guided demo: a script in resources/demos (or any file a teacher writes), see
// docs/demos.md for the format.
struct DemoScript {
    std::string name;
    std::string title;
    std::string summary;
    int order = 0; // position in the Demos menu
    std::vector<std::string> sources;
    std::vector<DemoStep> steps;
};

// Reads and checks a script: every step's configuration must simulate, every name must be
// known. Throws InputError whose field names the step and key, e.g.
// "steps[3].scenario.global_batch", and whose message says which demo and file.
DemoScript parseDemoScript(const std::string& text, const std::string& origin);

// The demos bundled in resources/demos, in menu order, and their names.
std::vector<DemoScript> bundledDemos();
std::vector<std::string> bundledDemoNames();
// A bundled demo by name, or a script file by path (anything ending in .json).
// InputError("demo", ...) lists the bundled names when neither exists.
DemoScript loadDemo(const std::string& nameOrPath);

// Groups of at most this many chips can show their data blocks.
constexpr int kMaxDataBlockChips = 64;

} // namespace podscope::ui
