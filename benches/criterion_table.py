#!/usr/bin/env python3
"""The Markdown table of BENCHMARKS.md from criterion's saved estimates: for every group of
`cargo bench --bench encodings`, each side's values per second (the median time's) and the
speedup of pqcodec over arrow-rs.

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

print("| group | values/s pqcodec | values/s arrow-rs | speedup |")
print("|---|---:|---:|---:|")
for group, sides in sorted(rates.items()):
    ours, theirs = sides.get("pqcodec"), sides.get("arrow-rs")
    cell = lambda r: f"{r / 1e6:,.0f} M" if r else "(none)"
    speedup = f"{ours / theirs:.2f}x" if ours and theirs else ""
    print(f"| {group} | {cell(ours)} | {cell(theirs)} | {speedup} |")
