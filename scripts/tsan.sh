#!/usr/bin/env bash
# Runs the StreamCore thread stress suite under ThreadSanitizer and fails on any report.
#
# Usage: scripts/tsan.sh [test filter]      (default filter: StreamCoreTests.Stress)
# Environment: TSAN_SCRATCH  build directory (default .build-tsan, kept apart from the normal build, since every
#                            module is rebuilt with instrumentation)
#
# Exit status: 0 when the tests ran, passed and ThreadSanitizer printed nothing; 1 on any ThreadSanitizer report;
# the test run's own status if it failed; 2 when the filter matched no test (a run that checks nothing must not pass).
set -uo pipefail

cd "$(dirname "$0")/.."
filter="${1:-StreamCoreTests.Stress}"
scratch="${TSAN_SCRATCH:-.build-tsan}"
log="$(mktemp "${TMPDIR:-/tmp}/tsan.XXXXXX")"
trap 'rm -f "$log"' EXIT

start=$(date +%s)
# halt_on_error=0 lets every race in the run be reported, not just the first; second_deadlock_stack makes lock-order
# reports name both acquisitions.
TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    swift test --sanitize=thread --scratch-path "$scratch" --filter "$filter" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

reports=$(grep -c "WARNING: ThreadSanitizer" "$log")
if [ "$reports" -gt 0 ]; then
    echo "tsan.sh: ThreadSanitizer reported $reports problem(s) (filter '$filter', ${elapsed}s); see the WARNING blocks above." >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "tsan.sh: the test run failed with status $status (filter '$filter', ${elapsed}s)." >&2
    exit "$status"
fi
if ! grep -Eq "Executed [1-9][0-9]* tests?" "$log"; then
    echo "tsan.sh: no test matched filter '$filter'; nothing was checked." >&2
    exit 2
fi
echo "tsan.sh: clean: $(grep -Eo 'Executed [0-9]+ tests?' "$log" | tail -1), no ThreadSanitizer reports, ${elapsed}s including the build."
