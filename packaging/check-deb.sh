#!/usr/bin/env bash
# Builds the .deb from an existing build folder, unpacks it into a temporary root and runs the
# installed programs from there. Usage: packaging/check-deb.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/package/podscope_*.deb | head -n 1)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
for file in usr/bin/podscope-cli usr/bin/podscope usr/share/applications/podscope.desktop \
            usr/share/icons/hicolor/scalable/apps/podscope.svg \
            usr/share/metainfo/io.github.podscope.PodScope.metainfo.xml \
            usr/share/podscope/resources/machines/tpu-v3.json; do
    [[ -e "$root/$file" ]] || { echo "check-deb: $file missing from $deb" >&2; exit 1; }
done
cd "$root"  # far from the source tree: the programs must not need it
"$root/usr/bin/podscope-cli" --version
"$root/usr/bin/podscope-cli" collective --topology tpu-v3-pod --json >/dev/null
"$root/usr/bin/podscope-cli" simulate --preset mlperf07-resnet50-tf-4096 --json >/dev/null
# The report draws the app's charts off-screen, with the Qt plugins the package depends on.
env -u DISPLAY "$root/usr/bin/podscope-cli" report --preset mlperf07-resnet50-tf2-16 --out "$root/report" 2>/dev/null
for chart in strong-scaling weak-scaling breakdown batch; do
    [[ -s "$root/report/$chart.png" && -s "$root/report/$chart.svg" ]] ||
        { echo "check-deb: the installed podscope-cli wrote no $chart chart" >&2; exit 1; }
done
echo "check-deb: $(basename "$deb") installs and runs"
