#!/usr/bin/env bash
# Renders every step of every bundled demo with the screenshot mode, as docs/demos.md shows
# them, and the classroom pictures of docs/demos.md and docs/user-guide.md (presentation
# layout, small screens, group colouring on the multipod).
# Usage: docs/images/demos/make-screenshots.sh [build dir] (default build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
program="$(pwd)/../../../${1:-build}/bin/podscope"
shot() { xvfb-run -a -s "-screen 0 1600x900x24" "$program" "$@"; }
declare -A steps=([ring-allreduce]=5 [twod-allreduce]=6 [batch-limit]=5 [model-parallelism]=6
                  [weight-update-sharding]=4 [input-pipeline]=6 [distributed-evaluation]=5
                  [tori-2d-3d]=5)
for demo in "${!steps[@]}"; do
    for ((k = 1; k <= steps[$demo]; k++)); do
        shot --demo "$demo" --step "$k" --size 1600x900 --screenshot "$demo-$k.png"
    done
done
mkdir -p ../classroom
cd ../classroom
shot --demo weight-update-sharding --step 2 --presentation --size 1280x720 --screenshot presentation-1280x720.png
shot --demo distributed-evaluation --step 3 --presentation --size 1920x1080 --screenshot presentation-1920x1080.png
shot --demo ring-allreduce --step 3 --size 1024x768 --screenshot demo-1024x768.png
shot --demo twod-allreduce --step 4 --size 1280x720 --screenshot demo-1280x720.png
shot --demo input-pipeline --step 3 --size 1280x720 --screenshot input-timeline-1280x720.png
shot --demo input-pipeline --step 3 --presentation --size 1024x768 --screenshot input-presentation-1024x768.png
shot --preset mlperf07-ssd-tf-4096 --layout grid --color-by replica --time-us 0 --size 1600x1000 --screenshot multipod-replicas.png
shot --preset mlperf07-resnet50-tf-4096 --layout grid --color-by host --time-us 0 --size 1600x1000 --screenshot multipod-hosts.png
