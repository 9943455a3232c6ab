#!/bin/bash
# Regenerates the 3-D views of docs/machines.md (issue 20): a TPU v4 16x16x16 slice (4096
# chips) in the torus layout, exploded into its 4x4x4 blocks, at three moments: the forward pass
# of a step, the step's gradient sum (the X rings), and the collective replay's Z phase (the
# links between block layers). Run from the repository root after building
# (build/bin/podscope); without a display it runs under xvfb-run. Each command is printed
# before it runs.
set -euo pipefail
podscope=${PODSCOPE:-build/bin/podscope}
out=docs/images/machines
run() {
    echo "podscope $*"
    if [ -n "${DISPLAY:-}" ]; then
        "$podscope" "$@"
    else
        xvfb-run -a -s "-screen 0 1600x900x24" "$podscope" "$@"
    fi
}
v4=(--preset mlperf07-resnet50-tf-4096 --hardware tpu-v4 --chips 4096 --layout torus
    --export-size 1280x720 --export-caption)
run "${v4[@]}" --time-at forward --export-view "$out/tpu-v4-4096-forward.png"
run "${v4[@]}" --time-at gradient-sync --export-view "$out/tpu-v4-4096-gradient-sum.png"
run "${v4[@]}" --replay collective --time-fraction 0.5 --export-view "$out/tpu-v4-4096-z-phase.png"
