#!/bin/sh
# Remakes the figures of docs/step-timeline.md from the traces podscope-cli writes.
# Run from the repository root after a build: sh docs/images/timeline/make-figures.sh
set -e
cli=build/bin/podscope-cli
here=docs/images/timeline
tmp=$(mktemp -d)
$cli timeline --preset mlperf07-resnet50-tf-4096 --overlap bucketed --out "$tmp/bucketed.json" > /dev/null
python3 $here/trace_figure.py tracks "$tmp/bucketed.json" "chip 0" $here/resnet50-bucketed.svg \
    "ResNet-50 on the 4096-chip multipod, gradient buckets under the backward pass: chip 0's step"
$cli timeline --preset mlperf07-resnet50-tf-4096 --slow-chip 5 --slow-factor 2 --trace-chip 4 \
    --trace-chip 100 --out "$tmp/slow.json" > /dev/null
python3 $here/trace_figure.py chips "$tmp/slow.json" $here/resnet50-slow-chip.svg \
    "ResNet-50 on the multipod, chip 5 computing 2x slower: who waits for whom" \
    "chip 100=chip 100 (another group)" "chip 4=chip 4 (chip 5's batch-norm group)" \
    "slowest chip (chip 5)=chip 5 (2x slower)"
for f in resnet50-bucketed resnet50-slow-chip; do
    rsvg-convert -o $here/$f.png $here/$f.svg
done
rm -r "$tmp"
