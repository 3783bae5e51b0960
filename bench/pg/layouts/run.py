#!/usr/bin/env python3
"""bench/pg/layouts/run.py — the inbox layouts lab (issue 11, target 1), run by scripts/pg-layouts.

usage: run.py --out DIR [--workers 2,4,8] [--batch 8,32] [--layouts s,d,k,m] [--repeats 3]
              [--secs 3] [--rows 300000] [--db ringbench_layouts]

Claim and complete rows with pgbench in four layouts of the inbox (schema.sql says what each
is), competing and affinity claims, W clients, batch B: each client runs a claim (one
statement, one commit) then the completion of the rows it got (one statement, one commit),
the queue's statements reduced to what pgbench can run (claim_*.sql, complete_*.sql). Every
run starts from a fresh backlog of --rows rows (fill.sql: arrival order, 1,024 buckets) and
lasts --secs seconds; rows/s = effect rows written ÷ --secs. Within a (W, B) group, round r
runs every (layout, mode) in an order rotated by r. Sessions use generic plans
(plan_cache_mode = force_generic_plan, prepared statements), as the queue's workers do.

It measures the layout's cost, not the queue: no housekeeping, no keeper extending leases,
no handler, no worker check; the affinity walk starts at a random owned bucket. The figures
to compare are ratios within one run (affinity ÷ competing per layout, each layout ÷ s).

Connection: libpq's PG* variables (scripts/pg-layouts sets them); the database --db is
created, marked (COMMENT ON DATABASE), and refused when it exists without the mark. The
server must allow CHECKPOINT (superuser or pg_checkpoint).

Writes DIR/layouts.csv (one line per run), layouts.json (parameters, machine record, runs,
per-cell figures) and layouts.md; progress on stderr, the Markdown table on stdout.
Exit 0; 2 on bad arguments; 1 when psql or pgbench fails (its message on stderr).
"""
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(TOP, "scripts", "pylib"))
from rb_argparse import parser  # noqa: E402

LAYOUTS = {"s": "status", "d": "status", "k": "state", "m": "state"}
MODES = ("competing", "affinity")
MARK = "ringbench layouts lab (bench/pg/layouts): dropped and rebuilt by every run"


class Failed(Exception):
    pass


def int_list(text, name, lo, hi):
    try:
        vals = [int(v) for v in text.split(",")]
    except ValueError:
        raise Failed(f"--{name}: '{text}' is not a comma-separated list of integers") from None
    bad = [v for v in vals if not lo <= v <= hi]
    if bad:
        raise Failed(f"--{name}: {bad[0]} is outside {lo}..{hi}")
    return vals


def psql(args, db, what, env=None):
    cmd = ["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", "-d", db] + args
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise Failed(f"{what}: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'psql failed'}")
    return p.stdout.strip()


def layout_env(layout):
    env = dict(os.environ)
    env["PGOPTIONS"] = (f"-c search_path={layout} -c plan_cache_mode=force_generic_plan "
                        "-c jit=off")
    return env


def prepare_db(db):
    lit = db.replace("'", "''")
    n, mark = psql(["-F", "|", "-c", "SELECT count(*), coalesce(max(shobj_description(oid, "
                    f"'pg_database')), '') FROM pg_database WHERE datname = '{lit}'"],
                   "postgres", "reading the databases").split("|", 1)
    ident = '"' + db.replace('"', '""') + '"'
    if n == "0":
        psql(["-c", f"CREATE DATABASE {ident}"], "postgres", f"creating database {db}")
        psql(["-c", f"COMMENT ON DATABASE {ident} IS '{MARK}'"], "postgres", "marking it")
    elif mark != MARK:
        raise Failed(f"database {db} exists and was not made by this lab: choose another --db")
    psql(["-f", os.path.join(HERE, "schema.sql")], db, "creating the layouts (schema.sql)")


def machine_cpu_ticks():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return v[0] + v[1] + v[2] + v[5] + v[6]  # user nice system irq softirq


def one_run(db, o, layout, mode, w, b):
    env = layout_env(layout)
    psql(["-v", f"rows={o.rows}", "-v", f"nw={w}", "-f", os.path.join(HERE, "fill.sql")], db,
         f"filling layout {layout}", env)
    upd_sql = ["-c", "SELECT n_tup_hot_upd || ',' || n_tup_upd FROM pg_stat_user_tables "
                     "WHERE relid = 'inbox'::regclass"]
    hot0, upd0 = map(int, psql(upd_sql, db, "reading pg_stat_user_tables", env).split(","))
    script = os.path.join(o.out, f".run_{layout}_{mode}.sql")
    with open(script, "w") as f:
        for part in (f"claim_{mode}_{LAYOUTS[layout]}.sql", f"complete_{layout}.sql"):
            with open(os.path.join(HERE, part)) as g:
                f.write(g.read())
    c0 = machine_cpu_ticks()
    p = subprocess.run(["pgbench", "-n", "-M", "prepared", "-c", str(w), "-j", str(w),
                        "-T", str(o.secs), "-D", f"batch={b}", "-D", f"nw={w}", "-f", script, db],
                       capture_output=True, text=True, env=env)
    c1 = machine_cpu_ticks()
    os.unlink(script)
    if p.returncode != 0:
        raise Failed(f"pgbench ({layout} {mode} W {w} batch {b}): "
                     f"{(p.stderr.strip() or p.stdout.strip()).splitlines()[-1]}")
    time.sleep(0.6)  # the backends' statistics reach pg_stat_user_tables when they exit
    rows = int(psql(["-c", "SELECT count(*) FROM effects"], db, "counting effects", env))
    hot1, upd1 = map(int, psql(upd_sql, db, "reading pg_stat_user_tables", env).split(","))
    if rows >= o.rows:
        raise Failed(f"{layout} {mode} W {w} batch {b}: the backlog ran dry; raise --rows")
    cpu_us = (c1 - c0) / os.sysconf("SC_CLK_TCK") * 1e6
    return {"w": w, "batch": b, "layout": layout, "mode": mode, "rows": rows,
            "rows_per_s": rows / o.secs, "hot_updates": hot1 - hot0, "updates": upd1 - upd0,
            "machine_cpu_us_per_row": cpu_us / rows if rows else None}


def geo_mean(xs):
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def cell_figures(runs, o):
    """Per (W, B, layout): medians, min-max, and the mean of the rounds' paired ratios."""
    cells = []
    for w in o.workers:
        for b in o.batch:
            for lay in o.layouts:
                by = {m: {r["round"]: r for r in runs if (r["w"], r["batch"], r["layout"],
                                                          r["mode"]) == (w, b, lay, m)}
                      for m in MODES}
                c = {"w": w, "batch": b, "layout": lay}
                for m in MODES:
                    v = [r["rows_per_s"] for r in by[m].values()]
                    c[m] = {"median": statistics.median(v), "min": min(v), "max": max(v),
                            "cpu_us_per_row": statistics.median(
                                r["machine_cpu_us_per_row"] for r in by[m].values())}
                pairs = [by["affinity"][k]["rows_per_s"] / by["competing"][k]["rows_per_s"]
                         for k in by["competing"] if k in by["affinity"]]
                c["affinity_over_competing"] = statistics.fmean(pairs)
                cells.append(c)
    return cells


def summary(cells, o):
    out = {}
    for lay in o.layouts:
        mine = [c for c in cells if c["layout"] == lay]
        s = {"affinity_over_competing": geo_mean([c["affinity_over_competing"] for c in mine]),
             "cells_at_least_1": sum(c["affinity_over_competing"] >= 1 for c in mine),
             "cells": len(mine)}
        if "s" in o.layouts:
            base = {(c["w"], c["batch"]): c for c in cells if c["layout"] == "s"}
            for m in MODES:
                s[f"{m}_over_s"] = geo_mean([c[m]["median"] / base[(c["w"], c["batch"])][m]["median"]
                                             for c in mine])
        out[lay] = s
    return out


def markdown(cells, summ, o):
    f = lambda c, m: f"{c[m]['median']:.0f} ({c[m]['min']:.0f}-{c[m]['max']:.0f})"  # noqa: E731
    lines = ["| W | batch | layout | competing rows/s (min-max) | affinity rows/s (min-max) | "
             "affinity ÷ competing | machine CPU µs/row (aff / comp) |",
             "|--:|--:|---|--:|--:|--:|--:|"]
    for c in cells:
        lines.append(f"| {c['w']} | {c['batch']} | {c['layout']} | {f(c, 'competing')} | "
                     f"{f(c, 'affinity')} | {c['affinity_over_competing']:.3f} | "
                     f"{c['affinity']['cpu_us_per_row']:.1f} / {c['competing']['cpu_us_per_row']:.1f} |")
    lines += ["", "| layout | affinity ÷ competing (geometric mean of cells) | cells ≥ 1 | "
                  "competing ÷ s | affinity ÷ s |", "|---|--:|--:|--:|--:|"]
    for lay, s in summ.items():
        rel = (f"{s['competing_over_s']:.3f} | {s['affinity_over_s']:.3f}"
               if "competing_over_s" in s else "- | -")
        lines.append(f"| {lay} | {s['affinity_over_competing']:.3f} | "
                     f"{s['cells_at_least_1']} of {s['cells']} | {rel} |")
    return "\n".join(lines) + "\n"


def main():
    p = parser("pg-layouts", __doc__)
    p.add_argument("--out", required=True)
    p.add_argument("--workers", default="2,4,8")
    p.add_argument("--batch", default="8,32")
    p.add_argument("--layouts", default="s,d,k,m")
    p.add_argument("--repeats", default="3")
    p.add_argument("--secs", default="3")
    p.add_argument("--rows", default="300000")
    p.add_argument("--db", default="ringbench_layouts")
    o = p.parse_args()
    try:
        o.workers = int_list(o.workers, "workers", 1, 64)
        o.batch = int_list(o.batch, "batch", 1, 1000)
        o.repeats = int_list(o.repeats, "repeats", 1, 100)[0]
        o.secs = int_list(o.secs, "secs", 1, 3600)[0]
        o.rows = int_list(o.rows, "rows", 1, 100_000_000)[0]
        o.layouts = o.layouts.split(",")
        bad = [x for x in o.layouts if x not in LAYOUTS]
        if bad or len(set(o.layouts)) != len(o.layouts):
            raise Failed(f"--layouts: '{bad[0] if bad else o.layouts}' is not a list of "
                         f"distinct layouts among {','.join(LAYOUTS)}")
        os.makedirs(o.out, exist_ok=True)
        machine = json.loads(subprocess.run(
            [os.path.join(TOP, "scripts", "machine-record"), "lab=pg-layouts"],
            capture_output=True, text=True, check=True).stdout)
        prepare_db(o.db)
        kinds = [(lay, m) for lay in o.layouts for m in MODES]
        runs, n, total = [], 0, len(o.workers) * len(o.batch) * o.repeats * len(kinds)
        for w in o.workers:
            for b in o.batch:
                for r in range(o.repeats):
                    for i in range(len(kinds)):
                        lay, m = kinds[(i + r) % len(kinds)]
                        run = one_run(o.db, o, lay, m, w, b)
                        run["round"] = r + 1
                        runs.append(run)
                        n += 1
                        print(f"pg-layouts: {n}/{total} W {w} batch {b} round {r + 1} {lay} "
                              f"{m}: {run['rows_per_s']:.0f} rows/s", file=sys.stderr)
    except Failed as e:
        print(f"pg-layouts: {e}", file=sys.stderr)
        return 2 if str(e).startswith("--") else 1
    cells = cell_figures(runs, o)
    summ = summary(cells, o)
    with open(os.path.join(o.out, "layouts.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(runs[0].keys()))
        wr.writeheader()
        wr.writerows(runs)
    params = {k: getattr(o, k) for k in ("workers", "batch", "layouts", "repeats", "secs", "rows")}
    with open(os.path.join(o.out, "layouts.json"), "w") as f:
        json.dump({"parameters": params, "machine": machine, "runs": runs, "cells": cells,
                   "summary": summ}, f, indent=1)
    md = markdown(cells, summ, o)
    with open(os.path.join(o.out, "layouts.md"), "w") as f:
        f.write(f"# Inbox layouts (bench/pg/layouts)\n\nParameters: {json.dumps(params)}\n\n{md}")
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
