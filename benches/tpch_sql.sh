#!/usr/bin/env bash
# The 22 TPC-H queries (benches/tpch/qNN.sql) through `pqcodec sql`, decoded by pqcodec and by
# DataFusion's own Parquet reader in the same binary, on 1 and 2 partitions: each (query,
# reader, partitions) runs RUNS times, alternating readers; the table shows the median seconds
# (`--timing`: session, table registration, planning, execution, output) and the speedup, then
# the sums over the 22 queries. The two readers' outputs are compared (CSV) on the first run.
#
# Usage: [PUSHDOWN=1] benches/tpch_sql.sh [DIR] [SF] [RUNS]
# PUSHDOWN=1 has both readers evaluate the filters while reading (`--pushdown-filters`).
# DIR holds the tables, one file (DIR/lineitem.parquet) or folder (DIR/lineitem/) each; when it
# has none they are generated there by tpchgen-cli (installed with cargo if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/tpch-sf1}
sf=${2:-1}
runs=${3:-3}
pushdown=()
if [ "${PUSHDOWN:-0}" = 1 ]; then
    pushdown=(--pushdown-filters)
fi
tables="part supplier partsupp customer orders lineitem nation region"

if [ ! -e "$dir/lineitem.parquet" ] && [ ! -d "$dir/lineitem" ]; then
    command -v tpchgen-cli >/dev/null || cargo install tpchgen-cli --locked
    mkdir -p "$dir"
    tpchgen-cli parquet --scale-factor "$sf" --output-dir "$dir"
fi
# The bench profile (no LTO): both readers are in the one binary, and DataFusion under fat LTO
# would take most of an hour to build.
cargo build -q --profile bench -p pqcodec-cli --features sql --bin pqcodec
bin=${CARGO_TARGET_DIR:-target}/release/pqcodec

args=()
for t in $tables; do
    if [ -e "$dir/$t.parquet" ]; then
        args+=(--table "$t=$dir/$t.parquet")
    elif [ -d "$dir/$t" ]; then
        args+=(--table "$t=$dir/$t")
    else
        echo "no table $t in $dir" >&2
        exit 1
    fi
done

log=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -rf "$log" "$scratch"' EXIT
for q in $(seq -w 1 22); do
    sql=$(cat "benches/tpch/q$q.sql")
    for partitions in 1 2; do
        for run in $(seq "$runs"); do
            for reader in pqcodec datafusion; do
                out="$scratch/$reader.csv"
                err=$("$bin" sql "$sql" "${args[@]}" --partitions "$partitions" \
                    --reader "$reader" "${pushdown[@]}" --format csv --timing 2>&1 >"$out") || {
                    echo "q$q $reader failed: $err" >&2
                    exit 1
                }
                secs=$(awk '/^rows/ {print $4}' <<<"$err")
                echo "q$q $partitions $reader $secs" >>"$log"
            done
            if [ "$run" = 1 ] && ! cmp -s <(sort "$scratch/pqcodec.csv") <(sort "$scratch/datafusion.csv"); then
                echo "q$q ($partitions partitions): the readers' results differ" >&2
                diff <(sort "$scratch/pqcodec.csv") <(sort "$scratch/datafusion.csv") | head >&2
                exit 1
            fi
        done
    done
done

python3 - "$log" <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    q, p, reader, secs = line.split()
    t.setdefault((q, int(p), reader), []).append(float(secs))
qs = sorted({k[0] for k in t})
print("| query | pqcodec 1p (s) | datafusion 1p (s) | speedup 1p | pqcodec 2p (s) | datafusion 2p (s) | speedup 2p |")
print("|---|---:|---:|---:|---:|---:|---:|")
sums = {}
for q in qs:
    cells = [q]
    for p in (1, 2):
        a = statistics.median(t[(q, p, "pqcodec")])
        b = statistics.median(t[(q, p, "datafusion")])
        sums[(p, "pqcodec")] = sums.get((p, "pqcodec"), 0) + a
        sums[(p, "datafusion")] = sums.get((p, "datafusion"), 0) + b
        cells += [f"{a:.3f}", f"{b:.3f}", f"{b / a:.2f}x"]
    print("| " + " | ".join(cells) + " |")
cells = ["sum"]
for p in (1, 2):
    a, b = sums[(p, "pqcodec")], sums[(p, "datafusion")]
    cells += [f"{a:.2f}", f"{b:.2f}", f"{b / a:.2f}x"]
print("| " + " | ".join(cells) + " |")
PY
