#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time from its committed seed corpus (Fuzz/Corpus/<target>).
#
#   scripts/fuzz.sh [seconds-per-target] [target ...]      default 30 s; targets: query command-line api-page jsonl archive store-import zip
#
# New inputs the fuzzer finds go to fuzz-out/<target>/corpus (not committed), crashing inputs to fuzz-out/<target>/.
# Prints executions and crashes per target; exits 1 when any target crashed (or failed to run), 0 otherwise.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-30}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(query command-line api-page jsonl archive store-import zip)
build="${FUZZ_BUILD:-$root/.build-fuzz}"
out="${FUZZ_OUT:-$root/fuzz-out}"

FUZZ_BUILD="$build" "$root/Fuzz/build.sh" "${targets[@]}" || { echo "fuzz: build failed" >&2; exit 1; }

# Swift's crash backtracer would otherwise wait on a crashing fuzzer; libFuzzer and ASan report the crash themselves.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Each libFuzzer run is one process on one core, so the targets run as many at a time as there are cores (FUZZ_JOBS
# overrides): on CI's two cores the step takes half as long, and each target still gets its seconds on a core of its own.
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
run_target() {
    local target=$1 dir="$out/$1"
    mkdir -p "$dir/corpus"
    "$build/fuzz-$target" "$dir/corpus" "$root/Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$dir/" >"$dir/fuzz.log" 2>&1
    echo $? >"$dir/exit-code"
}
running=0
for target in "${targets[@]}"; do
    rm -f "$out/$target/exit-code"
    run_target "$target" &
    running=$((running + 1))
    if [[ $running -ge $jobs ]]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

status=0
printf '%-14s %12s %8s  %s\n' target executions crashes notes
for target in "${targets[@]}"; do
    dir="$out/$target"
    log="$dir/fuzz.log"
    code=$(cat "$dir/exit-code" 2>/dev/null || echo 1)
    executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    crashes=$(grep -c 'Test unit written to' "$log")
    note=""
    if [[ $code -ne 0 ]]; then
        status=1
        [[ $crashes -gt 0 ]] || crashes=1
        note="exit $code; see $log"
        artifact=$(grep -o "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //')
        [[ -n "$artifact" ]] && note="$note; input $artifact"
    fi
    printf '%-14s %12s %8s  %s\n' "$target" "${executions:-?}" "$crashes" "$note"
done
exit $status
