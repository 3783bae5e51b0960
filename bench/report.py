#!/usr/bin/env python3
"""bench/report.py — the issue's targets as measured ratios, from one Google
Benchmark JSON file written by ringbench-bench (every ratio compares figures
measured side by side in that one run).

usage: bench/report.py RESULT.json [--out FILE.md]

Prints Markdown: the machine record, the target table (figure, measured,
target, met?), and lookup / build / memory summaries. A figure whose case is
absent from the JSON (e.g. a filtered run) shows as n/a. Exit 0; 2 on bad
arguments or an unreadable file. Never asserts speed: it reports.
"""
import json
import os
import sys

KEY_CASES = ("hash", "key", "position")


def die(msg):
    print(f"report.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        die(f"cannot read {path}: {e}")
    runs = {}
    benchmarks = doc.get("benchmarks") if isinstance(doc, dict) else None
    if not isinstance(benchmarks, list):
        die(f"{path} has no \"benchmarks\" list (not a Google Benchmark JSON file)")
    for b in benchmarks:
        if not isinstance(b, dict) or not isinstance(b.get("name"), str):
            die(f"{path}: a benchmark entry without a name")
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        runs[b["name"].split("/iterations:")[0]] = b
    if not runs:
        die(f"{path} holds no benchmark runs")
    return doc.get("context", {}), runs


SCALE_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def ns_per_lookup(runs, name):
    b = runs.get(name)
    return 1e9 / b["lookups_per_s"] if b and b.get("lookups_per_s") else None


def cpu_ns(runs, name):
    """CPU time per iteration in ns (every case is single-threaded; on a
    shared machine CPU time leaves out the time the process waited)."""
    b = runs.get(name)
    return b["cpu_time"] * SCALE_NS[b.get("time_unit", "ns")] if b else None


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def verdict(x, target, higher_is_better):
    if x is None:
        return "n/a"
    ok = x >= target if higher_is_better else x <= target
    if ok:
        return "met"
    # how far short of (or over) the target, as a share of the target
    miss = (1 - x / target) * 100 if higher_is_better else (x / target - 1) * 100
    return f"missed by {miss:.1f}%"


def targets(runs):
    """(figure, measured, target text, verdict) rows."""
    rows = []
    for mode in ("latency", "throughput"):
        ctl = ns_per_lookup(runs, f"hash/{mode}/xxh3")
        for n in (16, 64, 1024):
            r = ratio(ns_per_lookup(runs, f"key/{mode}/table/xxh3/N:{n}/V:128"), ctl)
            rows.append((f"table / hash-only control, {mode}, N={n} V=128 (xxh3)", r, "<= 1.5",
                         verdict(r, 1.5, False)))
    for path in ("key", "position"):
        for mode in ("latency", "throughput"):
            lin = ns_per_lookup(runs, f"{path}/{mode}/linear/xxh3/N:16/V:128")
            bi = ns_per_lookup(runs, f"{path}/{mode}/binary/xxh3/N:16/V:128")
            r = ratio(lin, bi)
            rows.append((f"linear / binary, {path} path, {mode}, N=16 V=128", r, ">= 20",
                         verdict(r, 20, True)))
    for mode in ("latency", "throughput"):
        r = ratio(ns_per_lookup(runs, f"key/{mode}/binary/xxh3/N:64/V:128"),
                  ns_per_lookup(runs, f"hash/{mode}/xxh3"))
        rows.append((f"binary / hash-only control, {mode}, N=64 V=128", r, "<= 10",
                     verdict(r, 10, False)))
    q = cpu_ns(runs, "qsort_u64/N:1024/V:128")
    for algo in ("linear", "binary"):
        r = ratio(cpu_ns(runs, f"build/{algo}/xxh3/N:1024/V:128"), q)
        rows.append((f"build {algo} (hashing included) / qsort of 131,072 u64, N=1024 V=128", r,
                     "<= 1", verdict(r, 1, False)))
    for algo in ("linear", "binary"):
        # Marginal bytes per vnode: the jemalloc bytes the 131,072 extra vnodes
        # of V=256 over V=128 (N=1024) cost, so per-ring fixed costs (header,
        # B bucket positions, ids) cancel out.
        lo = runs.get(f"build/{algo}/xxh3/N:1024/V:128")
        hi = runs.get(f"build/{algo}/xxh3/N:1024/V:256")
        x = None
        if lo and hi and hi["n_points"] > lo["n_points"]:
            x = (hi["bytes_jemalloc"] - lo["bytes_jemalloc"]) / (hi["n_points"] - lo["n_points"])
        rows.append((f"bytes per vnode, {algo}, marginal (jemalloc, N=1024, V 128 -> 256)", x,
                     "<= 16", verdict(x, 16, False)))
        for counter, what in (("structure_bytes_per_vnode", "ring structures / vnodes"),
                              ("bytes_per_vnode", "jemalloc whole ring / vnodes")):
            x = lo.get(counter) if lo else None
            rows.append((f"bytes per vnode, {algo}, {what}, N=1024 V=128", x, "(<= 16)",
                         "(see marginal)"))
    return rows


def machine(ctx):
    keys = ("date", "git_commit", "git_dirty", "host_name", "cpu_model", "num_cpus", "mhz_per_cpu",
            "cpu_scaling_enabled", "c_compiler", "cxx_compiler", "build_type", "c_flags",
            "allocator", "xxhash", "google_benchmark", "library_build_type", "key_source",
            "n_keys", "lookups_per_iteration", "min_time_s", "n_buckets", "seed", "members")
    lines = ["| field | value |", "|---|---|"]
    for k in keys:
        if k in ctx:
            lines.append(f"| {k} | {ctx[k]} |")
    caches = ctx.get("caches")
    if caches:
        c = ", ".join(f"L{x['level']} {x['type'][0]} {x['size'] // 1024} KiB" for x in caches)
        lines.append(f"| caches | {c} |")
    return "\n".join(lines)


def lookup_table(runs, algos):
    ns = (3, 4, 16, 64, 256, 1024)
    out = ["| case | " + " | ".join(f"N={n}" for n in ns) + " |",
           "|---|" + "---:|" * len(ns)]
    for mode in ("latency", "throughput"):
        ctl = ns_per_lookup(runs, f"hash/{mode}/xxh3")
        out.append(f"| hash-only control, {mode} | " + " | ".join(fmt(ctl) for _ in ns) + " |")
        for algo in algos:
            cells = []
            for n in ns:
                x = ns_per_lookup(runs, f"key/{mode}/{algo}/xxh3/N:{n}/V:128")
                if x is None:
                    x = ns_per_lookup(runs, f"key/{mode}/{algo}/xxh3/N:{n}")
                cells.append(fmt(x))
            out.append(f"| {algo}, {mode} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def build_table(runs, algos):
    out = ["| algorithm | N | V | build ms | resize ms | join + refill ms | qsort ms (N*V u64) "
           "| bytes (jemalloc) | bytes held | bytes / vnode |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for algo in algos:
        for n in (16, 64, 1024):
            for v in (16, 128, 256):
                suffix = f"N:{n}/V:{v}"
                b = runs.get(f"build/{algo}/xxh3/{suffix}")
                if b is None:
                    if v != 128:
                        continue
                    suffix = f"N:{n}"
                    b = runs.get(f"build/{algo}/xxh3/{suffix}")
                if b is None:
                    continue
                vv = str(v) if suffix.endswith(f"V:{v}") else "-"
                q = cpu_ns(runs, f"qsort_u64/N:{n}/V:{v}") if vv != "-" else None
                j = cpu_ns(runs, f"join_refill/{algo}/xxh3/{suffix}")
                rz = cpu_ns(runs, f"resize/{algo}/xxh3/{suffix}")
                inc = " (derive)" if runs.get(f"resize/{algo}/xxh3/{suffix}", {}).get("incremental") else ""
                out.append(f"| {algo} | {n} | {vv} | {fmt(cpu_ns(runs, f'build/{algo}/xxh3/{suffix}') / 1e6, 3)} "
                           f"| {fmt(rz / 1e6 if rz else None, 3)}{inc} "
                           f"| {fmt(j / 1e6 if j else None, 3)} | {fmt(q / 1e6 if q else None, 3)} "
                           f"| {b.get('bytes_jemalloc', 0):.0f} | {b.get('bytes_held', 0):.0f} "
                           f"| {fmt(b.get('bytes_per_vnode'))} |")
    return "\n".join(out)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    path, out = argv[0], None
    if len(argv) == 3 and argv[1] == "--out":
        out = argv[2]
    elif len(argv) != 1:
        die("usage: bench/report.py RESULT.json [--out FILE.md]")
    ctx, runs = load(path)
    # the file's folder and name: the same text wherever the tree is checked out
    shown = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))),
                         os.path.basename(path))
    algos = []
    for name in runs:
        parts = name.split("/")
        if parts[0] == "key" and len(parts) > 2 and parts[2] not in algos:
            algos.append(parts[2])
    text = ["# ringbench lookup, rebuild and memory benchmarks", "",
            f"From `{shown}`. Lookup times are ns per lookup = 1 / lookups_per_s, build "
            "times CPU ms per build (Google Benchmark rates use CPU time); ratios compare "
            "figures of this one run.", "", "## Machine and build", "", machine(ctx), "",
            "## Targets (issue #4)", ""]
    if str(ctx.get("min_time_s", "")).startswith("smoke"):
        text += ["**Smoke run: one iteration per case. These ratios are not measurements; "
                 "run without --smoke for figures.**", ""]
    text += ["| figure | measured | target | verdict |", "|---|---:|---:|---|"]
    for fig, x, tgt, v in targets(runs):
        text.append(f"| {fig} | {fmt(x)} | {tgt} | {v} |")
    text += ["", "## ns per key lookup (xxh3, V = 128 where vnodes apply)", "",
             lookup_table(runs, algos), "", "## Build, join + refill, memory (xxh3)", "",
             build_table(runs, algos), ""]
    md = "\n".join(text)
    if out:
        with open(out, "w") as f:
            f.write(md)
    print(md)
    return 0


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
        sys.stdout.flush()
    except OSError as e:  # --out not writable, stdout full
        sys.stdout = open(os.devnull, "w")  # nothing left to flush at exit
        print(f"report.py: {e.filename or 'writing output'}: {e.strerror or e}", file=sys.stderr)
        status = 1
    sys.exit(status)
