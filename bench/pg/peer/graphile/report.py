#!/usr/bin/env python3
"""report.py DRAINS.jsonl MACHINE.json OUTDIR — the tables of a graphile-worker peer run.

DRAINS.jsonl: drain.mjs's stdout (one {"kind": "drain"} line per cell and repeat, then one
{"kind": "run"} line). MACHINE.json: scripts/machine-record's record. Writes, in OUTDIR,
peer-graphile.json (everything: versions, server, parameters, every drain, per-cell medians
with min-max, the ratio table), peer-graphile.csv (one row per cell) and peer-graphile.md (the
tables, also printed on stdout). Exit 1 when the input holds no drain or no run line, 2 on
bad arguments.
"""
import csv
import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "pylib"))
from rb_argparse import parser  # noqa: E402  one-line errors, exit 2

# Which graphile-worker configuration each ringbench configuration is set against (README.md).
PAIRS = (
    ("b32", "batch32", "batched"),
    ("b32", "batch32", "each-fetch32"),
    ("b32", "batch32-chain", "batched"),
    ("b32", "batch32-chain", "each-fetch32"),
    ("b1", "batch1", "each-fetch1"),
    ("b1", "batch1-chain", "each-fetch1"),
)
CELL_KEYS = ("group", "system", "config", "mode", "workers")


def cells_of(drains):
    groups = {}
    for d in drains:
        groups.setdefault(tuple(d[k] for k in CELL_KEYS), []).append(d)
    cells = []
    for key, ds in groups.items():
        rates = [d["jobs_per_s"] for d in ds]
        med = statistics.median(rates)
        # the other figures are those of the median repeat (the one nearest the median)
        m = min(ds, key=lambda d: abs(d["jobs_per_s"] - med))
        cells.append(dict(zip(CELL_KEYS, key), jobs=m["jobs"], repeats=len(ds), jobs_per_s=med,
                          jobs_per_s_min=min(rates), jobs_per_s_max=max(rates),
                          repeat_jobs_per_s=rates, wall_s=m["wall_s"],
                          commits_per_job=m["commits_per_job"],
                          jobs_left=sum(d["jobs_left"] for d in ds),
                          n_errored=sum(d["n_errored"] for d in ds),
                          n_duplicates=sum(d["n_duplicates"] or 0 for d in ds)))
    return cells


def ratios_of(cells, modes):
    by = {(c["group"], c["system"], c["config"], c["mode"], c["workers"]): c for c in cells}
    out = []
    for group, rb_config, gw_config in PAIRS:
        for w in sorted({c["workers"] for c in cells if c["group"] == group}):
            gw = by.get((group, "graphile-worker", gw_config, None, w))
            for mode in modes:
                rb = by.get((group, "ringbench", rb_config, mode, w))
                if gw and rb:
                    r = rb["jobs_per_s"] / gw["jobs_per_s"]
                    out.append({"group": group, "workers": w, "mode": mode,
                                "ringbench_config": rb_config, "graphile_config": gw_config,
                                "ringbench_jobs_per_s": rb["jobs_per_s"],
                                "graphile_jobs_per_s": gw["jobs_per_s"], "ratio": r,
                                "at_least_as_fast": r >= 1.0})
    return out


def k(x):
    return f"{x / 1000:.2f}k"


def markdown(doc):
    run, p = doc["run"], doc["parameters"]
    s = doc["server"]
    lines = [
        "## graphile-worker beside `ringbench pg worker` (issue 11, target 9)",
        "",
        f"Node {run['node']}, graphile-worker {run['graphile_worker']} (node-postgres "
        f"{run['node_postgres']}); ringbench {doc['machine'].get('git_commit', 'unknown')[:10]}; "
        f"PostgreSQL {s['server_version']}, fsync={s['fsync']}, "
        f"synchronous_commit={s['synchronous_commit']}. Backlog: {p['jobs']['b32']:,} jobs "
        f"(batch-32 group), {p['jobs']['b1']:,} (batch-1 group), partition keys "
        f"order:<i mod {p['keys']:,}>; {p['repeats']} repeats, interleaved; median (min-max). "
        "W = worker processes; graphile-worker `batched`: concurrentJobs 32, localQueue 32, "
        "completeJobBatchDelay 0; `each-fetch32`: concurrentJobs 1, localQueue 32; "
        "`each-fetch1`: its defaults. Method: bench/pg/peer/graphile/README.md.",
        "",
        "| system | config | mode | W | jobs | jobs/s | min-max | wall s | commits/job | left | dup |",
        "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for c in doc["cells"]:
        dup = "-" if c["system"] == "graphile-worker" else str(c["n_duplicates"])
        lines.append(f"| {c['system']} | {c['config']} | {c['mode'] or '-'} | {c['workers']} | "
                     f"{c['jobs']:,} | {k(c['jobs_per_s'])} | {k(c['jobs_per_s_min'])}-"
                     f"{k(c['jobs_per_s_max'])} | {c['wall_s']:.2f} | {c['commits_per_job']:.3f} | "
                     f"{c['jobs_left']} | {dup} |")
    lines += ["", "ringbench / graphile-worker (jobs/s medians; target >= 1.0 in every cell and mode):", "",
              "| W | mode | ringbench | graphile-worker | ringbench jobs/s | graphile jobs/s | ratio |",
              "|---:|---|---|---|---:|---:|---:|"]
    for r in doc["ratios"]:
        ratio = f"{r['ratio']:.2f}" if r["at_least_as_fast"] else f"**{r['ratio']:.2f}**"
        lines.append(f"| {r['workers']} | {r['mode']} | {r['ringbench_config']} | "
                     f"{r['graphile_config']} | {k(r['ringbench_jobs_per_s'])} | "
                     f"{k(r['graphile_jobs_per_s'])} | {ratio} |")
    lines += ["", "Bold: below 1.0 (graphile-worker faster)."]
    return "\n".join(lines) + "\n"


def main():
    p = parser("report.py", __doc__)
    p.add_argument("drains", metavar="DRAINS.jsonl")
    p.add_argument("machine", metavar="MACHINE.json")
    p.add_argument("out", metavar="OUTDIR")
    a = p.parse_args()
    src, machine_path, out = a.drains, a.machine, a.out
    rows = [json.loads(line) for line in open(src) if line.strip()]
    drains = [r for r in rows if r.get("kind") == "drain"]
    runs = [r for r in rows if r.get("kind") == "run"]
    if not drains or not runs:
        print(f"report.py: {src}: no drain or no run line (the driver failed?)", file=sys.stderr)
        sys.exit(1)
    run = runs[-1]
    cells = cells_of(drains)
    doc = {
        "machine": json.load(open(machine_path)),
        "run": {k_: run[k_] for k_ in ("node", "graphile_worker", "node_postgres")},
        "server": run["server"],
        "parameters": {k_: run[k_] for k_ in ("database", "jobs", "workers", "modes", "keys",
                                              "repeats", "groups", "graphile_configs",
                                              "graphile_pool_max")},
        "timing": "wall clock from the release of the W worker processes (graphile-worker: "
                  "module loaded and pool connected before; ringbench: started at the release) "
                  "to the exit of the last one; jobs/s = backlog / wall",
        "commits": "pg_stat_database.xact_commit of the peer database over the drain (every "
                   "session: workers, their keepers, registration), after every backend exited",
        "drains": drains,
        "cells": cells,
        "ratios": ratios_of(cells, run["modes"]),
    }
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "peer-graphile.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    fields = list(CELL_KEYS) + ["jobs", "repeats", "jobs_per_s", "jobs_per_s_min",
                                "jobs_per_s_max", "wall_s", "commits_per_job", "jobs_left",
                                "n_errored", "n_duplicates"]
    with open(os.path.join(out, "peer-graphile.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for c in cells:
            w.writerow(c)
    md = markdown(doc)
    with open(os.path.join(out, "peer-graphile.md"), "w") as f:
        f.write(md)
    sys.stdout.write(md)


if __name__ == "__main__":
    main()
