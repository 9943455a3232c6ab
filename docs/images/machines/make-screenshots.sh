#!/bin/bash
# Regenerates the 3-D views of docs/machines.md (issue 20): a TPU v4 16x16x16 slice (4096
# chips) in the torus layout, exploded into its 4x4x4 blocks, at three moments: the forward pass
# of a step, the step's gradient sum (the X rings), and the collective replay's Z phase (the
# links between block layers); and a TPU v5e multislice run, 4 slices of 256 chips joined by the
# data-centre network, at three moments: the forward pass, the gradient sum inside each slice
# over the ICI, and the DCN stage between the slices, and the gradient-sum replay in its DCN
# stage. Run from the repository root after building
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
run "${v4[@]}" --replay collective --time-fraction 0.5 --export-legend \
    --export-view "$out/tpu-v4-4096-z-phase.png"
# Four v5e slices of 16x16: the DCN stage runs from 7.455 to 7.707 ms of this step (the
# "gradient all-reduce across 4 slices (DCN)" span of podscope-cli timeline ... --out trace.json).
v5e=(--preset mlperf07-resnet50-tf-4096 --hardware tpu-v5e --chips 256 --slices 4
    --global-batch 4096 --layout torus --export-size 1280x720 --export-caption)
run "${v5e[@]}" --time-at forward --export-view "$out/tpu-v5e-4x256-forward.png"
run "${v5e[@]}" --time-at gradient-sync --export-view "$out/tpu-v5e-4x256-ici-sum.png"
run "${v5e[@]}" --time-us 7580 --export-view "$out/tpu-v5e-4x256-dcn-sum.png"
# The gradient-sum replay half-way: the DCN stage between the slices' reduce-scatter and
# all-gather, with the chip states and the key of link kinds.
run "${v5e[@]}" --replay collective --time-fraction 0.5 --export-legend \
    --export-view "$out/tpu-v5e-4x256-collective-dcn.png"
