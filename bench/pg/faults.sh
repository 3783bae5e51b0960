# faults.sh — ctest pg_bench_faults (label pg): faults in the middle of `pg bench` against the
# pg_server fixture's server, in its own databases. In a backlog sweep (--batch none
# --chain-workers none --backlog 50k --repeats 2), three kinds, each injected once
# competing's first measurement has ended, while the next mode's workers run:
#   kill       one worker SIGKILLed: that repetition fails and is named (signal, size,
#              repetition), the point's claim p50 is the median of the other repetition only,
#              the sweep goes on to its end and exits 1;
#   terminate  every backend of the bench database terminated, the driver's too: the driver
#              reconnects (saying why with Postgres's own message, not "no connection to the
#              server") and the sweep goes on to its end;
#   block      the same with the database closed to new connections (ALLOW_CONNECTIONS false,
#              as a server gone for good): the sweep stops, pgbench.json and pgbench.md keep the
#              points measured before and say where it stopped and why.
#   stall      one worker stopped (SIGSTOP) as soon as it is seen: killed at the measurement's
#              deadline (2 s + the overrun slack), or at the 20 s ready wait if it was stopped
#              while connecting; that repetition fails saying so, the sweep goes on (a CI run
#              once stopped a worker 0.2 s after it was seen: its 0.1 s measurement had ended);
#   interrupt  SIGINT to the whole process group (Ctrl-C in a terminal): the workers stop,
#              the outputs keep competing's point and say where and why (`interrupted`,
#              `stopped`), exit 130, no worker left running.
# And in the matrix (W 1, batch 8, competing then affinity, one repetition):
#   matrix     every backend terminated during competing's cell: that cell fails, the driver
#              reconnects before the next, and affinity's cell is measured;
#   lock       the inbox locked (LOCK TABLE, 6 s) during competing's cell: its worker is killed at
#              the deadline, the cell fails, affinity's is measured once the lock is gone;
#   sigterm    SIGTERM to the driver alone during competing's cell: it stops its worker, writes
#              the outputs (that cell failed, affinity's not measured, `interrupted`), exit 143;
#   sigterm2   the same, then 5 ms later SIGTERM to its whole process group, as timeout(1)
#              does: the same stop and outputs (the second signal ended the process at once,
#              writing nothing, until 2026-12-04);
#   late       SIGTERM, then (the driver held stopped meanwhile) a second one 1.2 s later,
#              past the same-stop window: the process ends by SIGTERM at once, without its
#              stop's outputs, and its worker goes with it;
#   kill9      the driver SIGKILLed during a 20 s cell: its worker leaves within 3 s (it
#              claimed on to its deadline, an orphan, until 2026-12-04).
# And a Ctrl-C while the sweep enqueues (fill): the COPY is aborted, none of its rows stays; and
# one during `pgbench -i` (init): the reference's error is the stop.
# Found by fresh-user tries (session notes of 2026-12-03): a stopped sweep wrote no point at
# all, a killed worker's repetition still fed the point's median, a lost driver session
# failed every later cell with "no connection to the server"; a stalled worker stretched a
# 1 s measurement to 40 s with exit 0 (or hung the run), and Ctrl-C wrote nothing and left
# the workers running.
# shellcheck source=../../queue/tests/lib.sh
source "$RB_PG_LIB"
db=ringbench_bench_faults
admin() { psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
on_exit() { admin "ALTER DATABASE $db ALLOW_CONNECTIONS true" >/dev/null 2>&1 || true; }

# wait_until SECONDS WHAT COMMAND... — poll COMMAND every 20 ms until it succeeds.
wait_until() {
    local deadline=$((SECONDS + $1)) what=$2
    shift 2
    until "$@"; do
        ((SECONDS < deadline)) || fail "waited $1 s for $what"
        sleep 0.02
    done
}
has_worker() { [[ -n $(pgrep -P "$1") ]]; }

kill_worker() { kill -KILL "$(pgrep -P "$1" | head -1)"; }
# stop_worker PID — SIGSTOP one of the bench's workers while it runs: the first one seen, at
# once (a backlog point's measurement may end within 0.1 s), and seen stopped; one that ended
# first is passed over for the next.
stop_worker() {
    local deadline=$((SECONDS + 60)) w i
    while ((SECONDS < deadline)); do
        w=$(pgrep -P "$1" | head -1)
        if [[ -n $w ]] && kill -STOP "$w" 2>/dev/null; then
            for ((i = 0; i < 50; i++)); do
                [[ $(cut -d' ' -f3 "/proc/$w/stat" 2>/dev/null) == T ]] && return 0
                sleep 0.002
            done
        fi
        sleep 0.005
    done
    fail "stall: no worker to stop"
}
interrupt() { kill -INT -- "-$1"; } # the bench leads its own process group (setsid)
sigterm() { kill -TERM "$1"; }
# as timeout(1) stops a command: SIGTERM to it, then to its process group (5 ms later here,
# once the first is handled: a signal still pending when the same one comes is one signal)
sigterm_twice() { kill -TERM "$1" && sleep 0.005 && kill -TERM -- "-$1"; }
# a second SIGTERM 1.2 s after the first, the driver stopped (SIGSTOP) in between so its stop
# cannot finish first: the second comes out of the same-stop window
sigterm_late() {
    kill -TERM "$1" && sleep 0.005 && kill -STOP "$1" && sleep 1.2 &&
        kill -TERM "$1" && kill -CONT "$1"
}
kill9() { kill -KILL "$1"; }
lock_inbox() { # in the background: the bench runs on meanwhile
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "\\connect $db" \
        -c "BEGIN; LOCK TABLE ringbench.inbox; SELECT pg_sleep(6); COMMIT" >/dev/null &
}
terminate() {
    admin "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '$db' AND pid <> pg_backend_pid()" >/dev/null
}
block() { admin "ALTER DATABASE $db ALLOW_CONNECTIONS false" && terminate; }

interrupt_setup() { interrupt "$1"; } # while the driver alone works (no worker to wait for)

# sweep NAME FAULT TRIGGER ARGS... — run `pg bench ARGS` into $TMP/NAME (JSON on stdout into
# NAME.json, stderr into NAME.err), in a process group of its own (setsid: as a terminal's
# foreground job), inject FAULT (a function given the bench's pid) once stderr
# matches TRIGGER (grep -E) and a worker runs (a FAULT named *_setup: at once), 0.2 s later;
# its exit status into $TMP/NAME.rc.
sweep() {
    local name=$1 fault=$2 trigger=$3 rc=0
    shift 3
    setsid "$RB" pg bench --queue-db "$db" "$@" --out "$TMP/$name" \
        --format json >"$TMP/$name.json" 2>"$TMP/$name.err" &
    local pid=$!
    wait_until 120 "/$trigger/ ($name)" grep -Eq "$trigger" "$TMP/$name.err"
    [[ $fault == *_setup ]] || wait_until 60 "a worker ($name)" has_worker "$pid"
    [[ $fault == stop_worker ]] || sleep 0.2
    "$fault" "$pid"
    wait "$pid" || rc=$?
    echo "$rc" >"$TMP/$name.rc"
    # no worker outlives the bench (they share its command line): a driver that stopped waited
    # for them; one that died without its stop (late, kill9) leaves them to their SIGTERM
    # (PR_SET_PDEATHSIG), which they answer by leaving, within 3 s
    local grace=0
    [[ $fault == sigterm_late || $fault == kill9 ]] && grace=3
    local gone=$((SECONDS + grace))
    while pgrep -f -- "--out $TMP/$name " >/dev/null; do
        ((SECONDS < gone)) || fail "$name: a worker still runs ${grace} s after its driver ended"
        sleep 0.05
    done
    note "$name: exit $rc$(grep -m1 -o 'FAILED: .*' "$TMP/$name.err" | sed 's/^/, /')"
}

admin "ALTER DATABASE $db ALLOW_CONNECTIONS true" >/dev/null 2>&1 || true # left by a killed run
admin "DROP DATABASE IF EXISTS $db WITH (FORCE)" # afresh: one an older pg bench left is unmarked

# A database holding a queue pg bench did not make (--queue-db naming a real queue's database)
# is refused before anything in it is touched; one it made carries its mark. Variants: the
# queue in another schema (accepted as a scratch database, fresh user helper-69), another
# application's tables (taken over and marked, helper-72), a database with a comment of its own
# (the mark would have replaced it); and the same for --pgbench-db, where pgbench -i recreated
# its tables in any database named (helper-72), and the bench's pgbench database named as the
# queue's (its mark is a comment of its own there).
foreign=ringbench_bench_faults_foreign
for case in ringbench app users comment pgbench-users pgbench-comment; do
    admin "DROP DATABASE IF EXISTS $foreign" && admin "CREATE DATABASE $foreign"
    schema=${case#pgbench-}
    setup="CREATE SCHEMA $schema; CREATE TABLE $schema.inbox (id int); INSERT INTO $schema.inbox VALUES (42)"
    [[ $schema == app ]] && setup+="; CREATE TABLE app.queue_config (n int)"
    [[ $schema == comment ]] && setup+="; COMMENT ON DATABASE $foreign IS 'orders, production'"
    [[ $schema == users ]] && setup="CREATE SCHEMA users; CREATE TABLE users.accounts (id int); INSERT INTO users.accounts VALUES (42)"
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "\\connect $foreign" -c "$setup"
    dbs=(--queue-db "$foreign" --batch none --chain-workers none --no-scale --no-crash --backlog 1k)
    opt=--queue-db
    if [[ $case == pgbench-* ]]; then # a reference around one small cell reads --pgbench-db
        opt=--pgbench-db
        dbs=(--queue-db "$db" --pgbench-db "$foreign" --workers 1 --batch 1 --modes competing
            --chain-workers none --no-scale --no-crash --backlog none --secs 0.5 --pgbench-secs 1)
    fi
    rc=0
    "$RB" pg bench "${dbs[@]}" --out "$TMP/foreign-$case" >/dev/null 2>"$TMP/foreign.err" || rc=$?
    [[ $rc == 1 ]] || fail "foreign database ($case): exit $rc, wanted 1: $(tail -2 "$TMP/foreign.err")"
    table=$schema.inbox
    [[ $schema == users ]] && table=users.accounts
    want="database $foreign ($opt) holds $table, which pg bench did not make"
    [[ $schema == comment ]] && want="database $foreign ($opt) has a comment ('orders, production') that this use of it did not write"
    grep -qF "$want" "$TMP/foreign.err" || fail "foreign database ($case): $(cat "$TMP/foreign.err")"
    [[ $(psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "\\connect $foreign" -c "TABLE $table") == 42 &&
        $(psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "\\connect $foreign" -c "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'pgbench%' OR schemaname = 'ringbench' AND tablename <> 'inbox'") == 0 ]] ||
        fail "foreign database ($case): touched"
done
admin "DROP DATABASE $foreign"
# the same database for both: refused before anything runs
rc=0
"$RB" pg bench --queue-db samedb --pgbench-db samedb --workers 1 --batch 1 --out "$TMP/same" \
    >/dev/null 2>"$TMP/same.err" || rc=$?
if [[ $rc != 2 ]] || ! grep -q "^ringbench pg bench: --queue-db and --pgbench-db name the same database ('samedb')" "$TMP/same.err"; then
    fail "same database for both: exit $rc, $(cat "$TMP/same.err")"
fi
sweep_args=(--batch none --chain-workers none --no-scale --no-crash --repeats 2 --backlog-secs 2)
for kind in kill terminate block stall interrupt; do
    fn=$kind sizes=50k
    [[ $kind == kill ]] && fn=kill_worker
    # two sizes: the ratio rows name the point that failed (stall: at 10000) or was not
    # measured (interrupt: 50000's affinity, and 100000)
    [[ $kind == stall ]] && fn=stop_worker sizes=10k,50k
    [[ $kind == interrupt ]] && sizes=50k,100k
    sweep "$kind" "$fn" "competing over [0-9]+ pending" "${sweep_args[@]}" --backlog "$sizes"
    on_exit
done
# Ctrl-C while the sweep enqueues (a COPY of 1M rows, 10-20 s here): the COPY is aborted at
# once and none of its rows stays (the driver finished it first, 1M rows left, until
# 2026-12-04), the outputs say where it stopped.
sweep fill interrupt_setup "enqueueing 1000000 rows" "${sweep_args[@]}" --backlog 1M
rows=$(psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "\\connect $db" -c "SELECT count(*) FROM ringbench.inbox")
[[ $rows == 0 ]] || fail "fill: the interrupted COPY left $rows rows in the inbox"
matrix_args=(--pgbench-db ringbench_pgbench_faults --workers 1 --batch 8 --modes "competing,affinity" --dist uniform --repeats 1 --secs 2
    --chain-workers none --no-scale --no-crash --backlog none --pgbench-secs 1
    --pgbench-group-secs 1)
for kind in matrix lock sigterm sigterm2; do
    fn=$kind
    [[ $kind == matrix ]] && fn=terminate
    [[ $kind == sigterm2 ]] && fn=sigterm_twice
    [[ $kind == lock ]] && fn=lock_inbox
    sweep "$kind" "$fn" "competing W=1 batch=8 uniform, repetition 1/1" "${matrix_args[@]}"
done
long_args=("${matrix_args[@]}") # the same with 20 s cells: an orphan worker would claim on
for i in "${!long_args[@]}"; do [[ ${long_args[i]} == --secs ]] && long_args[i+1]=20; done
for kind in late kill9; do
    fn=sigterm_late
    [[ $kind == kill9 ]] && fn=kill9
    sweep "$kind" "$fn" "competing W=1 batch=8 uniform, repetition 1/1" "${long_args[@]}"
    [[ $(cat "$TMP/$kind.rc") == $([[ $kind == late ]] && echo 143 || echo 137) ]] ||
        fail "$kind: exit $(cat "$TMP/$kind.rc"), wanted 143 (late) / 137 (kill9): by the signal"
    [[ ! -e $TMP/$kind/pgbench.json ]] || fail "$kind: the run wrote its outputs: it ended by its stop, not by the signal"
done
# Ctrl-C during `pgbench -i`: the run says it was interrupted there, and the reference's error
# is the stop, not pgbench's "killed by signal 15" and its output. pgbench -i is held by a lock
# on its table (it takes 0.3 s on a database it made before: a signal 0.2 s after the line
# could miss it).
pgdb=ringbench_pgbench_faults
psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "\\connect $pgdb" \
    -c "BEGIN; LOCK TABLE pgbench_accounts; SELECT pg_sleep(4); COMMIT" >/dev/null &
held() {
    [[ $(admin "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = '$pgdb' AND l.locktype = 'relation' AND l.mode = 'AccessExclusiveLock' AND l.granted") != 0 ]]
}
wait_until 10 "the lock on $pgdb's pgbench_accounts" held
sweep init interrupt_setup "pgbench -i on database" "${matrix_args[@]}"
wait # the lock's session
# Ctrl-C in a soak after its first interval (soak): the intervals measured stay, the totals
# and ratios are null (zeros, read as measured, until 2026-12-04), the retention is off again.
sweep soak interrupt "soak [0-9]+ s: " --pgbench-db ringbench_pgbench_faults --batch none \
    --chain-workers none --no-scale --no-crash --backlog none --soak 10 --pgbench-secs 1
[[ -z $(psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "\\connect $db" \
    -c "SELECT retention_ms FROM ringbench.queue_config") ]] || fail "soak: retention left on"

[[ $(admin "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '$db'") == \
    "ringbench pg bench: a scratch database, every run empties its queue" ]] ||
    fail "the bench's database carries no mark"

python3 - "$TMP" <<'PY' || fail "(above)"
import json, os, re, sys
tmp = sys.argv[1]
bad = 0
def check(name, what, ok, got=""):
    global bad
    if not ok:
        print("FAIL %s: %s%s" % (name, what, (": got %s" % (got,)) if got != "" else "")); bad += 1
for name in ("kill", "terminate", "block", "stall", "interrupt"):
    rc = open(os.path.join(tmp, name + ".rc")).read().strip()
    err = open(os.path.join(tmp, name + ".err")).read()
    d = json.load(open(os.path.join(tmp, name, "pgbench.json")))
    md = open(os.path.join(tmp, name, "pgbench.md")).read()
    check(name, "stdout is pgbench.json", json.load(open(os.path.join(tmp, name + ".json"))) == d)
    b = d["backlog_sweep"]
    pts, stop = b["points"], b["stopped"]
    if name == "interrupt":
        check(name, "exit status 130 (128 + SIGINT)", rc == "130", rc)
    else:
        check(name, "exit status 1 (a repetition failed)", rc == "1", rc)
    check(name, "no 'no connection to the server' (Postgres's message hidden)",
          "no connection to the server" not in err + json.dumps(d))
    check(name, "pgbench skipped in a run without cells", d["pgbench"]["skipped"] and
          "pgbench simple-update" not in err, d["pgbench"])
    for x in pts:
        reps = x["repeat_claim_p50_us"]
        good = [v for v in reps if v is not None]
        check(name, "%s at %d: failed repetitions = nulls in the list" % (x["mode"], x["backlog"]),
              x["n_failed_repeats"] == len(reps) - len(good), (x["n_failed_repeats"], reps))
        if good:
            med = sorted(good)[(len(good) - 1) // 2 if len(good) % 2 else len(good) // 2 - 1]
            check(name, "%s at %d: claim p50 is the median of the good repetitions %s"
                  % (x["mode"], x["backlog"], good), abs(x["claim_p50_us"] - med) < 0.05,
                  x["claim_p50_us"])
        check(name, "%s at %d: failed iff a repetition failed" % (x["mode"], x["backlog"]),
              x["failed"] == (x["n_failed_repeats"] > 0), x["failed"])
    ratios = {t["mode"]: t for t in b["targets"]}
    if name == "stall":
        # the stopped worker is the first one that runs after competing's first measurement:
        # affinity's at 10000 as a rule, a later one's if that one ended first
        bad_pts = [x for x in pts if x["failed"]]
        check(name, "one point failed", len(bad_pts) == 1, bad_pts)
        m, size = (bad_pts[0]["mode"], 10000 if bad_pts[0]["backlog"] < 20000 else 50000) \
            if bad_pts else ("affinity", 10000)
        why = "no ratio: the point at %d failed" % size
        check(name, "%s: %s" % (m, why), ratios[m]["measured"] is None and
              ratios[m]["why_not_measured"] == why and not ratios[m]["met"], ratios)
        check(name, "the other modes: a ratio of 50k and 10k", all(
              ratios[o]["measured"] is not None and ratios[o]["backlog_small"] in (9999, 10000)
              for o in ("competing", "affinity", "ordered") if o != m), ratios)
        check(name, "MD names it", "| %s | %s | <= 1.5 | **no** |" % (m, why) in md)
    if name == "interrupt":
        check(name, "no ratio: points not measured", ratios.get("competing", {}).get(
              "why_not_measured") == "no ratio: the point at 100000 was not measured (the sweep "
              "stopped)" and ratios.get("affinity", {}).get("why_not_measured") == "no ratio: the "
              "point at 50000 was not measured (the sweep stopped)", ratios)
    if name in ("kill", "terminate", "stall"):
        check(name, "the sweep ran to its end", stop is None and
              len(pts) == (6 if name == "stall" else 3) and
              all(x["n_repeats"] == 2 for x in pts), (stop, len(pts)))
        check(name, "one repetition failed", sum(x["n_failed_repeats"] for x in pts) == 1,
              [(x["mode"], x["backlog"], x["n_failed_repeats"]) for x in pts])
        check(name, "MD marks it", "(a repetition failed)" in md)
        # the batch a killed or stalled worker held stays leased until its lease runs out
        check(name, "no row counted lost", all(x["n_lost"] == 0 for x in pts),
              [(x["mode"], x["backlog"], x["n_lost"]) for x in pts])
    if name == "kill":
        check(name, "the FAILED line names size, repetition and signal",
              re.search(r"over 4999\d pending, repetition 1: FAILED: worker \d was killed by signal 9 \(",
                        err), err[-600:])
    if name == "stall":
        # stopped while it measured: killed at the deadline; stopped before it was ready (it was
        # connecting): killed when the ready wait ran out
        check(name, "the FAILED line names the deadline or the ready wait",
              re.search(r"pending, repetition \d: FAILED: worker \d (was still running at "
                        r"its deadline \(a stall\?\) and was killed without a report \(the 2\.0 s "
                        r"measurement \+ 1\.5 s\)|was not ready after 20 s \(a stall\?\) and was "
                        r"killed)", err), err[-600:])
    check(name, "interrupted: null unless a stop signal came",
          (d["interrupted"] is None) == (name != "interrupt"), d["interrupted"])
    if name == "interrupt":
        check(name, "interrupted: SIGINT during the sweep", d["interrupted"] ==
              {"signal": "SIGINT", "during": "the backlog sweep"}, d["interrupted"])
        check(name, "stopped: measuring, repetition 1, interrupted by SIGINT", stop and
              stop["step"] == "measuring" and stop["repetition"] == 1 and
              stop["error"] == "interrupted by SIGINT", stop)
        check(name, "competing's measured repetition kept", [x for x in pts if x["mode"] ==
              "competing" and x["n_repeats"] == 1 and not x["failed"]], pts)
        check(name, "MD says it", "**Interrupted** by SIGINT during the backlog sweep" in md, md[:600])
        check(name, "stderr says it", "interrupted by SIGINT during the backlog sweep: the parts "
              "after it did not run" in err, err[-400:])
    if name == "terminate":
        check(name, "the driver reconnected, saying why",
              re.search(r"connection was lost \(.*terminating connection due to administrator "
                        r"command.*\); reconnected", err), err[-600:])
    if name == "block":
        check(name, "stopped at 50000, measuring, repetition 1", stop and
              stop["backlog"] == 50000 and stop["step"] == "measuring" and
              stop["repetition"] == 1 and stop["mode"] in ("affinity", "ordered"), stop)
        check(name, "stopped: Postgres's reason", stop and "not currently accepting connections"
              in stop["error"] and "terminating connection" in stop["error"], stop)
        check(name, "competing's measured repetition kept", [x for x in pts if x["mode"] ==
              "competing" and x["backlog"] == 49999 and x["n_repeats"] == 1], pts)
        check(name, "MD says where it stopped", "**The sweep stopped** at backlog 50000, "
              "measuring, repetition 1, " in md and "| 49999 | competing |" in md)
        check(name, "stderr says it", "backlog sweep failed: the driver's connection was lost"
              in err, err[-400:])
rc = open(os.path.join(tmp, "fill.rc")).read().strip()
d = json.load(open(os.path.join(tmp, "fill", "pgbench.json")))
md = open(os.path.join(tmp, "fill", "pgbench.md")).read()
stop = d["backlog_sweep"]["stopped"]
check("fill", "exit status 130", rc == "130", rc)
check("fill", "interrupted: SIGINT during the sweep", d["interrupted"] ==
      {"signal": "SIGINT", "during": "the backlog sweep"}, d["interrupted"])
check("fill", "stopped: filling 1000000, interrupted by SIGINT", stop and stop["step"] ==
      "filling" and stop["backlog"] == 1000000 and stop["error"] == "interrupted by SIGINT", stop)
check("fill", "no point", d["backlog_sweep"]["points"] == [], d["backlog_sweep"]["points"])
check("fill", "MD says it", "**Interrupted** by SIGINT during the backlog sweep" in md, md[:600])
rc = open(os.path.join(tmp, "soak.rc")).read().strip()
d = json.load(open(os.path.join(tmp, "soak", "pgbench.json")))
sk = d["soak"]
check("soak", "exit status 130", rc == "130", rc)
check("soak", "interrupted: SIGINT during the soak",
      d["interrupted"] == {"signal": "SIGINT", "during": "the soak"}, d["interrupted"])
check("soak", "failed, its intervals kept", sk["failed"] and len(sk["intervals"]) >= 1, sk)
for k in ("n_rows", "n_lost", "n_duplicates", "last_vs_first", "buffers_last_vs_first",
          "cpu_last_vs_first", "done_bound_rows", "inbox_bounded"):
    check("soak", k + " null (no total of a soak cut short)", sk[k] is None, sk[k])
# a soak alone reads no cell's, sweep's or crash run's parameter: they are listed as not read
# (they were recorded as if they had been, stop 38's fresh user)
check("soak", "parameters not read", sorted(d["parameters"]["not_read"]) == sorted([
      "crash_kills", "backlog_s", "completion", "heap_order", "workers", "cell_s",
      "rows_per_cell", "dists", "pgbench_group_s", "repeats", "modes", "zipf_s"]),
      d["parameters"]["not_read"])
ref = sk["pgbench"]
check("soak", "no pgbench after a stop, so no drift", ref["after_tps"] is None and
      ref["drift"] is None and ref["drift_flagged"] is None, ref)
check("soak", "the server settled before the reference (superuser)",
      ref["not_settled"] == [None, None], ref["not_settled"])
md = open(os.path.join(tmp, "soak", "pgbench.md")).read()
# the first interval's row (the JSON's figures are rounded to 0.1 before this rounds them to
# whole numbers, the MD's once: 2.53 s is "3" there and 2.5 -> "2" here, so compare within it)
row = re.search(r"\| until s \| rows/s \| inbox rows [^\n]*\n\|[-:|]+\n\| ([0-9]+) \| ([0-9]+) \|", md)
first = sk["intervals"][0]
check("soak", "MD: failed, its measured intervals kept (they were dropped)",
      "**failed** (see stderr of the run): the intervals measured before it stopped" in md and
      row is not None and abs(int(row.group(1)) - first["t_end_s"]) <= 0.6 and
      abs(int(row.group(2)) - first["rows_per_s"]) <= 1 and "last interval ÷ the first" not in md,
      md[md.find("## Soak"):][:900])
rc = open(os.path.join(tmp, "init.rc")).read().strip()
d = json.load(open(os.path.join(tmp, "init", "pgbench.json")))
err = open(os.path.join(tmp, "init.err")).read()
check("init", "exit status 130", rc == "130", rc)
check("init", "interrupted: SIGINT during pgbench -i", d["interrupted"] ==
      {"signal": "SIGINT", "during": "pgbench -i"}, d["interrupted"])
check("init", "the reference's error is the stop", d["pgbench"]["error"] ==
      "interrupted by SIGINT" and "killed by signal" not in err, (d["pgbench"]["error"], err[-300:]))
why = {"matrix": r"terminating connection due to administrator command",
       "lock": r"worker 0 was still running at its deadline \(a stall\?\) and was killed without a "
               r"report \(the 2\.0 s measurement \+ 1\.5 s\)",
       "sigterm": r"interrupted by SIGTERM", "sigterm2": r"interrupted by SIGTERM"}
for name in ("matrix", "lock", "sigterm", "sigterm2"):
    rc = open(os.path.join(tmp, name + ".rc")).read().strip()
    err = open(os.path.join(tmp, name + ".err")).read()
    d = json.load(open(os.path.join(tmp, name, "pgbench.json")))
    md = open(os.path.join(tmp, name, "pgbench.md")).read()
    cells = {c["mode"]: c for c in d["cells"]}
    check(name, "exit status", rc == ("143" if name.startswith("sigterm") else "1"), rc)
    # (a group whose pgbench reference drifted is measured again: the first measurement's
    # failure stays in the JSON all the same)
    check(name, "competing's cell failed in the JSON", cells["competing"]["failed"],
          cells["competing"]["failed"])
    check(name, "competing's cell failed, saying why", re.search(
          r"competing W=1 batch=8 uniform, repetition 1/1 \.\.\. FAILED: .*" + why[name], err),
          err[-600:])
    if name.startswith("sigterm"):
        check(name, "affinity's cell not measured", cells["affinity"]["failed"] and
              cells["affinity"]["rows_per_s"] is None and cells["affinity"]["not_run"],
              cells["affinity"])
        check(name, "competing's cell cut short, not 'not run'", not cells["competing"]["not_run"],
              cells["competing"])
        # a cell the stop came before is "not run" in the MD, not "failed" (fresh user, helper-71)
        check(name, "MD: affinity not run", re.search(r"\| affinity \| not run \|", md), md[-1500:])
        check(name, "stderr: affinity not run", "affinity: not run (the stop came first)" in err and
              "affinity: every repetition failed" not in err, err[-600:])
        check(name, "interrupted: SIGTERM during competing's cell", d["interrupted"] ==
              {"signal": "SIGTERM", "during": "the matrix: competing W=1 batch=8 uniform, "
               "repetition 1/1"}, d["interrupted"])
        check(name, "MD says it", "**Interrupted** by SIGTERM during the matrix" in md, md[:600])
        # the pgbench reference after the cells never ran: "-", not 0 TPS (fresh user, helper-71)
        ref = re.search(r"\| clients \| TPS before \| TPS after .*?\n\|---.*?\n(\| 1 \|[^\n]*)", md, re.S)
        check(name, "MD: the reference not measured after is '-'",
              ref and re.fullmatch(r"\| 1 \| [0-9]+ \| - \| [0-9]+ \|", ref.group(1)), ref and ref.group(1))
        continue
    check(name, "interrupted: null", d["interrupted"] is None, d["interrupted"])
    check(name, "affinity's cell measured after it", not cells["affinity"]["failed"] and
          cells["affinity"]["n_rows"] > 0, (cells["affinity"]["failed"], cells["affinity"]["n_rows"]))
    check(name, "no 'no connection to the server'", "no connection to the server" not in err)
    if name == "matrix":
        check(name, "the driver reconnected, saying why",
              re.search(r"connection was lost \(.*terminating connection due to administrator "
                        r"command.*\); reconnected", err), err[-600:])
sys.exit(1 if bad else 0)
PY
echo "PASS [$TEST]"
