#!/usr/bin/env bash
# Peak RSS of a scan: `examples/scan_pqcodec.rs` against `examples/scan_arrow_rs.rs`, two
# programs each holding only its own reader (and the parquet crate's footer and page framing,
# which both use), on every Parquet file in a directory. Each runs RUNS times alternately,
# decoding the file REPEAT times; the table shows the median (and range) of GNU time's
# "Maximum resident set size" in KiB. A run's figure moves by a few hundred KiB with where the
# kernel places the executable (64 KiB windows of code are mapped at a time), so take many runs.
#
# Usage: benches/rss.sh DIR [RUNS] [REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: benches/rss.sh DIR [RUNS] [REPEAT]}
runs=${2:-15}
repeat=${3:-3}
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }

cargo build -q --release --example scan_pqcodec --example scan_arrow_rs
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for f in "$dir"/*.parquet; do
    for _ in $(seq "$runs"); do
        for side in pqcodec arrow_rs; do
            kib=$(/usr/bin/time -f "%M" "${CARGO_TARGET_DIR:-target}/release/examples/scan_$side" "$f" "$repeat" 2>&1 >/dev/null | tail -n 1)
            echo "$(basename "$f") $side $kib" >>"$log"
        done
    done
done

python3 - "$log" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, side, kib = line.split()
    runs.setdefault((name, side), []).append(int(kib))
print("| file | peak RSS KiB pqcodec | arrow-rs | difference |")
print("|---|---:|---:|---:|")
for name in sorted({n for n, _ in runs}):
    ours, theirs = runs[(name, "pqcodec")], runs[(name, "arrow_rs")]
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"| {name} | {a:,.0f} ({min(ours):,}-{max(ours):,}) "
          f"| {b:,.0f} ({min(theirs):,}-{max(theirs):,}) | {a - b:+,.0f} |")
PY
