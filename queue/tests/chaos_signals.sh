# `ringbench pg chaos` stopped from outside (issue 10, fresh-user check): (a) SIGTERM to the
# driver alone while it holds a worker paused (SIGSTOP): the paused worker is resumed and leaves
# on its own stop signal, every worker is reaped, one line "interrupted", exit 143; (b) SIGINT to
# the whole process group (Ctrl-C) while a worker is paused: exit 130, the same line, no process
# left; (c) the server gone for good (a TCP proxy in front of it is killed): exit 1 with one line
# after --retry-ms, no process left; (d) `pg worker` waiting for that unreachable server stops at
# SIGTERM instead of retrying for its --retry-ms (60 s); (e) SIGINT to the driver while
# --restart-cmd runs stops that command too. Runs alone (RUN_SERIAL): chaos cuts every
# ringbench session on the server.
source "$(dirname "$0")/lib.sh"

# procs SCHEMA — pids of the processes (driver and workers) run with --schema SCHEMA.
procs() { pgrep -f -- "--schema $1( |$)" || true; }
# Leftovers of a failed case must not outlive the test: resume and kill them.
on_exit() {
    local p
    for p in $(procs "${SCHEMA_BASE}_[a-z]*"); do kill -CONT "$p" 2>/dev/null || true; kill -KILL "$p" 2>/dev/null || true; done
    for p in $(pgrep -f -- "^sh -c sleep 60; : ${SCHEMA_BASE}_restart\$" || true); do pkill -KILL -P "$p" || true; kill -KILL "$p" || true; done
}
# paused_worker SCHEMA — wait (<= 60 s) until a worker of SCHEMA is stopped (state T): PAUSED=pid.
paused_worker() {
    local p
    for _ in $(seq 600); do
        for p in $(procs "$1"); do
            if [[ $(ps -o stat= -p "$p" 2>/dev/null) == T* ]]; then PAUSED=$p; return 0; fi
        done
        sleep 0.1
    done
    fail "no worker of $1 was paused within 60 s"
}
# finished PID SECONDS — wait for background PID (a child of this shell): RC=its exit code, or
# fail when it still runs after SECONDS.
finished() {
    for _ in $(seq $(($2 * 10))); do
        kill -0 "$1" 2>/dev/null || { RC=0; wait "$1" || RC=$?; return 0; }
        sleep 0.1
    done
    fail "pid $1 still runs $2 s after it should have stopped"
}
# none_left SCHEMA — no process of SCHEMA remains.
none_left() { local left; left=$(procs "$1"); [[ -z $left ]] || fail "processes left behind: $(ps -o pid,stat,args -p "${left//$'\n'/,}" 2>/dev/null)"; }

# Seed 24's first fault is a pause (SIGSTOP for 4 s, one second into the run).
run_interrupt() { # CASE SIGNAL TARGET(driver|group) EXPECTED_RC
    local schema="${SCHEMA_BASE}_$1" pid p id
    set -m # the driver leads its own process group, as from a shell prompt
    "$RB" pg chaos --quick --seed 24 --schema "$schema" --retry-ms 5000 --out "$TMP/$1" >"$TMP/$1.out" 2>"$TMP/$1.err" &
    pid=$!
    set +m
    PIDS+=("$pid")
    paused_worker "$schema"
    p=$PAUSED
    id=$(tr '\0' ' ' <"/proc/$p/cmdline" | grep -o -- '--id [^ ]*' | cut -d' ' -f2)
    if [[ $3 == group ]]; then kill "-$2" -- "-$pid"; else kill "-$2" "$pid"; fi
    finished "$pid" 60
    expect_eq "$1: exit code" "$RC" "$4"
    expect_eq "$1: stderr" "$(cat "$TMP/$1.err")" "ringbench pg chaos: interrupted"
    none_left "$schema"
    # The paused worker was resumed and stopped on its own signal (not SIGKILLed at the grace).
    grep -q "stop signal: leaving" "$TMP/$1/$id.log" || fail "$1: paused worker $id did not leave on its stop signal: $(tail -3 "$TMP/$1/$id.log")"
}
run_interrupt term TERM driver 143
run_interrupt int INT group 130

# (e) SIGINT to the driver alone while --restart-cmd runs (seed 18's first fault is the restart;
# this one hangs): the command is stopped, exit 130 (system() ignored SIGINT meanwhile).
schema="${SCHEMA_BASE}_restart"
"$RB" pg chaos --quick --seed 18 --schema "$schema" --retry-ms 5000 --restart-cmd "sleep 60; : $schema" >"$TMP/restart.out" 2>"$TMP/restart.err" &
pid=$!
PIDS+=("$pid")
for _ in $(seq 600); do pgrep -f -- "^sh -c sleep 60; : $schema\$" >/dev/null && break; sleep 0.1; done
pgrep -f -- "^sh -c sleep 60; : $schema\$" >/dev/null || fail "restart: --restart-cmd did not start within 60 s"
kill -INT "$pid"
finished "$pid" 20
expect_eq "restart: exit code" "$RC" 130
expect_eq "restart: stderr" "$(cat "$TMP/restart.err")" "ringbench pg chaos: interrupted"
none_left "$schema"

# A proxy in front of the server; killing it makes the server unreachable for good.
read -r addr sport sdir db user < <(q "SELECT coalesce(host(inet_server_addr()), '-'), current_setting('port'), split_part(current_setting('unix_socket_directories'), ',', 1), current_database(), current_user" | tr '|' ' ')
if [[ $addr == - ]]; then target="${sdir// /}/.s.PGSQL.$sport"; else target="$addr:$sport"; fi
cat >"$TMP/proxy.py" <<'EOF'
import socket, sys, threading
target = sys.argv[1]
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0))
ls.listen(64)
print(ls.getsockname()[1], flush=True)
def upstream():
    if target.startswith("/"):
        s = socket.socket(socket.AF_UNIX)
        s.connect(target)
        return s
    host, port = target.rsplit(":", 1)
    return socket.create_connection((host, int(port)))
def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
while True:
    c, _ = ls.accept()
    try:
        u = upstream()
    except OSError:
        c.close()
        continue
    threading.Thread(target=pipe, args=(c, u), daemon=True).start()
    threading.Thread(target=pipe, args=(u, c), daemon=True).start()
EOF
# start_proxy NAME — a proxy of its own to the server: PROXY=its pid, VIA=the conninfo through it
start_proxy() {
    python3 "$TMP/proxy.py" "$target" >"$TMP/$1.port" &
    PROXY=$!
    PIDS+=("$PROXY")
    for _ in $(seq 100); do [[ -s $TMP/$1.port ]] && break; sleep 0.1; done
    [[ -s $TMP/$1.port ]] || fail "the proxy $1 did not start"
    VIA="host=127.0.0.1 port=$(cat "$TMP/$1.port") dbname=$db user=$user connect_timeout=5"
}
start_proxy proxy
proxy=$PROXY via=$VIA

# (c) the server lost under a chaos run.
schema="${SCHEMA_BASE}_stop"
"$RB" pg chaos --quick --db "$via" --schema "$schema" --retry-ms 2000 >"$TMP/stop.out" 2>"$TMP/stop.err" &
pid=$!
PIDS+=("$pid")
for _ in $(seq 300); do [[ $(procs "$schema" | wc -l) -ge 5 ]] && break; sleep 0.1; done # driver + 4 workers
sleep 2
kill -KILL "$proxy"
finished "$pid" 40
expect_eq "stop: exit code" "$RC" 1
[[ $(wc -l <"$TMP/stop.err") == 1 && $(cat "$TMP/stop.err") == "ringbench pg chaos: lost the server for more than --retry-ms 2000: "* ]] ||
    fail "stop: expected one 'lost the server' line, got: $(cat "$TMP/stop.err")"
none_left "$schema"

# (c2) a worker whose server is lost for good gives up --retry-ms after the loss, not once per
# attempt or per session: it reconnected for --retry-ms, gave up, then spent up to another
# --retry-ms trying to leave (fresh user, helper-71: 19 s at the default 10 s), and the keeper
# thread's companion session, first failing at its next heartbeat, opened a window of its own
# that the worker's end waited out (the sanitizer build: 39 s at 20000). The proxy dies just
# after a heartbeat (--heartbeat-ms 4000): the companion fails 4 s after the main session. A
# worker's sessions share one window now: the end within 8 s (before: 4 + 5 s at least).
start_proxy proxy2
proxy2=$PROXY via2=$VIA
use_schema lost
"$RB" pg migrate >/dev/null
"$RB" pg worker --db "$via2" --retry-ms 5000 --heartbeat-ms 4000 --ttl-ms 30000 --duration-ms 90000 --poll-ms 20 >"$TMP/lost.out" 2>"$TMP/lost.err" &
pid=$!
PIDS+=("$pid")
wait_for 10 "SELECT count(*) = 1 FROM workers WHERE status = 'alive'"
seen=$(q "SELECT last_seen_at FROM workers")
wait_for 10 "SELECT last_seen_at > '$seen' FROM workers" # the keeper's first heartbeat
kill -KILL "$proxy2"
SECONDS=0
finished "$pid" 8
expect_eq "lost server: worker exit code ($(tail -1 "$TMP/lost.err"))" "$RC" 1
note "lost server: the worker gave up ${SECONDS} s after the loss (--retry-ms 5000)"

# frozen_worker NAME ROWS [WORKER OPTIONS] — a worker of a fresh schema NAME behind a proxy of its
# own (PROXY, VIA), ROWS rows queued: PID
frozen_worker() {
    start_proxy "proxy_$1"
    use_schema "$1"
    "$RB" pg migrate >/dev/null
    if (($2)); then seq 1 "$2" | sed 's/^/k:/' | "$RB" pg enqueue >/dev/null; fi
    "$RB" pg worker --db "$VIA" --retry-ms 2000 --duration-ms 60000 "${@:3}" >"$TMP/$1.out" 2>"$TMP/$1.err" &
    pid=$!
    PIDS+=("$pid")
}
# stop_frozen NAME — SIGTERM to the worker behind the frozen proxy: it ends within 10 s, exit 1,
# one line saying why (RC, $TMP/NAME.err); then the proxy dies
stop_frozen() {
    kill -TERM "$pid"
    finished "$pid" 10
    kill -KILL "$PROXY" 2>/dev/null || true # (a stopped process dies of SIGKILL at once)
    expect_eq "$1: exit code ($(tail -1 "$TMP/$1.err"))" "$RC" 1
}

# (c3) a server that stops answering mid-statement (a frozen proxy: its kernel still takes the
# bytes, nothing comes back): SIGTERM ends the worker (it was held past SIGTERM until the proxy
# woke: libpq's wait for the answer, and the stop handler's cancel request waiting on the same
# proxy; fresh user, helper-72). The statement's cancel goes from a thread, the wait watches the
# stop, and after max(--retry-ms, 3 s) the session is given up. A lock on inbox holds one of the
# worker's statements on the wire when the proxy freezes (without it, a freeze between two
# statements was the case below).
frozen_worker frozen 3000 --lease-ms 2000 --work-ms 3 --batch 8
wait_for 10 "SELECT count(*) > 0 FROM inbox_all WHERE status = 'done'"
hold_open lock 4 "LOCK TABLE inbox IN EXCLUSIVE MODE"
wait_for 10 "SELECT count(*) > 0 FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE NOT l.granted AND l.relation = 'inbox'::regclass AND a.application_name = 'ringbench'"
kill -STOP "$PROXY"
stop_frozen frozen
grep -q "no answer from the server 3000 ms after the stop: session closed" "$TMP/frozen.err" ||
    fail "frozen server: $(tail -2 "$TMP/frozen.err")"
# nothing lost or done twice: another worker drains the rest (the frozen one's leases expire)
"$RB" pg worker --duration-ms 8000 --poll-ms 20 >/dev/null 2>&1 || fail "drain after the frozen server"
expect_eq "frozen server: effects, none twice" "$(q "SELECT count(*) || '/' || count(DISTINCT idempotency_key) FROM effects")" "3000/3000"

# (c4) the server freezes between statements, the worker idle (its poll sleep is long): SIGTERM
# ends the sleep (it ended only when the sleep did), the leave gets no answer: exit 1 "could not
# leave", the worker still alive in the membership. It said "stop signal: leaving" and exited 0
# (the leave went out from rb_queue_close, which cannot report; a sanitizer run of (c3)).
# (c5) the same with the server lost (the proxy killed): the leave cannot reconnect. (Heartbeats
# every 5 s: none is on the wire at the freeze.)
for c in idle_frozen idle_lost; do
    frozen_worker "$c" 0 --poll-ms 30000 --heartbeat-ms 5000 --ttl-ms 30000 --lease-ms 30000
    wait_for 10 "SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'ringbench' AND state = 'idle' AND query LIKE '-- claim_%'"
    if [[ $c == idle_frozen ]]; then kill -STOP "$PROXY"; else kill -KILL "$PROXY"; fi
    SECONDS=0
    stop_frozen "$c"
    ((SECONDS < 8)) || fail "$c: ended ${SECONDS} s after SIGTERM (its poll sleep is 30 s; the leave's grace 3 s)"
    grep -q "could not leave the membership (its TTL, 30000 ms, ends it)" "$TMP/$c.err" ||
        fail "$c: $(tail -2 "$TMP/$c.err")"
    expect_eq "$c: still a member" "$(q "SELECT status FROM workers")" alive
done

# (d) a worker waiting for the unreachable server (--retry-ms 60000) stops at SIGTERM.
use_schema worker
"$RB" pg worker --db "$via" --schema "${SCHEMA_BASE}_worker" --until-empty --retry-ms 60000 >"$TMP/worker.out" 2>"$TMP/worker.err" &
pid=$!
PIDS+=("$pid")
sleep 1
kill -TERM "$pid"
finished "$pid" 10
expect_eq "worker: exit code (128 + SIGTERM)" "$RC" 143
grep -q "gave up: interrupted" "$TMP/worker.err" || fail "worker: stderr lacks 'gave up: interrupted': $(cat "$TMP/worker.err")"
# ... and so do pg chaos (SIGINT) and pg enqueue (SIGTERM), with 128 + the signal, as their
# help says, and one line (they exited 1: fresh user, helper-69)
# ... and the commands without a stop of their own (status, migrate, explain, retry), which
# died silently by the signal (fresh user, helper-70)
for c in chaos enqueue status migrate explain retry; do
    sig=INT want=130
    [[ $c == enqueue || $c == migrate || $c == retry ]] && sig=TERM want=143
    printf 'k:1\tp1\n' >"$TMP/one.tsv"
    args=(--db "host=$TMP/nowhere port=1" --retry-ms 60000)
    [[ $c == enqueue ]] && args+=("$TMP/one.tsv")
    [[ $c == retry ]] && args+=(5)
    "$RB" pg "$c" "${args[@]}" >"$TMP/$c.out" 2>"$TMP/$c.err" &
    pid=$!
    PIDS+=("$pid")
    sleep 1
    kill "-$sig" "$pid"
    finished "$pid" 10
    expect_eq "$c waiting for the server, SIG$sig: exit code" "$RC" "$want"
    if [[ $(wc -l <"$TMP/$c.err") != 1 ]] || ! grep -q "gave up: interrupted" "$TMP/$c.err"; then
        fail "$c: expected one line with 'gave up: interrupted', got: $(cat "$TMP/$c.err")"
    fi
done

# (f) A server that accepts the connection and never answers (a hung backend, a proxy before a
# dead server), no connect_timeout: libpq's blocking connect held every command past SIGINT and
# SIGTERM until SIGKILL (fresh user, helper-70). Each stops within 10 s of the signal, exit 128 +
# the signal, one line; with connect_timeout=2, pg bench gives up after it (exit 1).
python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
held = []
while True: held.append(s.accept()[0])' "$TMP/silent.port" &
PIDS+=("$!")
for _ in $(seq 100); do [[ -s $TMP/silent.port ]] && break; sleep 0.1; done
silent="host=127.0.0.1 port=$(cat "$TMP/silent.port")"
for c in worker enqueue chaos bench; do
    for sig in INT TERM; do
        want=$((128 + $([[ $sig == INT ]] && echo 2 || echo 15)))
        args=(--db "$silent")
        case $c in
        worker) args+=(--until-empty) ;;
        enqueue) args+=("$TMP/one.tsv") ;;
        bench) args=(--batch none --chain-workers none --no-scale --no-crash --backlog 1k --out "$TMP/silent-$sig") ;;
        esac
        RINGBENCH_PG_CONNINFO=$silent "$RB" pg "$c" "${args[@]}" >"$TMP/s$c.out" 2>"$TMP/s$c.err" &
        pid=$!
        PIDS+=("$pid")
        sleep 1
        kill "-$sig" "$pid"
        finished "$pid" 10
        expect_eq "$c before a silent server, SIG$sig: exit code ($(cat "$TMP/s$c.err"))" "$RC" "$want"
        [[ $(wc -l <"$TMP/s$c.err") == 1 ]] || fail "$c before a silent server: expected one line, got: $(cat "$TMP/s$c.err")"
    done
done
SECONDS=0
rc=0
RINGBENCH_PG_CONNINFO="$silent connect_timeout=2" "$RB" pg bench --batch none --chain-workers none \
    --no-scale --no-crash --backlog 1k --out "$TMP/silent-t" >/dev/null 2>"$TMP/st.err" || rc=$?
expect_eq "bench before a silent server, connect_timeout=2: exit code" "$rc" 1
grep -q "timeout expired" "$TMP/st.err" || fail "bench, connect_timeout=2: $(cat "$TMP/st.err")"
((SECONDS <= 8)) || fail "bench, connect_timeout=2: gave up after $SECONDS s"
echo "PASS [$TEST]"
