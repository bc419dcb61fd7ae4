#!/usr/bin/env bash
# Builds the libFuzzer executables into .build-fuzz/ (or $FUZZ_BUILD).
#
# SwiftPM is not used: an executable target whose entry is LLVMFuzzerTestOneInput has no `main` of its own, so it would
# break the package's normal build. Instead swiftc compiles the module sources the fuzzers need directly: TweetKit once,
# as a static library instrumented for libFuzzer and AddressSanitizer, then each fuzzer against it. The command-line
# fuzzer compiles TweetShell's Commands/ and Config/ folders (and the result list `top` carries) into its own module, as
# they depend only on TweetKit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${FUZZ_BUILD:-$root/.build-fuzz}"
mkdir -p "$out"
# One package name for every module, as SwiftPM gives them, so `package` declarations shared between the store
# targets resolve.
# swiftc runs one frontend job unless told otherwise; with one per core, TweetKit's library built in 27 s instead of
# 47 s on CI's two cores (docs/reliability.md, "What CI runs").
flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -use-ld=lld -package-name tweetsh
    -j "$(nproc 2>/dev/null || echo 1)")

tweetkit_sources=()
while IFS= read -r file; do tweetkit_sources+=("$file"); done < <(find "$root/Sources/TweetKit" -name '*.swift' | sort)

# TweetKit is rebuilt only when one of its sources is newer than the library.
lib="$out/libTweetKit.a"
if [[ ! -f "$lib" ]] || [[ -n "$(find "$root/Sources/TweetKit" -name '*.swift' -newer "$lib" | head -1)" ]]; then
    echo "fuzz build: TweetKit" >&2
    swiftc "${flags[@]}" -module-name TweetKit -emit-module -emit-module-path "$out/TweetKit.swiftmodule" \
        -emit-library -static -o "$lib" "${tweetkit_sources[@]}"
fi

# TweetStore, for the importer target, the same way; SQLite comes from the system through Sources/CSQLite.
# TweetStore decompresses imports through these system libraries (Sources/C*/module.modulemap).
compression_includes=(-I "$root/Sources/CZstd" -I "$root/Sources/CZlib" -I "$root/Sources/CLZMA" -I "$root/Sources/CBZip2")
compression_libraries=(-lzstd -lz -llzma -lbz2)

store_lib() {
    local store="$out/libTweetStore.a"
    if [[ ! -f "$store" || "$lib" -nt "$store" ]] || [[ -n "$(find "$root/Sources/TweetStore" -name '*.swift' -newer "$store" | head -1)" ]]; then
        echo "fuzz build: TweetStore" >&2
        local sources=()
        while IFS= read -r file; do sources+=("$file"); done < <(find "$root/Sources/TweetStore" -name '*.swift' | sort)
        swiftc "${flags[@]}" -module-name TweetStore -I "$out" -I "$root/Sources/CSQLite" "${compression_includes[@]}" \
            -emit-module -emit-module-path "$out/TweetStore.swiftmodule" -emit-library -static -o "$store" "${sources[@]}"
    fi
}

build() {
    local name="$1"; shift
    local binary="$out/fuzz-$name"
    local sources=() argument
    for argument in "$@"; do [[ "$argument" == *.swift ]] && sources+=("$argument"); done
    if [[ -f "$binary" && ! "$lib" -nt "$binary" && ! "$out/libTweetStore.a" -nt "$binary" ]] \
        && [[ -z "$(find "${sources[@]}" -newer "$binary" | head -1)" ]]; then
        return 0
    fi
    echo "fuzz build: $name" >&2
    swiftc "${flags[@]}" -module-name "$(echo "$name" | tr -d '-')Fuzz" -I "$out" -L "$out" \
        -o "$out/fuzz-$name" "$@" -lTweetKit
}

targets=("${@:-query command-line api-page jsonl archive store-import zip}")
for target in ${targets[*]}; do
    case "$target" in
        query) build query "$root/Fuzz/Query/QueryFuzz.swift" ;;
        command-line)
            shell_sources=()
            while IFS= read -r file; do shell_sources+=("$file"); done < <(find "$root/Sources/TweetShell/Commands" "$root/Sources/TweetShell/Config" -name '*.swift' | sort)
            # `top` carries the current results, so the parser needs the result list's two value types.
            shell_sources+=("$root/Sources/TweetShell/ViewModels/ResultList.swift" "$root/Sources/TweetShell/Formatting/ResultItem.swift")
            build command-line "$root/Fuzz/CommandLine/CommandLineFuzz.swift" "${shell_sources[@]}" ;;
        api-page) build api-page "$root/Fuzz/APIPage/APIPageFuzz.swift" ;;
        jsonl) build jsonl "$root/Fuzz/JSONL/JSONLFuzz.swift" ;;
        archive) build archive "$root/Fuzz/Archive/ArchiveFuzz.swift" ;;
        store-import)
            store_lib
            build store-import "$root/Fuzz/StoreImport/StoreImportFuzz.swift" -I "$root/Sources/CSQLite" \
                "${compression_includes[@]}" -lTweetStore -lsqlite3 "${compression_libraries[@]}" ;;
        zip)
            store_lib
            build zip "$root/Fuzz/Zip/ZipFuzz.swift" -I "$root/Sources/CSQLite" "${compression_includes[@]}" \
                -lTweetStore -lsqlite3 "${compression_libraries[@]}" ;;
        *) echo "unknown fuzz target: $target" >&2; exit 2 ;;
    esac
done
