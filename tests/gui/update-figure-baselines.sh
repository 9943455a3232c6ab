#!/usr/bin/env bash
# Rewrites the baseline images of the figure test (tests/gui/baselines/*.png) from the charts as
# they draw now. Run it after a change meant to alter the figures, LOOK at every image it wrote,
# and commit them with the change. Usage: tests/gui/update-figure-baselines.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build" --target podscope_figure_gui_tests
PODSCOPE_UPDATE_BASELINES=1 QT_QPA_PLATFORM=offscreen \
    "$build/bin/podscope_figure_gui_tests" chartsMatchTheirBaselineImages
git -C "$root" status --short tests/gui/baselines
