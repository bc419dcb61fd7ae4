#!/usr/bin/env bash
# The heavy reliability runs that do not fit the regular test suite:
#   - kill -9 a million-tweet import at five random points (CrashSafeImportTests at full size, release tweetsh);
#   - with TWEETSH_SLOW_FAULTS=1, also the fault matrix's timeout row with the client's real 30 s timeout.
#
# Settings (environment): TWEETSH_CRASH_TWEETS (default 1000000), TWEETSH_CRASH_KILLS (default 5),
# TWEETSH_CRASH_SEED (repeat a run's kill points), SCRATCH (SwiftPM scratch path, default .build-faults),
# LOG (where the output is kept, default $TMPDIR/tweetsh-crash-import.log).
#
# The test bundle is copied aside before it runs, so the scratch directory stays free for other builds meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SCRATCH:-.build-faults}
log=${LOG:-${TMPDIR:-/tmp}/tweetsh-crash-import.log}

swift build -c release --scratch-path "$scratch" --product tweetsh
swift build --build-tests --scratch-path "$scratch"
release=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
debug=$(swift build --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d /tmp/tweetsh-crash-run-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$debug/tweetshPackageTests.xctest" "$work/"
cp "$debug/tweetsh" "$work/"

filters=(EndToEndTests.CrashSafeImportTests)
if [[ "${TWEETSH_SLOW_FAULTS:-0}" == 1 ]]; then filters+=(EndToEndTests.FaultTimeoutTests); fi

start=$(date +%s)
for filter in "${filters[@]}"; do
    TWEETSH_BINARY="$release/tweetsh" \
    TWEETSH_CRASH_TWEETS=${TWEETSH_CRASH_TWEETS:-1000000} \
    TWEETSH_CRASH_KILLS=${TWEETSH_CRASH_KILLS:-5} \
    TWEETSH_CRASH_KILL_BY=${TWEETSH_CRASH_KILL_BY:-bytes} \
    TWEETSH_SLOW_FAULTS=${TWEETSH_SLOW_FAULTS:-0} \
        "$work/tweetshPackageTests.xctest" "$filter" 2>&1 | tee -a "$log"
    status=${PIPESTATUS[0]}
    if [[ $status != 0 ]]; then echo "crash-import.sh: $filter failed ($status)" | tee -a "$log"; exit "$status"; fi
done
echo "crash-import.sh: all passed in $(( $(date +%s) - start )) s" | tee -a "$log"
