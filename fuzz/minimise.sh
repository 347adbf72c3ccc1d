#!/usr/bin/env bash
# Minimises the saved corpus of each fuzz target (all, or those named) in place: the fewest
# inputs that together reach every edge the corpus reaches (libFuzzer's greedy set cover,
# edges only: `-use_counters=0`, so inputs reaching an edge more often are not kept for that).
# Usage: bash fuzz/minimise.sh [TARGET...]   (PQCODEC_FUZZ_TARGET_DIR: as .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir=${PQCODEC_FUZZ_TARGET_DIR:-$HOME/.cache/pqcodec-fuzz-target}
RUSTC_BOOTSTRAP=1 cargo fuzz build --target-dir "$target_dir"
triple=$(rustc -vV | sed -n 's/^host: //p')
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    [ -d "$corpus" ] || continue
    kept=$(mktemp -d)
    "$target_dir/$triple/release/$target" -set_cover_merge=1 -use_counters=0 \
        -rss_limit_mb=1024 -timeout=10 "$kept" "$corpus" 2>/dev/null
    echo "$target: $(find "$corpus" -type f | wc -l) -> $(find "$kept" -type f | wc -l) inputs"
    rm -rf "$corpus"
    mv "$kept" "$corpus"
done
