#!/usr/bin/env bash
# Refits the three shared parameters of the TPU-v3 core model on the measured MLPerf v0.7 steps
# (resources/calibration/tpu-v3-steps.json), writes them to resources/calibration/tpu-v3-fit.json,
# rebuilds (the resources are compiled in) and prints the tables of docs/training-model.md.
#   resources/generators/calibrate.sh [build-dir]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=${1:-build}
python3 resources/generators/gen_workloads.py
python3 resources/generators/gen_presets.py
python3 resources/generators/gen_calibration_points.py
cmake --build "$build" --target podscope-cli
"$build/bin/podscope-cli" calibrate --write resources/calibration/tpu-v3-fit.json > /dev/null
cmake --build "$build" --target podscope-cli
"$build/bin/podscope-cli" calibrate
python3 resources/generators/preset_table.py "$build/bin/podscope-cli"
