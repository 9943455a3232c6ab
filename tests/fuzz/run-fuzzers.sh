#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan, UBSan) in build-fuzz and runs each for SECONDS
# (default 60) on a copy of its seed corpus. Prints executions per second and total executions
# per target; exits non-zero on any finding (crash, sanitizer report, leak, timeout, OOM).
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS]
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${PODSCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${PODSCOPE_FUZZ_JOBS:-$(nproc)}"

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja \
    -DPODSCOPE_FUZZ=ON -DPODSCOPE_BUILD_GUI=OFF -DPODSCOPE_BUILD_TESTS=OFF \
    -DPODSCOPE_BUILD_BENCH=OFF -DPODSCOPE_WERROR=ON >/dev/null
ninja -C "$build" podscope_fuzz_config podscope_fuzz_cli podscope_fuzz_profile podscope_fuzz_machine \
    podscope_fuzz_onnx podscope_fuzz_workload

work="$(mktemp -d "${TMPDIR:-/tmp}/podscope-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
status=0
for target in ${PODSCOPE_FUZZ_TARGETS:-config cli profile machine onnx workload}; do
    corpus="$work/corpus-$target"
    cp -r "$build/tests/fuzz/corpus/$target" "$corpus"
    mkdir -p "$work/artifacts-$target"
    log="$work/$target.log"
    echo "== podscope_fuzz_$target for ${seconds} s"
    # -print_final_stats gives stat::number_of_executed_units and stat::average_exec_per_sec.
    if ! (cd "$work" && "$build/bin/podscope_fuzz_$target" "$corpus" \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="$work/artifacts-$target/" >"$log" 2>&1); then
        status=1
        echo "FINDING in podscope_fuzz_$target:"
        grep -E "ERROR|runtime error|SUMMARY|Test unit written|deadly signal|terminate" "$log" | head -20 || true
        tail -n 40 "$log"
        keep="$root/build-fuzz/findings-$target"
        mkdir -p "$keep"
        cp "$work/artifacts-$target/"* "$keep/" 2>/dev/null || true
        echo "reproducers kept in $keep"
    fi
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    echo "podscope_fuzz_$target: ${rate:-?} executions/s, ${execs:-?} executions in total"
done
exit "$status"
