#!/bin/bash
# Regenerates the step-replay screenshots of docs/gui.md (issue 13): four presets, three moments
# of a step each. Run from the repository root after building (build/bin/podscope); without a
# display it runs under xvfb-run. Each command is printed before it runs.
set -euo pipefail
podscope=${PODSCOPE:-build/bin/podscope}
out=docs/images/step-replay
run() {
    echo "podscope $*"
    if [ -n "${DISPLAY:-}" ]; then
        "$podscope" "$@"
    else
        xvfb-run -a -s "-screen 0 1600x900x24" "$podscope" "$@"
    fi
}
shot() { # NAME PRESET-AND-OPTIONS... -- MOMENT
    local name=$1 moment=${@: -1}
    shift
    set -- "${@:1:$#-1}"
    local links=()
    [ "$(layout "$moment")" = unrolled ] && links=(--links utilisation)
    run "$@" "${links[@]}" --replay step --time-at "$moment" --size 1440x900 --screenshot "$out/$name-$moment.png"
}
# Compute on the torus; exchanges on the unrolled grid, whose links are a heat map of their
# utilisation.
layout() { case $1 in forward | optimizer) echo torus ;; *) echo unrolled ;; esac; }
for moment in forward gradient-sync optimizer; do
    shot resnet50 --preset mlperf07-resnet50-tf-4096 --layout "$(layout $moment)" "$moment"
    shot bert-wus --preset mlperf07-bert-tf-4096 --wus on --layout "$(layout $moment)" "$moment"
done
for moment in forward model-parallel gradient-sync; do
    shot transformer-tensor --preset mlperf07-transformer-jax-4096 --layout "$(layout $moment)" "$moment"
    shot maskrcnn-spatial --preset mlperf07-maskrcnn-tf-512 --layout "$(layout $moment)" "$moment"
done
