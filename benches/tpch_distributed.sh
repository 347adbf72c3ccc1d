#!/usr/bin/env bash
# The 22 TPC-H queries (benches/tpch/qNN.sql) through WORKERS `pqcodec worker`s on this
# machine (127.0.0.1, ports the system picks), each on THREADS threads, against one `pqcodec sql`
# process on WORKERS * THREADS partitions. Per query: wall time and CPU time (user + system) of
# the coordinator and the workers together (the workers' from /proc before and after) beside the
# one process's; the results of both compared, and with DuckDB's over the same files. Then the
# sums.
#
# Usage: [BIN=path/to/pqcodec] [THREADS=1] benches/tpch_distributed.sh [DIR] [SF] [WORKERS]
#        [PARTITIONS] [RUNS]
# Defaults: /tmp/tpch-sf1, 1, 4 workers of 1 thread, 2 partitions a task (the coordinator's
# `--partitions`: at 1 DataFusion plans no shuffle, and nothing is distributed), 1 run (the
# best of RUNS is kept). DIR holds the tables (tpchgen-cli makes them when it has none). DuckDB comes from a
# venv this script makes (PQCODEC_BENCH_VENV, as benches/tpch_tables.sh); without it, the
# DuckDB comparison is skipped, said so.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/tpch-sf1}
sf=${2:-1}
workers=${3:-4}
partitions=${4:-2}
runs=${5:-1}
threads=${THREADS:-1}
tables="part supplier partsupp customer orders lineitem nation region"
venv=${PQCODEC_BENCH_VENV:-$HOME/.cache/pqcodec-bench-venv}

if [ ! -e "$dir/lineitem.parquet" ]; then
    command -v tpchgen-cli >/dev/null || cargo install tpchgen-cli --locked
    mkdir -p "$dir"
    tpchgen-cli parquet --scale-factor "$sf" --output-dir "$dir"
fi
if [ -n "${BIN:-}" ]; then
    bin=$BIN
else
    cargo build -q --release -p pqcodec-cli --features distributed --bin pqcodec
    bin=${CARGO_TARGET_DIR:-target}/release/pqcodec
fi
args=()
for t in $tables; do
    args+=(--table "$t=$dir/$t.parquet")
done
find "$dir" -type f -name '*.parquet' -exec cat {} + >/dev/null

scratch=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

# The workers, each on a port the system picks (read from its first line on stderr).
urls=()
for i in $(seq "$workers"); do
    "$bin" worker --listen 127.0.0.1:0 --threads "$threads" 2>"$scratch/worker$i.log" &
    pids+=($!)
    for _ in $(seq 100); do
        grep -q 'listening on' "$scratch/worker$i.log" && break
        sleep 0.05
    done
    urls+=("$(sed -n 's/.*listening on //p' "$scratch/worker$i.log")")
done
workers_csv=$(IFS=,; echo "${urls[*]}")
echo "workers: $workers_csv"

# CPU seconds the workers have used so far (utime + stime of /proc/PID/stat).
workers_cpu() {
    local ticks=0 pid
    for pid in "${pids[@]}"; do
        ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
    done
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", t / hz }'
}

# One run of `pqcodec sql`: "wall cpu" on stdout, the result in $2.
timed() {
    local q=$1 out=$2
    shift 2
    local err
    err=$("$bin" sql --file "benches/tpch/q$q.sql" "${args[@]}" --format csv --timing "$@" \
        2>&1 >"$out") || {
        echo "q$q failed ($*): $err" >&2
        exit 1
    }
    awk '/^rows/ { for (i = 1; i < NF; i += 2) v[$i] = $(i + 1); print v["seconds"], v["cpu"] }' <<<"$err"
}

log="$scratch/log"
single_partitions=$((workers * threads))
for q in $(seq -w 1 22); do
    for run in $(seq "$runs"); do
        before=$(workers_cpu)
        read -r wall cpu < <(timed "$q" "$scratch/q$q.distributed.csv" \
            --workers "$workers_csv" --partitions "$partitions")
        after=$(workers_cpu)
        read -r swall scpu < <(timed "$q" "$scratch/q$q.single.csv" --partitions "$single_partitions")
        echo "q$q $wall $cpu $(awk -v a="$after" -v b="$before" 'BEGIN { print a - b }') $swall $scpu" >>"$log"
    done
    if ! cmp -s <(sort "$scratch/q$q.distributed.csv") <(sort "$scratch/q$q.single.csv"); then
        echo "q$q: the distributed result differs from one process's" >&2
        diff <(sort "$scratch/q$q.distributed.csv") <(sort "$scratch/q$q.single.csv") | head >&2
        exit 1
    fi
done
echo "every result equal to one process's"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" && "$venv/bin/pip" install --quiet pyarrow duckdb polars ||
        echo "no venv with DuckDB: its comparison skipped" >&2
fi
if [ -x "$venv/bin/python" ]; then
    "$venv/bin/python" - "$dir" "$scratch" $tables <<'PY'
import csv, math, os, sys
import duckdb
dir, scratch, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
con = duckdb.connect()
for t in tables:
    con.execute(f"CREATE VIEW {t} AS SELECT * FROM '{dir}/{t}.parquet'")

def cell(v):
    if v is None or v == "":
        return "NULL"
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v).strip()

def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
    return str(a) == str(b)

def key(row):
    return [("%.6f" % c) if isinstance(c, float) else c for c in row]

for q in range(1, 23):
    sql = open(f"benches/tpch/q{q:02}.sql").read()
    statements = [s for s in sql.split(";") if s.strip()]
    for s in statements[:-1]:
        con.execute(s)
    theirs = [[cell(v) for v in row] for row in con.execute(statements[-1]).fetchall()]
    for s in statements:
        if s.strip().lower().startswith("create view"):
            name = s.split()[2]
            con.execute(f"DROP VIEW IF EXISTS {name}")
    with open(f"{scratch}/q{q:02}.distributed.csv") as f:
        ours = [[cell(v) for v in row] for row in list(csv.reader(f))[1:]]
    ours.sort(key=key)
    theirs.sort(key=key)
    ok = len(ours) == len(theirs) and all(
        len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)) for a, b in zip(ours, theirs))
    if not ok:
        print(f"q{q:02}: the distributed result differs from DuckDB's", file=sys.stderr)
        print(ours[:3], theirs[:3], file=sys.stderr)
        sys.exit(1)
print("every result equal to DuckDB's", duckdb.__version__)
PY
fi

python3 - "$log" "$workers" "$threads" "$partitions" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    q, wall, cpu, wcpu, swall, scpu = line.split()
    best = rows.get(q)
    entry = (float(wall), float(cpu) + float(wcpu), float(swall), float(scpu))
    rows[q] = entry if best is None else tuple(min(a, b) for a, b in zip(best, entry))
workers, threads, partitions = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
print(f"\n{workers} workers of {threads} thread(s), {partitions} partitions a task, against one "
      f"process on {workers * threads} partitions; CPU: coordinator + workers")
print("| query | wall (s), workers / one process | CPU (s), workers / one process | CPU ratio |")
print("|---|---:|---:|---:|")
sums = [0.0] * 4
for q in sorted(rows):
    w, c, sw, sc = rows[q]
    sums = [s + v for s, v in zip(sums, rows[q])]
    print(f"| {q} | {w:.3f} / {sw:.3f} | {c:.3f} / {sc:.3f} | {c / sc:.2f}x |")
w, c, sw, sc = sums
print(f"| sum | {w:.2f} / {sw:.2f} | {c:.2f} / {sc:.2f} | {c / sc:.2f}x |")
PY
