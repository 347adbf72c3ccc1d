#!/usr/bin/env python3
"""The Markdown tables of BENCHMARKS.md from criterion's saved estimates: for every encoding x
type of `cargo bench --bench encodings`, decoding and encoding, each side's values per second
(the median time's) and the speedup of pqcodec over arrow-rs; then `--bench reader_paths`'s
whole-file reads; then `--bench writer`'s writes.

Usage: python3 benches/criterion_table.py [target/criterion]
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
rates = {}
for bench in sorted(root.glob("*/*/new/benchmark.json")):
    meta = json.loads(bench.read_text())
    elements = meta["throughput"]["Elements"]
    median_ns = json.loads((bench.parent / "estimates.json").read_text())["median"]["point_estimate"]
    rates.setdefault(meta["group_id"], {})[meta["function_id"]] = elements / median_ns * 1e9

# One row per encoding x type: "decode/X" and "encode/X" side by side.
rows = {}
reads = {}
writes = {}
for group, sides in rates.items():
    direction, _, name = group.partition("/")
    if direction == "read":
        reads[name] = sides
    elif direction == "write":
        writes[name] = sides
    else:
        rows.setdefault(name, {})[direction] = sides


def cells(sides):
    if not sides:
        return ["", "", ""]
    ours, theirs = sides.get("pqcodec"), sides.get("arrow-rs")
    cell = lambda r: f"{r / 1e6:,.0f} M" if r else "(none)"
    speedup = f"{ours / theirs:.2f}x" if ours and theirs else ""
    return [cell(ours), cell(theirs), speedup]


print("| encoding / type | decode pqcodec | arrow-rs | speedup | encode pqcodec | arrow-rs | speedup |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, directions in sorted(rows.items()):
    line = [name] + cells(directions.get("decode")) + cells(directions.get("encode"))
    print("| " + " | ".join(line) + " |")

# `cargo bench --bench reader_paths`: whole files read into Arrow, rows per second.
if reads:
    print()
    print("| read into Arrow | rows/s pqcodec | rows/s arrow-rs | speedup |")
    print("|---|---:|---:|---:|")
    for name, sides in sorted(reads.items()):
        print("| " + " | ".join([name] + cells(sides)) + " |")

# `cargo bench --bench writer`: one column's RecordBatch written to Parquet, rows per second.
if writes:
    print()
    print("| write from Arrow | rows/s pqcodec | rows/s arrow-rs | speedup |")
    print("|---|---:|---:|---:|")
    for name, sides in sorted(writes.items()):
        print("| " + " | ".join([name] + cells(sides)) + " |")
