#!/usr/bin/env bash
# The README's quick start. Installs what is missing (Debian 12, apt), builds into build/,
# then either runs PodScope on the default configuration or runs every test.
# Build settings: the "dev" (test) and "user" (run) presets of CMakePresets.json.
#   packaging/quickstart.sh        set up, build, run the main job
#   packaging/quickstart.sh test   set up, build, run all tests through CTest
set -euo pipefail
mode=${1:-run}
case "$mode" in run|test) ;; *) echo "usage: $0 [run|test]" >&2; exit 2 ;; esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."

missing=()
while read -r package; do
    [[ -z "$package" || "$package" == \#* ]] && continue
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done < packaging/debian-packages.txt
if ((${#missing[@]})); then
    echo "quickstart: installing ${missing[*]}" >&2
    sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
# The test command is a developer's and CI's build: warnings are errors. The run command is a
# user's: a newer compiler's new warning must not stop PodScope from building (CMakePresets.json).
if [[ "$mode" == test ]]; then preset=dev; else preset=user; fi
cmake --preset "$preset"
cmake --build --preset "$preset" --parallel "$jobs"

if [[ "$mode" == test ]]; then
    # GUI tests need an X server: run the suite under Xvfb when there is no display.
    if [[ -z "${DISPLAY:-}" ]] && command -v xvfb-run >/dev/null; then
        xvfb-run -a -s "-screen 0 1600x900x24" ctest --test-dir build --output-on-failure --parallel "$jobs"
    else
        ctest --test-dir build --output-on-failure --parallel "$jobs"
    fi
else
    if [[ -x build/bin/podscope ]]; then
        exec build/bin/podscope
    fi
    exec build/bin/podscope-cli
fi
