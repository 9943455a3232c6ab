#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan, UBSan) in build-fuzz and runs each for SECONDS
# (default 60) on a copy of its seed corpus. Prints executions per second and total executions
# per target; exits non-zero on any finding (crash, sanitizer report, leak, timeout, OOM).
# The command line has two targets that share one slot of SECONDS: cli (the inputs whose work is
# small, two thirds of it) and cli_heavy (every input, the remaining third), so the total stays
# SECONDS per file format.
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS]
# PODSCOPE_FUZZ_BUILD_DIR (default build-fuzz), PODSCOPE_FUZZ_JOBS (default nproc: the build's jobs
# and the targets run at once) and
# PODSCOPE_FUZZ_TARGETS (default all, e.g. "cli cli_heavy") narrow a run.
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${PODSCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${PODSCOPE_FUZZ_JOBS:-$(nproc)}"

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja \
    -DPODSCOPE_FUZZ=ON -DPODSCOPE_BUILD_GUI=OFF -DPODSCOPE_BUILD_TESTS=OFF \
    -DPODSCOPE_BUILD_BENCH=OFF -DPODSCOPE_WERROR=ON \
    -DCMAKE_UNITY_BUILD=ON >/dev/null
targets="${PODSCOPE_FUZZ_TARGETS:-config cli cli_heavy profile machine onnx workload}"
ninja -C "$build" -j "$jobs" $(printf 'podscope_fuzz_%s ' $targets)

work="$(mktemp -d "${TMPDIR:-/tmp}/podscope-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# One target's run; its report goes to $work/$target.report and a finding leaves
# $work/$target.failed.
fuzz_one() {
    local target="$1" target_seconds
    case "$target" in
        cli) target_seconds=$((seconds * 2 / 3)) ;;
        cli_heavy) target_seconds=$((seconds - seconds * 2 / 3)) ;;
        *) target_seconds="$seconds" ;;
    esac
    local corpus="$work/corpus-$target" log="$work/$target.log" report="$work/$target.report"
    cp -r "$build/tests/fuzz/corpus/$target" "$corpus"
    mkdir -p "$work/artifacts-$target"
    echo "== podscope_fuzz_$target for ${target_seconds} s" >"$report"
    # -print_final_stats gives stat::number_of_executed_units and stat::average_exec_per_sec.
    if ! (cd "$work" && "$build/bin/podscope_fuzz_$target" "$corpus" \
            -max_total_time="$target_seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="$work/artifacts-$target/" >"$log" 2>&1); then
        touch "$work/$target.failed"
        {
            echo "FINDING in podscope_fuzz_$target:"
            grep -E "ERROR|runtime error|SUMMARY|Test unit written|deadly signal|terminate" "$log" | head -20 || true
            tail -n 40 "$log"
            local keep="$build/findings-$target"
            mkdir -p "$keep"
            cp "$work/artifacts-$target/"* "$keep/" 2>/dev/null || true
            echo "reproducers kept in $keep"
        } >>"$report"
    fi
    local execs rate
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    echo "podscope_fuzz_$target: ${rate:-?} executions/s, ${execs:-?} executions in total" >>"$report"
}

# The targets run side by side, one per core (each is single-threaded and bounded by its own
# time), so the wall time is about SECONDS x targets / cores; reports print in target order.
running=0
for target in $targets; do
    if ((running >= jobs)); then
        wait -n
        running=$((running - 1))
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
wait
status=0
for target in $targets; do
    cat "$work/$target.report"
    if [[ -e "$work/$target.failed" ]]; then status=1; fi
done
exit "$status"
