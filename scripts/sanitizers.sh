#!/usr/bin/env bash
# Runs the sanitizer test passes and fails on any sanitizer report.
#
#   scripts/sanitizers.sh [thread|address ...]      default: both
#
# thread:  ThreadSanitizer over the StreamCore stress suite, the shell's view models and the PostgreSQL store's
#          connection queue and cancelled imports (scratch .build-tsan).
# address: AddressSanitizer over the store and LineEditor tests (scratch .build-asan).
# TSAN_FILTER / ASAN_FILTER replace a pass's test filter (e.g. TSAN_FILTER=StreamCoreTests for all of StreamCore).
# Each pass builds only the test targets it runs (TWEETSH_TEST_TARGETS, read by Package.swift): TSAN_TARGETS /
# ASAN_TARGETS name them, comma-separated. With a filter of your own and no target list, the whole package is built.
# A filter that matches no test fails the pass (exit 2): a run that checks nothing must not pass.
# Each pass has its own scratch path so it never invalidates the normal .build. Logs go to .build-sanitizer-logs/<pass>.log.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
passes=("$@")
[[ ${#passes[@]} -gt 0 ]] || passes=(thread address)
out="${SANITIZER_OUT:-$root/.build-sanitizer-logs}"
mkdir -p "$out"

# Reports must not be lost to an early stop: keep running, then fail on the report count. TSan's exit code 66 and
# ASan's abort also fail the run on their own.
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
# Leaks are checked too, with libedit's known ones suppressed (scripts/sanitizers.supp). The pseudo-terminal tests pass
# these variables on to the lineeditor-demo they spawn.
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$root/scripts/sanitizers.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export SWIFT_BACKTRACE=enable=no
# The sanitizers replace the allocator themselves, and the test bundle links the executables' modules: build them
# without jemalloc (Package.swift reads this).
export TWEETSH_SYSTEM_MALLOC=1

status=0
for pass in "${passes[@]}"; do
    case "$pass" in
        thread)
            scratch=.build-tsan
            filter="${TSAN_FILTER:-StreamCoreConcurrencyTests|TweetShellTests\.(SearchViewModelTests|LiveViewModelTests)|PostgresStoreTests\.(PostgresConnectionQueueTests|PostgresCancelledImportTests)}"
            targets=StreamCoreConcurrencyTests,TweetShellTests,PostgresStoreTests
            [[ -z "${TSAN_FILTER:-}" ]] || targets=""
            targets="${TSAN_TARGETS:-$targets}" ;;
        address)
            scratch=.build-asan
            filter="${ASAN_FILTER:-TweetStoreTests|LineEditorTests}"
            targets=TweetStoreTests,LineEditorTests
            [[ -z "${ASAN_FILTER:-}" ]] || targets=""
            targets="${ASAN_TARGETS:-$targets}" ;;
        *) echo "sanitizers: unknown pass '$pass' (thread or address)" >&2; exit 2 ;;
    esac
    log="$out/$pass.log"
    start=$(date +%s)
    # Only the test targets the pass runs, and what they need, are built under the sanitizer (Package.swift).
    TWEETSH_TEST_TARGETS="$targets" swift test --sanitize="$pass" --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1
    code=$?
    seconds=$(( $(date +%s) - start ))
    reports=$(grep -cE 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer' "$log")
    executed=$(grep -oE 'Executed [0-9]+ tests?' "$log" | tail -1)
    swift_testing=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1)
    echo "sanitizers: $pass: exit $code, $reports report(s), ${executed:-no XCTest run}${swift_testing:+, $swift_testing}, ${seconds}s; log $log"
    # A filter that matches nothing checks nothing; that must not pass.
    if [[ -z "$executed$swift_testing" || ( "$executed" =~ ^Executed\ 0 && ( -z "$swift_testing" || "$swift_testing" =~ with\ 0 ) ) ]]; then
        echo "sanitizers: $pass: no test matched '$filter'; nothing was checked" >&2
        status=2
        continue
    fi
    if [[ $code -ne 0 || $reports -ne 0 ]]; then
        status=1
        grep -E -A12 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|error:|failed' "$log" | head -60
    fi
done
exit $status
