#!/usr/bin/env bash
# Builds the DocC reference of StreamCore and StreamTesting into a folder (default .build-docs/site), from symbol
# graphs that `swift build` emits, with the toolchain's `docc`. Fails on any DocC warning, an unresolved symbol link
# among them, so CI keeps the catalogs' links true to the code.
#
#   scripts/docs.sh [output folder]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="${1:-$root/.build-docs/site}"
work="$root/.build-docs"
graphs="$work/symbol-graphs"
sorted="$work/symbol-graphs-by-module"
# The compiler writes a module's graphs only when it compiles that module; without them, start the build afresh.
if [[ ! -f "$graphs/StreamCore.symbols.json" || ! -f "$graphs/StreamTesting.symbols.json" ]]; then
    rm -rf "$work/build" "$graphs"
fi
mkdir -p "$graphs" "$out"

# StreamTesting depends on StreamCore, so one build emits both modules' graphs. Members that every publisher inherits
# from `Publisher`'s extensions are skipped: they are documented once, on `Publisher`, and would multiply the graph
# twentyfold.
echo "docs: emitting symbol graphs" >&2
swift build --target StreamTesting --scratch-path "$work/build" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-skip-synthesized-members >&2

# docc reads every graph in the folder it is given, so each module gets a folder with its own graphs only
# (`Module.symbols.json` and its extensions of other modules, `Module@Other.symbols.json`).
rm -rf "$sorted"
for module in StreamCore StreamTesting; do
    mkdir -p "$sorted/$module"
    cp "$graphs/$module".symbols.json "$sorted/$module"/
    find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$sorted/$module"/ \;
    echo "docs: $module" >&2
    docc convert "Sources/$module/$module.docc" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.tweetsh.$module" \
        --additional-symbol-graph-dir "$sorted/$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors
done
echo "docs: built $out/StreamCore.doccarchive and $out/StreamTesting.doccarchive" >&2
