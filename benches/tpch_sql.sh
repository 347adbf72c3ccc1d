#!/usr/bin/env bash
# The 22 TPC-H queries (benches/tpch/qNN.sql) through `pqcodec sql`, decoded by pqcodec and by
# DataFusion's own Parquet reader in the same binary, on each partition count given: each
# (query, reader, partitions) runs RUNS times, alternating readers. Per query and reader it
# prints the median wall time and CPU time (user + system: on a machine with fewer cores than
# partitions, the cost that grows with partitions shows there, not in wall time), the user time
# alone (the system time, mostly the kernel zeroing fresh huge pages, moves most), the scans'
# `metadata_load_time` and `bytes_scanned`, the page faults (`--timing`), and the ratios
# DataFusion / pqcodec;
# then the sums over the 22 queries. The two readers' outputs are compared (CSV) on the first
# run.
#
# Usage: [PUSHDOWN=1|0|compare] [BIN=path/to/pqcodec] [LOG=file] [SHORT_RUNS=6] [SHORT_SECONDS=2]
#        [QUERIES="13 22"] benches/tpch_sql.sh [DIR] [SF] [RUNS] [PARTITIONS...]
# QUERIES: the query numbers run (all 22 by default).
# A query whose first run takes under SHORT_SECONDS (wall, on both sides) runs SHORT_RUNS times
# instead of RUNS; the queries where the first side takes more CPU are listed with their ratio.
# PARTITIONS: 1 2 16 by default. Each reader as it is by default (pqcodec's evaluates the
# filters while reading, DataFusion's does not); PUSHDOWN=1 has both evaluate them while
# reading (`--pushdown-filters`), PUSHDOWN=0 neither; PUSHDOWN=compare runs pqcodec's reader
# without and with it in place of the two readers (the ratios: with / without). LOG keeps every
# run's figures, a line each.
# DIR holds the tables, one file (DIR/lineitem.parquet) or folder (DIR/lineitem/) each; when
# it has none they are generated there by tpchgen-cli (installed with cargo if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/tpch-sf1}
sf=${2:-1}
runs=${3:-3}
shift $(($# < 3 ? $# : 3))
partition_counts=("$@")
[ ${#partition_counts[@]} -gt 0 ] || partition_counts=(1 2 16)
# The two sides compared: a reader, `+pushdown` if told to evaluate the filters while reading,
# `-pushdown` if told not to.
sides=(pqcodec datafusion)
case "${PUSHDOWN:-}" in
    1) sides=(pqcodec+pushdown datafusion+pushdown) ;;
    0) sides=(pqcodec-pushdown datafusion-pushdown) ;;
    compare) sides=(pqcodec-pushdown pqcodec+pushdown) ;;
esac
short_runs=${SHORT_RUNS:-6}
short_seconds=${SHORT_SECONDS:-2}
tables="part supplier partsupp customer orders lineitem nation region"

if [ ! -e "$dir/lineitem.parquet" ] && [ ! -d "$dir/lineitem" ]; then
    command -v tpchgen-cli >/dev/null || cargo install tpchgen-cli --locked
    mkdir -p "$dir"
    tpchgen-cli parquet --scale-factor "$sf" --output-dir "$dir"
fi
# The release build (both readers are in the one binary), or the binary BIN names.
if [ -n "${BIN:-}" ]; then
    bin=$BIN
else
    cargo build -q --release -p pqcodec-cli --features sql --bin pqcodec
    bin=${CARGO_TARGET_DIR:-target}/release/pqcodec
fi

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

# The tables in the page cache before the first run: the reader that goes first would
# otherwise wait for the disk.
find "$dir" -type f -name '*.parquet' -exec cat {} + >/dev/null

scratch=$(mktemp -d)
log=${LOG:-$scratch/log}
: >"$log"
trap 'rm -rf "$scratch"' EXIT
for q in ${QUERIES:-$(seq 1 22)}; do
    q=$(printf '%02d' $((10#$q)))
    for partitions in "${partition_counts[@]}"; do
        # A query that runs in under SHORT_SECONDS (its first run, both sides) runs
        # SHORT_RUNS times: the noise of a second-long run is as large as the readers'
        # difference. Decided before any ratio is seen, so that no side is favoured.
        cell_runs=$runs
        run=0
        while [ "$run" -lt "$cell_runs" ]; do
            run=$((run + 1))
            # The reader that goes first swaps from run to run: a query's first run pays more
            # system time (the kernel hands the process fresh pages), whichever reader it is.
            order=("${sides[@]}")
            if [ $((run % 2)) = 0 ]; then order=("${sides[1]}" "${sides[0]}"); fi
            for side in "${order[@]}"; do
                out="$scratch/$side.csv"
                pushdown=()
                case "$side" in
                    *+pushdown) pushdown=(--pushdown-filters true) ;;
                    *-pushdown) pushdown=(--pushdown-filters false) ;;
                esac
                err=$("$bin" sql --file "benches/tpch/q$q.sql" "${args[@]}" \
                    --partitions "$partitions" --reader "${side%[+-]pushdown}" "${pushdown[@]}" \
                    --format csv --timing 2>&1 >"$out") || {
                    echo "q$q $side failed: $err" >&2
                    exit 1
                }
                # rows N seconds W cpu C user U system S faults F metadata_load_seconds M ...
                fields=$(awk '/^rows/ { for (i = 1; i < NF; i += 2) v[$i] = $(i + 1);
                    print v["seconds"], v["cpu"], v["user"], v["metadata_load_seconds"], v["bytes_scanned"], v["faults"] }' <<<"$err")
                echo "q$q $partitions $side $fields" >>"$log"
            done
            first="$scratch/${sides[0]}.csv" second="$scratch/${sides[1]}.csv"
            if [ "$run" = 1 ] && ! cmp -s <(sort "$first") <(sort "$second"); then
                echo "q$q ($partitions partitions): the results differ" >&2
                diff <(sort "$first") <(sort "$second") | head >&2
                exit 1
            fi
            if [ "$run" = 1 ] && tail -n 2 "$log" | awk -v s="$short_seconds" '$4 >= s { long = 1 } END { exit long }'; then
                cell_runs=$((runs > short_runs ? runs : short_runs))
            fi
        done
    done
done

python3 - "$log" "${sides[@]}" "${partition_counts[@]}" <<'PY'
import statistics, sys
first, second = sys.argv[2:4]
t = {}
for line in open(sys.argv[1]):
    q, p, reader, wall, cpu, user, meta, scanned, faults = line.split()
    t.setdefault((q, int(p), reader), []).append(
        (float(wall), float(cpu), float(user), float(meta), int(scanned), int(faults)))
partitions = [int(p) for p in sys.argv[4:]]
qs = sorted({k[0] for k in t})
names = ["wall (s)", "CPU (s)", "user CPU (s)", "metadata_load_time (ms)", "bytes_scanned (MB)",
         "page faults (k)"]
scale = [1, 1, 1, 1e3, 1e-6, 1e-3]
for p in partitions:
    print(f"\n{p} partitions: {first} / {second}, and {second} / {first}")
    print("| query | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    sums = [[0.0, 0.0] for _ in names]
    dearer = []
    for q in qs:
        cells = [q]
        for i in range(len(names)):
            a = statistics.median(r[i] for r in t[(q, p, first)])
            b = statistics.median(r[i] for r in t[(q, p, second)])
            sums[i][0] += a
            sums[i][1] += b
            if i == 1 and a > b:
                dearer.append(f"{q} {a / b:.2f}x ({len(t[(q, p, first)])} runs)")
            ratio = f" ({b / a:.2f}x)" if a > 0 and i < 3 else ""
            cells.append(f"{a * scale[i]:.3f} / {b * scale[i]:.3f}{ratio}")
        print("| " + " | ".join(cells) + " |")
    cells = ["sum"]
    for i, (a, b) in enumerate(sums):
        ratio = f" ({b / a:.2f}x)" if a > 0 and i < 3 else ""
        cells.append(f"{a * scale[i]:.2f} / {b * scale[i]:.2f}{ratio}")
    print("| " + " | ".join(cells) + " |")
    print(f"{first} takes more CPU than {second}: " + (", ".join(dearer) or "none"))
PY
