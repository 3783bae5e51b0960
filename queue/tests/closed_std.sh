# A closed standard descriptor (`>&-`, `2>&-`) must not become the Postgres connection: libpq's
# socket took the lowest free number, so `pg status --format json >&-` wrote its JSON into the
# session and exited 0, and a worker with stderr closed wrote its log lines into it and broke
# the session (a fresh user found both). Expected: a closed stdout is a write error (exit 1,
# one line naming the subcommand), and a worker with stderr closed drains cleanly.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
for i in $(seq 1 40); do echo "cust:$i"; done >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
rc=0
"$RB" pg status --format json >&- 2>"$TMP/status.err" || rc=$?
expect_eq "pg status --format json >&-: exit" "$rc" 1
expect_eq "pg status >&-: lines on stderr" "$(wc -l <"$TMP/status.err")" 1
grep -q '^ringbench pg status: writing output: ' "$TMP/status.err" ||
    fail "pg status >&-: '$(cat "$TMP/status.err")' is not 'ringbench pg status: writing output: ...'"
# a closed stdin is a read error that says why (it said only "cannot read 'stdin'")
rc=0
"$RB" pg enqueue - <&- >/dev/null 2>"$TMP/enq.err" || rc=$?
expect_eq "pg enqueue - <&-: exit" "$rc" 1
grep -q "^ringbench pg enqueue: cannot read 'stdin': Bad file descriptor$" "$TMP/enq.err" ||
    fail "pg enqueue - <&-: '$(cat "$TMP/enq.err")' gives no reason"
# the worker's log lines (stderr) go nowhere; its summary (stdout) says no session broke
"$RB" pg worker --mode competing --batch 8 --until-empty --heartbeat-ms 100 --ttl-ms 2000 \
    --lease-ms 5000 2>&- >"$TMP/worker.out" || fail "pg worker 2>&-: exit $?"
grep -q 'reconnects=0' "$TMP/worker.out" || fail "pg worker 2>&-: a session broke: $(cat "$TMP/worker.out")"
expect_eq "rows done by the worker with stderr closed" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" 40
echo "PASS [$TEST]"
