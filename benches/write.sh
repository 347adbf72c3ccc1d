#!/usr/bin/env bash
# `pqcodec rewrite FILE OUT` against `pqcodec rewrite FILE OUT --writer arrow-rs` (arrow-rs's
# ArrowWriter in the same binary, under the same flags) on every Parquet file in a directory:
# both read the file with pqcodec's reader and write it again; the table shows each side's
# median seconds spent in the writer's calls over RUNS alternating runs, the speedup, the output
# sizes and each side's largest peak heap (the whole run's, reading included).
#
# Usage: benches/write.sh DIR [RUNS] [-- REWRITE FLAGS...]
#   e.g. benches/write.sh /tmp/tpch/tpchgen 3 -- --compression snappy
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: benches/write.sh DIR [RUNS] [-- REWRITE FLAGS...]}
runs=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
[ "${1:-}" = "--" ] && shift
flags=("$@")

cargo build -q --release -p pqcodec-cli --bin pqcodec
bin=${CARGO_TARGET_DIR:-target}/release/pqcodec
log=$(mktemp)
out=$(mktemp --suffix=.parquet)
trap 'rm -f "$log" "$out"' EXIT

for f in "$dir"/*.parquet; do
    for _ in $(seq "$runs"); do
        for side in pqcodec arrow-rs; do
            line=$("$bin" rewrite "$f" "$out" --writer "$side" "${flags[@]}" 2>&1 | tail -1)
            [[ $line == rows* ]] || { echo "$side failed on $f: $line" >&2; exit 1; }
            read -r _ rows _ _ _ bytes _ _ _ secs _ heap <<<"$line"
            echo "$(basename "$f") $side $rows $secs $bytes $heap" >>"$log"
        done
    done
done

python3 - "$log" <<'PY'
import math, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, side, rows, secs, size, heap = line.split()
    r = runs.setdefault((name, side), {"secs": [], "size": int(size), "heap": []})
    r["secs"].append(float(secs))
    r["heap"].append(int(heap))
print("| file | write s pqcodec | write s arrow-rs | speedup | bytes out pqcodec | arrow-rs | peak heap pqcodec | arrow-rs |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
speedups = []
for name in sorted({n for n, _ in runs}):
    ours, theirs = runs[(name, "pqcodec")], runs[(name, "arrow-rs")]
    a, b = statistics.median(ours["secs"]), statistics.median(theirs["secs"])
    speedups.append(b / a)
    print(f"| {name} | {a:.3f} | {b:.3f} | {b / a:.2f}x | {ours['size']:,} | {theirs['size']:,} "
          f"| {max(ours['heap']):,} | {max(theirs['heap']):,} |")
geo = math.exp(sum(map(math.log, speedups)) / len(speedups))
print(f"\nGeometric mean of the speedups over {len(speedups)} files: {geo:.2f}x")
PY
