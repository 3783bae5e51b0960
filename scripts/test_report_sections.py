#!/usr/bin/env python3
"""scripts/test_report_sections.py — ctest `report.sections`: the chaos and fuzz
sections of scripts/report on made-up run folders, no tools or server needed.

Chaos (issue 10): scripts/testdata/chaos-quick.json is what `ringbench pg chaos
--quick --format json` wrote on a real run (0 lost, 0 duplicate effects, 0 false
deaths); it must render as a pass with its figures, and the same document with one
row lost (done, effects and the verdict as pg chaos would then write them) as a
failure naming the lost row, in the section and in the summary. A run without
pg/chaos/, or whose pg step was not run, says "Not run"; a pg/chaos/ folder without
chaos.json is an error naming the file.
Fuzz (issue 16): per target the seconds, executions, edges, crashes and contract
breaks of fuzz/fuzz.json appear in its row; a contract break is named.
Target 1 with synchronous_commit off (issue 11): pg/sync-off/pgbench.json gives a section
with its affinity / competing targets only; none without the folder; a failed cell is an
error.
Exit 0 when every check holds, 1 naming each that does not.
"""
import copy
import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no scripts/__pycache__ in the source tree
loader = importlib.machinery.SourceFileLoader("rb_report", os.path.join(HERE, "report"))
spec = importlib.util.spec_from_loader("rb_report", loader)
report = importlib.util.module_from_spec(spec)
loader.exec_module(report)

n_fail = 0


def check(what, ok, text=""):
    global n_fail
    if not ok:
        n_fail += 1
        print(f"FAIL report.sections: {what}" + (f"\n--- got:\n{text}" if text else ""), file=sys.stderr)


def make_run(root, name, pg_status="ok", chaos=None, chaos_dir=False, fuzz=None):
    """A run folder as scripts/run leaves it, with only what these sections read."""
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "pg"))
    steps = [{"step": "pg", "status": pg_status, "exit": 0, "elapsed_s": 1},
             {"step": "fuzz", "status": "ok", "exit": 0, "elapsed_s": 1}]
    if pg_status == "skipped":
        steps[0].update(exit=None, why="--no-pg")
    json.dump({"profile": "full", "published": True, "unpublished_because": [], "steps": steps},
              open(os.path.join(d, "run.json"), "w"))
    json.dump({"host": "test"}, open(os.path.join(d, "machine.json"), "w"))
    if chaos is not None or chaos_dir:
        os.makedirs(os.path.join(d, "pg", "chaos"))
    if chaos is not None:
        json.dump(chaos, open(os.path.join(d, "pg", "chaos", "chaos.json"), "w"))
    if fuzz is not None:
        os.makedirs(os.path.join(d, "fuzz"))
        json.dump(fuzz, open(os.path.join(d, "fuzz", "fuzz.json"), "w"))
    return report.Run(d)


def render(run):
    return "\n".join(report.section_chaos(run)), report.chaos_summary(run)


clean = json.load(open(os.path.join(HERE, "testdata", "chaos-quick.json")))
assert clean["lost"] == 0 and clean["duplicate_effects"] == 0 and clean["false_deaths"] == 0
lost = copy.deepcopy(clean)
lost.update(done=clean["done"] - 1, effects=clean["effects"] - 1, lost=1, verdict="FAIL")
lost["handler_starts_per_row"][1] -= 1
lost["handler_starts_per_row"][0] += 1

with tempfile.TemporaryDirectory() as tmp:
    # a clean chaos run: a pass, with its figures
    text, line = render(make_run(tmp, "clean", chaos=clean))
    check("clean chaos run: expected '**Verdict: pass**'", "**Verdict: pass**" in text, text)
    check("clean chaos run: no FAIL", "FAIL" not in text, text)
    check("clean chaos run: summary says pass", line.startswith(f"pg chaos ({clean['profile']}): pass"), line)
    for row in (f"| **lost** | 0 | 0 |", f"| rows | {clean['rows']} |",
                f"| **false deaths** of live unpaused workers | 0 | 0 |",
                f"| **duplicate effects** | 0 | 0 |"):
        check(f"clean chaos run: row '{row}'", row in text, text)
    for kind, noun in (("kill", "kill"), ("pause", "pause"), ("terminate", "terminate round"),
                       ("restart", "restart"), ("statement_timeout", "statement timeout")):
        f = clean["faults"][kind]
        row = f"| {kind} | "
        cells = f" | {f['injected']} | {f['skipped']} | {f['recovered']} | "
        hit = [r for r in text.splitlines() if r.startswith(row)]
        check(f"clean chaos run: fault row {kind} with {cells}", len(hit) == 1 and cells in hit[0], text)
        said = f"{f['injected']} {noun}" + ("" if f["injected"] == 1 else "s")
        check(f"summary says '{said}'", said in line, line)
    starts = "| handler starts | " + " | ".join(map(str, clean["handler_starts_per_row"])) + " |"
    check("clean chaos run: handler starts per row", starts in text, text)

    # one row lost: a failure that names it, in the section and the summary
    text, line = render(make_run(tmp, "lost", chaos=lost))
    check("lost row: expected '**Verdict: FAIL**: lost rows 1'", "**Verdict: FAIL**: lost rows 1" in text, text)
    check("lost row: no pass verdict", "Verdict: pass" not in text, text)
    check("lost row: the lost figure is 1", "| **lost** | 1 | 0 |" in text, text)
    check("lost row: summary says FAIL", "): FAIL (lost rows 1)" in line, line)
    # figures that contradict a "pass" verdict still fail
    liar = dict(lost, verdict="pass")
    text, line = render(make_run(tmp, "liar", chaos=liar))
    check("lost row under a 'pass' verdict: still FAIL", "**Verdict: FAIL**" in text, text)
    dup = dict(clean, duplicate_effects=2, effects=clean["effects"] + 2, verdict="FAIL")
    text, _ = render(make_run(tmp, "dup", chaos=dup))
    check("duplicate effects: FAIL naming them", "**Verdict: FAIL**: duplicate effects 2" in text, text)
    fd = dict(clean, false_deaths=1, verdict="FAIL")
    text, _ = render(make_run(tmp, "fd", chaos=fd))
    check("false death: FAIL naming it",
          "**Verdict: FAIL**: false deaths of live unpaused workers 1" in text, text)

    # no chaos run: "not run", with why
    text, line = render(make_run(tmp, "absent"))
    check("no pg/chaos/: 'Not run'", "**Not run in this run**" in text and "pg/chaos/" in text, text)
    check("no pg/chaos/: summary 'not run'", line.startswith("pg chaos: not run"), line)
    text, line = render(make_run(tmp, "nopg", pg_status="skipped"))
    check("pg step skipped: 'Not run' (--no-pg)", "**Not run in this run** (--no-pg)" in text, text)
    check("pg step skipped: summary", line == "pg chaos: not run (--no-pg)", line)
    # a chaos folder without its JSON is an error naming the file
    try:
        render(make_run(tmp, "nojson", chaos_dir=True))
        check("pg/chaos/ without chaos.json: expected an error", False)
    except report.ReportError as e:
        check("pg/chaos/ without chaos.json: the error names the file", "chaos.json is missing" in str(e), str(e))

    # fuzz: per target seconds, executions, edges, crashes and contract breaks
    t = {"seconds": 30, "executions_per_s": 1000, "features": 500, "corpus_inputs": 40,
         "crash_files": [], "exit": 0}
    fuzz = {"seconds_per_target": 30, "sanitizers": "fuzzer,address,undefined", "targets": [
        dict(t, target="keys", executions=30123, edges=147, crashes=0, contract_broken=[]),
        dict(t, target="ring", executions=29000, edges=612, crashes=1,
             contract_broken=["contract broken at fuzz_ring.c:80: linear != binary"], exit=1)]}
    text = "\n".join(report.section_fuzz(make_run(tmp, "fuzz", fuzz=fuzz)))
    check("fuzz: header names contract breaks",
          "| target | seconds | executions | exec/s | edges | features | corpus | crashes | contract breaks |"
          in text, text)
    check("fuzz: keys row", "| keys | 30 | 30123 | 1000 | 147 | 500 | 40 | 0 | 0 |" in text, text)
    check("fuzz: ring row", "| ring | 30 | 29000 | 1000 | 612 | 500 | 40 | 1 | 1 |" in text, text)
    check("fuzz: the break is named", "linear != binary" in text, text)
    check("fuzz: not all clean", "0 crashes and 0 contract breaks" not in text, text)
    fuzz["targets"].pop()
    text = "\n".join(report.section_fuzz(make_run(tmp, "fuzz-clean", fuzz=fuzz)))
    check("fuzz: a clean run says so", "**0 crashes and 0 contract breaks** in 1 targets" in text, text)
    check("fuzz: the fewest executions", "fewest 30123 (`keys`)" in text, text)

    # target 1 with synchronous_commit off (pg/sync-off/): its affinity / competing targets
    # only (not the issue-6 ratios against a pgbench run under other settings); no folder, no
    # section; a failed cell is an error
    run = make_run(tmp, "sync-off")
    check("sync-off: no folder, no section", report.pg_commit_path(run) == [])
    os.makedirs(os.path.join(run.dir, "pg", "sync-off"))
    cell = {"mode": "affinity", "n_workers": 4, "batch": 32, "dist": "uniform", "failed": False}
    doc = {"parameters": {"synchronous_commit": "off"}, "cells": [cell], "targets": [
        {"target": "affinity / competing rows/s", "dist": "uniform", "n_workers": 4, "batch": 32,
         "measured": 1.042, "wanted": 1.0, "met": True},
        {"target": "affinity b32 rows/s / pgbench TPS", "dist": "uniform", "n_workers": 4,
         "batch": 32, "measured": 2.1, "wanted": 5.0, "met": False}]}
    json.dump(doc, open(os.path.join(run.dir, "pg", "sync-off", "pgbench.json"), "w"))
    text = "\n".join(report.pg_commit_path(run))
    check("sync-off: the affinity / competing row",
          "| affinity / competing rows/s | uniform | 4 | 32 | 1.042 | 1.00 | met |" in text, text)
    check("sync-off: no row against pgbench", "pgbench TPS" not in text, text)
    check("sync-off: says the setting", "synchronous_commit off" in text, text)
    cell["failed"] = True
    json.dump(doc, open(os.path.join(run.dir, "pg", "sync-off", "pgbench.json"), "w"))
    try:
        report.pg_commit_path(run)
        check("sync-off: a failed cell is an error", False)
    except report.ReportError as e:
        check("sync-off: the error names the file", "pg/sync-off/pgbench.json" in str(e), str(e))

if n_fail:
    print(f"report.sections: {n_fail} failures", file=sys.stderr)
    sys.exit(1)
print("report.sections: ok")
