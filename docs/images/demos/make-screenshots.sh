#!/usr/bin/env bash
# Renders every step of every bundled demo with the screenshot mode, as docs/demos.md shows
# them. Usage: docs/images/demos/make-screenshots.sh [build dir] (default build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
program="../../../${1:-build}/bin/podscope"
declare -A steps=([ring-allreduce]=5 [twod-allreduce]=6 [batch-limit]=5 [model-parallelism]=6
                  [weight-update-sharding]=4 [input-pipeline]=6 [distributed-evaluation]=5)
for demo in "${!steps[@]}"; do
    for ((k = 1; k <= steps[$demo]; k++)); do
        xvfb-run -a -s "-screen 0 1600x900x24" \
            "$program" --demo "$demo" --step "$k" --size 1600x900 --screenshot "$demo-$k.png"
    done
done
