#!/usr/bin/env bash
# Makes the TPC-H tables the real-file benchmarks read: `tpchgen-cli` (installed with cargo if
# missing) writes them with arrow-rs, then pyarrow, DuckDB and polars rewrite each table with
# their default settings, from a Python virtual environment this script creates from PyPI.
#
#   bash benches/tpch_tables.sh [DIR] [SCALE_FACTOR] [TABLES]
#
# DIR (default /tmp/tpch) gets one folder per writer: tpchgen/, pyarrow/, duckdb/, polars/,
# each with TABLE.parquet for TABLES (default "lineitem orders"). Tests and CI never need this.
set -euo pipefail
dir=${1:-/tmp/tpch}
sf=${2:-1}
tables=${3:-lineitem orders}
venv=${PQCODEC_BENCH_VENV:-$HOME/.cache/pqcodec-bench-venv}

if ! command -v tpchgen-cli >/dev/null 2>&1; then
    cargo install tpchgen-cli --locked
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet pyarrow duckdb polars
fi

mkdir -p "$dir/tpchgen" "$dir/pyarrow" "$dir/duckdb" "$dir/polars"
for table in $tables; do
    if [ ! -f "$dir/tpchgen/$table.parquet" ]; then
        tpchgen-cli parquet -s "$sf" --tables "$table" --output-dir "$dir/tpchgen"
    fi
done

"$venv/bin/python" - "$dir" $tables <<'PY'
import sys, os
import pyarrow.parquet as pq
import duckdb
import polars as pl

root, tables = sys.argv[1], sys.argv[2:]
for table in tables:
    src = os.path.join(root, "tpchgen", f"{table}.parquet")
    out = lambda writer: os.path.join(root, writer, f"{table}.parquet")
    if not os.path.exists(out("pyarrow")):
        pq.write_table(pq.read_table(src), out("pyarrow"))
    if not os.path.exists(out("duckdb")):
        duckdb.sql(f"COPY (SELECT * FROM '{src}') TO '{out('duckdb')}' (FORMAT parquet)")
    if not os.path.exists(out("polars")):
        pl.read_parquet(src).write_parquet(out("polars"))
    print(table, "written by", ", ".join(w for w in ("tpchgen", "pyarrow", "duckdb", "polars")))
PY
ls -l "$dir"/*/
