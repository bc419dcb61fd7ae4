#!/usr/bin/env bash
# Runs the tests with code coverage and prints line coverage per target, from `llvm-cov report`.
#
#   scripts/coverage.sh [swift test arguments…]      e.g. scripts/coverage.sh --filter TweetKitTests
#
# The instrumented build lives in its own folder (.build-coverage, or $COVERAGE_BUILD) so it does not displace the
# ordinary debug build. The binaries the end-to-end tests spawn are instrumented too, and the tests pass
# LLVM_PROFILE_FILE on to them, so their profiles land beside the test runner's and count toward the targets they run.
# Exits with the tests' status: a failing test fails this script, and the table is still printed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${COVERAGE_BUILD:-$root/.build-coverage}"
# The toolchain's own llvm-cov: it reads the profile format its compiler writes (a distribution's older LLVM does not).
llvm_cov="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov"

if [[ "${COVERAGE_SKIP_TESTS:-0}" == 1 ]]; then status=0; else
    swift test --enable-code-coverage --scratch-path "$build" "$@"
    status=$?
fi

bin="$(swift build --scratch-path "$build" --show-bin-path)"
profdata="$bin/codecov/default.profdata"
# SwiftPM merges the raw profiles only after a passing run; after a failure, merge them here so the table still shows.
if [[ $status -ne 0 ]] && compgen -G "$bin/codecov/*.profraw" > /dev/null; then
    "$(dirname "$llvm_cov")/llvm-profdata" merge -sparse "$bin"/codecov/*.profraw -o "$profdata"
fi
if [[ ! -f "$profdata" ]]; then
    echo "coverage: no profile at $profdata" >&2
    exit 1
fi
objects=("$(ls -d "$bin"/*PackageTests.xctest | head -1)")
for program in tweetsh xapi-stub lineeditor-demo; do
    [[ -x "$bin/$program" ]] && objects+=(-object "$bin/$program")
done

report="$build/coverage-report.txt"
"$llvm_cov" report "${objects[@]}" -instr-profile="$profdata" \
    -ignore-filename-regex='(/\.build[^/]*/|/Tests/|/checkouts/)' > "$report"

# llvm-cov report has one row per file: name, regions, missed, cover, functions, missed, executed, lines, missed, …
# It names files relative to the folder they share (Sources/ when every file is a source), so a row's first path
# component after any Sources/ is its target. Rows are summed by target.
awk -v root="$root/Sources/" '
    $1 ~ /\.swift$/ {
        path = $1
        if (index(path, root) == 1) path = substr(path, length(root) + 1)
        if (index(path, "/") == 0) next
        target = substr(path, 1, index(path, "/") - 1)
        lines[target] += $8; missed[target] += $9
        allLines += $8; allMissed += $9
    }
    END {
        printf "%-20s %10s %10s %8s\n", "target", "lines", "missed", "cover"
        n = 0
        for (t in lines) names[++n] = t
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (names[j] < names[i]) { s = names[i]; names[i] = names[j]; names[j] = s }
        for (i = 1; i <= n; i++) {
            t = names[i]
            printf "%-20s %10d %10d %7.1f%%\n", t, lines[t], missed[t], lines[t] ? 100 * (lines[t] - missed[t]) / lines[t] : 0
        }
        printf "%-20s %10d %10d %7.1f%%\n", "total", allLines, allMissed, allLines ? 100 * (allLines - allMissed) / allLines : 0
    }' "$report"
echo "coverage: per-file detail in $report" >&2
exit $status
