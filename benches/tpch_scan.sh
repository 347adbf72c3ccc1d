#!/usr/bin/env bash
# Reads the TPC-H tables of every writer (benches/tpch_tables.sh) as engines read them, the
# embedded ARROW:schema honoured, with pqcodec, arrow-rs (the same binary, `--reader arrow-rs`)
# and polars on one thread, whole files and column by column; prints markdown tables.
#
#   bash benches/tpch_scan.sh [DIR] [RUNS] [REPEAT] [--columns]
#
# Each figure is the best of RUNS runs of `pqcodec scan FILE --repeat REPEAT` (milliseconds per
# read of the file, the file already in memory); polars's is `read_parquet` of the file, best
# of RUNS x REPEAT reads, POLARS_MAX_THREADS=1.
set -euo pipefail
dir=${1:-/tmp/tpch}
runs=${2:-3}
repeat=${3:-2}
per_column=${4:-}
venv=${PQCODEC_BENCH_VENV:-$HOME/.cache/pqcodec-bench-venv}
cd "$(dirname "$0")/.."
cargo build --release -q -p pqcodec-cli
bin=${CARGO_TARGET_DIR:-target}/release/pqcodec

# Best milliseconds per read of `pqcodec scan ARGS`.
best() {
    local best=""
    for _ in $(seq "$runs"); do
        s=$("$bin" scan "$@" --repeat "$repeat" | awk '{print $4}')
        best=$(python3 -c "b='$best'; s=$s/$repeat*1000; print(f'{s:.1f}' if not b or s < float(b) else b)")
    done
    echo "$best"
}

polars() {
    POLARS_MAX_THREADS=1 "$venv/bin/python" - "$1" "$2" "$((runs * repeat))" <<'PY'
import sys, time
import polars as pl
path, column, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
columns = None if column == "-" else [column]
best = min(
    (lambda t: (pl.read_parquet(path, columns=columns), time.perf_counter() - t)[1])(time.perf_counter())
    for _ in range(n)
)
print(f"{best * 1000:.1f}")
PY
}

ratio() { python3 -c "print(f'{$2/$1:.2f}x')"; }

echo "| file (writer) | pqcodec ms | arrow-rs ms | arrow-rs / pqcodec | polars 1 thread ms |"
echo "|---|---:|---:|---:|---:|"
for file in "$dir"/*/*.parquet; do
    writer=$(basename "$(dirname "$file")")
    table=$(basename "$file" .parquet)
    p=$(best "$file")
    a=$(best "$file" --reader arrow-rs)
    echo "| $table ($writer) | $p | $a | $(ratio "$p" "$a") | $(polars "$file" -) |"
done

[ "$per_column" = "--columns" ] || exit 0
echo
echo "| column (writer) | pqcodec ms | arrow-rs ms | arrow-rs / pqcodec |"
echo "|---|---:|---:|---:|"
for file in "$dir"/*/*.parquet; do
    writer=$(basename "$(dirname "$file")")
    table=$(basename "$file" .parquet)
    for column in $("$venv/bin/python" -c "import pyarrow.parquet as pq, sys; print(' '.join(pq.read_schema(sys.argv[1]).names))" "$file"); do
        p=$(best "$file" --columns "$column")
        a=$(best "$file" --columns "$column" --reader arrow-rs)
        echo "| $table.$column ($writer) | $p | $a | $(ratio "$p" "$a") |"
    done
done
