#!/usr/bin/env bash
# The advisor on TPC-H (issue: "files smaller than ZSTD's that read faster than SNAPPY's").
# For each table, the file as tpchgen-cli wrote it; rewritten with one codec for every column
# (UNCOMPRESSED, LZ4_RAW, ZSTD:3, pqcodec's writer); written by DuckDB with v2 pages (SNAPPY,
# ZSTD); and `pqcodec rewrite --auto` for each objective. Per file: its size, the rewrite's
# seconds (and with --auto the size predicted), and the seconds of one whole read by pqcodec
# and by arrow-rs (`pqcodec scan`, both readers alternating, median of RUNS runs of REPEAT
# reads). Then pyarrow, DuckDB and polars read every --auto file and must find the source's
# rows.
#
#   bash benches/advisor.sh [DIR] [RUNS] [REPEAT] [TABLES]
#
# DIR (default /tmp/tpch-sf1) holds TABLE.parquet from `tpchgen-cli parquet -s 1` (made if
# missing); TABLES defaults to "lineitem orders". `BIN=path/to/pqcodec` skips the build.
# Python packages come from PyPI into a virtual environment this script makes; tests and CI
# never need them.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/tpch-sf1}
runs=${2:-3}
repeat=${3:-3}
tables=${4:-lineitem orders}
venv=${PQCODEC_BENCH_VENV:-$HOME/.cache/pqcodec-bench-venv}
out=${PQCODEC_ADVISOR_OUT:-/tmp/pqcodec-advisor}

if [ -z "${BIN:-}" ]; then
    cargo build -q --release -p pqcodec-cli --bin pqcodec
    BIN=${CARGO_TARGET_DIR:-target}/release/pqcodec
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet pyarrow duckdb polars
fi
mkdir -p "$dir" "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for table in $tables; do
    src=$dir/$table.parquet
    if [ ! -f "$src" ]; then
        command -v tpchgen-cli >/dev/null 2>&1 || cargo install tpchgen-cli --locked
        tpchgen-cli parquet -s 1 --tables "$table" --output-dir "$dir"
    fi
    files=("tpchgen=$src")
    for codec in uncompressed lz4_raw zstd:3; do
        f=$out/${table}_${codec/:/}.parquet
        s=$("$BIN" rewrite "$src" "$f" --compression "$codec")
        echo "$table every-column-${codec^^} $(awk '{print $8}' <<<"$s") -" >>"$log.write"
        files+=("every-column-${codec^^}=$f")
    done
    for codec in snappy zstd; do
        f=$out/${table}_duckdb_v2_$codec.parquet
        "$venv/bin/python" -c "import duckdb, sys; duckdb.sql('SET enable_progress_bar = false'); duckdb.sql(f\"COPY (SELECT * FROM '{sys.argv[1]}') TO '{sys.argv[2]}' (FORMAT parquet, COMPRESSION $codec, PARQUET_VERSION v2)\")" "$src" "$f"
        files+=("duckdb-v2-${codec^^}=$f")
    done
    for objective in size balanced speed; do
        f=$out/${table}_auto_$objective.parquet
        s=$("$BIN" rewrite "$src" "$f" --auto --objective "$objective")
        echo "$table auto-$objective $(awk '{print $10}' <<<"$s") $(awk '{print $8}' <<<"$s")" >>"$log.write"
        files+=("auto-$objective=$f")
    done
    for _ in $(seq "$runs"); do
        for entry in "${files[@]}"; do
            name=${entry%%=*}
            f=${entry#*=}
            for reader in pqcodec arrow-rs; do
                secs=$("$BIN" scan "$f" --repeat "$repeat" --reader "$reader" | awk '{print $4}')
                echo "$table $name $reader $secs $(stat -c %s "$f")" >>"$log"
            done
        done
    done
done

"$venv/bin/python" - "$log" "$log.write" "$repeat" <<'PY'
import statistics, sys
reads, writes, repeat = {}, {}, int(sys.argv[3])
sizes = {}
for line in open(sys.argv[1]):
    table, name, reader, secs, size = line.split()
    reads.setdefault((table, name, reader), []).append(float(secs) / repeat)
    sizes[(table, name)] = int(size)
for line in open(sys.argv[2]):
    table, name, secs, predicted = line.split()
    writes[(table, name)] = (float(secs), predicted)
print("| table | file | MB | rewrite s | predicted MB | pqcodec read s | arrow-rs read s | pqcodec vs tpchgen | arrow-rs vs tpchgen |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for (table, name), size in sizes.items():
    p = statistics.median(reads[(table, name, "pqcodec")])
    a = statistics.median(reads[(table, name, "arrow-rs")])
    p0 = statistics.median(reads[(table, "tpchgen", "pqcodec")])
    a0 = statistics.median(reads[(table, "tpchgen", "arrow-rs")])
    w, predicted = writes.get((table, name), (None, "-"))
    w = f"{w:.1f}" if w is not None else ""
    predicted = f"{int(predicted) / 1e6:.1f}" if predicted not in ("-", "") else ""
    print(f"| {table} | {name} | {size / 1e6:.1f} | {w} | {predicted} | {p:.3f} | {a:.3f} "
          f"| {p0 / p:.2f}x | {a0 / a:.2f}x |")
PY
rm -f "$log.write"

# Every --auto file, read by pyarrow, DuckDB and polars, holds the source's rows.
"$venv/bin/python" - "$dir" "$out" $tables <<'PY'
import sys
import duckdb
import polars as pl
import pyarrow.parquet as pq
src_dir, out, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
for table in tables:
    src = f"{src_dir}/{table}.parquet"
    source = pq.read_table(src)
    source_pl = pl.read_parquet(src)
    for objective in ("size", "balanced", "speed"):
        f = f"{out}/{table}_auto_{objective}.parquet"
        assert pq.read_table(f).equals(source), f"pyarrow: {f}"
        assert pl.read_parquet(f).equals(source_pl), f"polars: {f}"
        for a, b in ((f, src), (src, f)):
            left = duckdb.sql(f"SELECT count(*) FROM (SELECT * FROM '{a}' EXCEPT ALL SELECT * FROM '{b}')").fetchall()[0][0]
            assert left == 0, f"duckdb: {f}"
        print(f"{f}: pyarrow, polars and DuckDB read the source's rows")
PY

# The corpus rewritten with --auto: what pyarrow, polars or DuckDB read of a file they read the
# same from its --auto rewrite (a file a reader cannot read at all is skipped for it).
mkdir -p "$out/corpus"
for f in tests/data/*.parquet; do
    "$BIN" rewrite "$f" "$out/corpus/$(basename "$f")" --auto >/dev/null
done
"$venv/bin/python" - tests/data "$out/corpus" <<'PY'
import math, os, sys
import duckdb
import polars as pl
import pyarrow.parquet as pq
src_dir, out = sys.argv[1], sys.argv[2]
duckdb.sql("SET threads = 1")
readers = {
    "pyarrow": lambda f: pq.read_table(f),
    "polars": lambda f: pl.read_parquet(f),
    "duckdb": lambda f: duckdb.sql(f"SELECT * FROM '{f}'").to_arrow_table(),
}
def same(a, b):
    """Equal, NaN equal to NaN (as a NaN read back is the value written)."""
    if a.equals(b):
        return True
    def norm(v):
        if isinstance(v, float) and math.isnan(v):
            return "NaN"
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    a, b = (t.to_arrow() if isinstance(t, pl.DataFrame) else t for t in (a, b))
    return a.schema == b.schema and norm(a.to_pylist()) == norm(b.to_pylist())
checked = {r: 0 for r in readers}
for name in sorted(os.listdir(src_dir)):
    if not name.endswith(".parquet"):
        continue
    for reader, read in readers.items():
        try:
            source = read(os.path.join(src_dir, name))
        except Exception:
            continue
        assert same(read(os.path.join(out, name)), source), f"{reader}: {name}"
        checked[reader] += 1
print("corpus --auto files read the same as their sources:",
      ", ".join(f"{r} {n} files" for r, n in checked.items()))
PY
