#!/bin/bash
# Regenerates the 3-D view at 4096 chips of docs/gui.md (issue 23): ResNet-50 on the multipod in
# every layout, by activity in the step replay (the backward pass, the gradient sync), by
# replica and by host, rendered off-screen at 800x500; and two light-background figures. Run
# from the repository root after building (build/bin/podscope); without a display it runs
# under xvfb-run. Each command is printed before it runs.
set -euo pipefail
podscope=${PODSCOPE:-build/bin/podscope}
out=docs/images/view-4096
run() {
    echo "podscope $*"
    if [ -n "${DISPLAY:-}" ]; then
        "$podscope" "$@"
    else
        xvfb-run -a -s "-screen 0 1600x900x24" "$podscope" "$@"
    fi
}
preset=(--preset mlperf07-resnet50-tf-4096)
for layout in torus grid physical unrolled; do
    view=("${preset[@]}" --layout "$layout" --export-size 800x500)
    run "${view[@]}" --time-at backward --export-view "$out/$layout-backward.png"
    run "${view[@]}" --time-at gradient-sync --export-view "$out/$layout-gradient-sync.png"
    run "${view[@]}" --color-by replica --time-at gradient-sync --export-view "$out/$layout-replica.png"
    run "${view[@]}" --color-by host --time-at gradient-sync --export-view "$out/$layout-host.png"
done
# The collective replay (one choice away), mid-all-reduce, by chip state.
run "${preset[@]}" --layout grid --replay collective --time-fraction 0.5 --export-size 800x500 \
    --export-view "$out/grid-collective.png"
# For print: white background, legend and caption.
run "${preset[@]}" --layout grid --time-at backward --export-size 800x500 --export-light \
    --export-legend --export-caption --export-view "$out/grid-backward-light.png"
run "${preset[@]}" --layout torus --color-by replica --time-at gradient-sync --export-size 800x500 \
    --export-light --export-legend --export-view "$out/torus-replica-light.png"
