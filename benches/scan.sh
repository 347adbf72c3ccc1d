#!/usr/bin/env bash
# `pqcodec scan` against `pqcodec scan --reader arrow-rs` (arrow-rs's ParquetRecordBatchReader in
# the same binary, on the same bytes) on every Parquet file in a directory: both sides run
# alternately RUNS times, each run decoding the file REPEAT times; the table shows the median
# rows/s of each side, the speedup, and each side's largest peak heap (as `scan` counts it, the
# file's bytes included). Peak RSS, which also counts the pages of code a run touches, is
# `benches/rss.sh`'s, on two programs that each hold one reader.
#
# Usage: benches/scan.sh DIR [RUNS] [REPEAT]
# The big files of BENCHMARKS.md come from the corpus generator:
#   python3 benches/gen_corpus.py /tmp/big --big --rows 4000000
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: benches/scan.sh DIR [RUNS] [REPEAT]}
runs=${2:-5}
repeat=${3:-10}

cargo build -q --release -p pqcodec-cli --bin pqcodec
bin=${CARGO_TARGET_DIR:-target}/release/pqcodec
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for f in "$dir"/*.parquet; do
    for _ in $(seq "$runs"); do
        for side in pqcodec arrow-rs; do
            cmd=("$bin" scan "$f" --repeat "$repeat" --reader "$side")
            out=$("${cmd[@]}" 2>&1)
            rows=$(awk '/^rows/ {print $2}' <<<"$out")
            secs=$(awk '/^rows/ {print $4}' <<<"$out")
            heap=$(awk '/^rows/ {print $6}' <<<"$out")
            [ -n "$rows" ] || { echo "$side failed on $f: $out" >&2; exit 1; }
            echo "$(basename "$f") $side $rows $secs $heap" >>"$log"
        done
    done
done

python3 - "$log" <<'EOF'
import math, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, side, rows, secs, heap = line.split()
    r = runs.setdefault((name, side), {"rate": [], "heap": []})
    r["rate"].append(int(rows) / float(secs))
    r["heap"].append(int(heap))
print("| file | rows/s pqcodec | rows/s arrow-rs | speedup | peak heap bytes pqcodec | arrow-rs |")
print("|---|---:|---:|---:|---:|---:|")
speedups = []
for name in sorted({n for n, _ in runs}):
    ours, theirs = runs[(name, "pqcodec")], runs[(name, "arrow-rs")]
    a, b = statistics.median(ours["rate"]), statistics.median(theirs["rate"])
    speedups.append(a / b)
    print(f"| {name} | {a / 1e6:.1f} M | {b / 1e6:.1f} M | {a / b:.2f}x "
          f"| {max(ours['heap']):,} | {max(theirs['heap']):,} |")
geo = math.exp(sum(map(math.log, speedups)) / len(speedups))
print(f"\nGeometric mean of the speedups over {len(speedups)} files: {geo:.2f}x")
EOF
