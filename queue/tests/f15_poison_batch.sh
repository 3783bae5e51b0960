# A kind found by a fresh user: a poison row (its handler kills its worker, --crash-on) took the
# rows behind it in its batch down at every claim, and every such claim counted toward their
# --max-row-claims, so with several poison rows in one batch the innocent rows became dead
# letters without ever running (two poison rows in a batch of 8 at --max-attempts 1; three at
# the defaults). Two mechanisms, one case each:
# - the claim cap forgives a death explained by a batch-mate: a row is not failed for its
#   claims when its lease's worker died while another row of the batch was in its handler
#   (started under that lease, unfinished; housekeep.sql). two_poisons: two poison rows among
#   six innocent ones, batch 8, --max-attempts 1 (cap 3): every innocent row done.
# - suspects last: a row whose handler started under an earlier lease and never finished comes
#   back from the claim marked (claim_lease.sql), and the worker loop runs it after the batch's
#   other rows. three_poisons (competing, and affinity): three poison rows, --max-attempts 2;
#   every innocent row is done before the first poison row runs out of attempts (without it,
#   each poison row's second start killed the worker again before the rows behind it ran).
# - ordered mode: a suspect is deferred with the later rows of its key, and the other keys'
#   rows run first; every key's effects in id order, the poison key's second row held behind
#   its failed head.
# - fresh_beside: the rows run before a suspect are completed before it starts, so a poison row
#   that kills the worker does not make them run twice.
# - two_suspects (ordered): a suspect's key run follows it directly, not behind a later
#   suspect of another key.
# - a handler that fails (no crash) clears the mark: a re-claimed row that failed once is not
#   reported as a suspect at its next claim.
source "$(dirname "$0")/lib.sh"
W=(--batch 8 --lease-ms 300 --ttl-ms 900 --heartbeat-ms 300 --poll-ms 10)

# setup SCHEMA LINES: a migrated schema holding the rows of LINES (pg enqueue input)
setup() {
    use_schema "$1"
    "$RB" pg migrate >/dev/null
    printf '%b' "$2" | "$RB" pg enqueue >/dev/null
}

# innocent_state: the innocent rows (keys not 'poison') as key=status, in id order
innocent_state() {
    q "SELECT string_agg(idempotency_key || '=' || status, ',' ORDER BY id) FROM inbox_all WHERE partition_key <> 'poison'"
}

# crash_loop CASE ARGS...: run `pg worker --crash-on poison --until-empty ARGS` until it exits 0
# (at most 14 runs), each run but the last killed by a poison row (exit 137). With
# STRICT_ORDER=1, after every run: once any poison row has failed for good, every innocent row
# must be done (they ran before the poison row's crash loop ended). With SOLE=1, each run
# starts once the killed workers' heartbeats have expired (their TTL), so it owns every bucket:
# an affinity worker that starts beside a killed member still counted live owns only part of
# the ring, and the innocent rows in the killed member's buckets wait unclaimed, correctly,
# while the poison rows may run out of attempts (a CI run saw i:4 pending so).
crash_loop() {
    local name=$1 rc i
    shift
    for i in $(seq 1 14); do
        rc=0
        [[ ${SOLE:-0} == 1 ]] && wait_for 5 "SELECT count(*) = 0 FROM workers WHERE status = 'alive' AND last_seen_at > now() - ttl_ms * interval '1 millisecond'"
        "$RB" pg worker "${W[@]}" --crash-on poison --until-empty "$@" >"$TMP/$name$i.out" 2>"$TMP/$name$i.err" || rc=$?
        if [[ ${STRICT_ORDER:-0} == 1 && $(q "SELECT count(*) > 0 FROM inbox_all WHERE partition_key = 'poison' AND status = 'failed'") == t ]]; then
            [[ $(q "SELECT count(*) FROM inbox_all WHERE partition_key <> 'poison' AND status <> 'done'") == 0 ]] ||
                fail "$name run $i: a poison row failed for good before the innocent rows ran: $(innocent_state)"
        fi
        [[ $rc == 0 ]] && return 0
        [[ $rc == 137 ]] || fail "$name run $i: exit $rc, expected 137 (SIGKILL) or 0: $(tail -2 "$TMP/$name$i.err")"
    done
    fail "$name: still crashing after 14 runs: $(innocent_state)"
}

rows8='i:1\ti:1\npoison\tpoison:1\ni:2\ti:2\ni:3\ti:3\npoison\tpoison:2\ni:4\ti:4\ni:5\ti:5\ni:6\ti:6\n'
setup two_poisons "$rows8"
crash_loop two_poisons --max-attempts 1
expect_eq "two_poisons: innocent rows" "$(innocent_state)" "i:1=done,i:2=done,i:3=done,i:4=done,i:5=done,i:6=done"
expect_eq "two_poisons: poison rows" "$(q "SELECT string_agg(idempotency_key || '=' || status || '/' || attempts, ',' ORDER BY id) FROM inbox_all WHERE partition_key = 'poison'")" "poison:1=failed/1,poison:2=failed/1"

rows3='i:1\ti:1\npoison\tpoison:1\ni:2\ti:2\npoison\tpoison:2\ni:3\ti:3\npoison\tpoison:3\ni:4\ti:4\ni:5\ti:5\n'
for mode in competing affinity; do
    setup "three_$mode" "$rows3"
    scan=() sole=0
    [[ $mode == affinity ]] && scan=(--claim-scan walk) sole=1 # the walk over the owned buckets
    SOLE=$sole STRICT_ORDER=1 crash_loop "three_$mode" --mode "$mode" "${scan[@]}" --max-attempts 2
    expect_eq "three_poisons $mode: innocent rows" "$(innocent_state)" "i:1=done,i:2=done,i:3=done,i:4=done,i:5=done"
    expect_eq "three_poisons $mode: poison rows" "$(q "SELECT string_agg(status || '/' || attempts, ',' ORDER BY id) FROM inbox_all WHERE partition_key = 'poison'")" "failed/2,failed/2,failed/2"
    grep -q "are suspects" "$TMP"/three_"$mode"*.err || fail "three_poisons $mode: no batch reported suspects"
done

# ordered mode alone owns every bucket: its claim is the window over the whole queue
# (claim_window.sql); with --claim-scan walk, the runs over the owned buckets (claim_run.sql)
for scan in window walk; do
    scan_opt=()
    [[ $scan == walk ]] && scan_opt=(--claim-scan walk)
    setup "ordered_$scan" 'a\ta:1\npoison\tpoison:1\na\ta:2\npoison\tpoison:2\nb\tb:1\na\ta:3\n'
    SOLE=1 STRICT_ORDER=1 crash_loop "ordered_$scan" --mode ordered "${scan_opt[@]}" --max-attempts 2
    expect_eq "ordered $scan: rows" "$(q "SELECT string_agg(idempotency_key || '=' || status, ',' ORDER BY id) FROM inbox_all")" \
        "a:1=done,poison:1=failed,a:2=done,poison:2=pending,b:1=done,a:3=done"
    expect_eq "ordered $scan: effects in order" "$(q "SELECT string_agg(i.idempotency_key, ',' ORDER BY e.seq) FROM effects e JOIN inbox_all i ON i.id = e.inbox_id WHERE i.partition_key = 'a'")" "a:1,a:2,a:3"
    expect_eq "ordered $scan: poison:2 never ran" "$(q "SELECT attempts FROM inbox_all WHERE idempotency_key = 'poison:2'")" 0
done

# a suspect runs after the rows claimed beside it for the first time, and those are completed
# before it starts: poison (started before, so a suspect) then f:1..3; the poison row kills the
# worker at its start, and f:1..3 must be done with one claim (a fresh user: they were rolled
# back with the worker and claimed and run again)
setup fresh_beside 'poison\tpoison:1\nf:1\tf:1\nf:2\tf:2\nf:3\tf:3\n'
q "UPDATE inbox SET claims = 1, attempts = 1, started_generation = 0 WHERE partition_key = 'poison'" >/dev/null
crash_loop fresh_beside --max-attempts 2
expect_eq "fresh_beside: rows (status/claims)" "$(q "SELECT string_agg(idempotency_key || '=' || status || '/' || claims, ',' ORDER BY id) FROM inbox_all")" \
    "poison:1=failed/2,f:1=done/1,f:2=done/1,f:3=done/1"

# ordered mode, two suspects: k1-1 (not poison) and poison-1 after it; k1's fresh rows run right
# behind k1-1, before poison-1 (a fresh user: they waited behind it, were rolled back with the
# worker and claimed twice)
setup two_suspects 'k1\tk1-1\npoison\tpoison-1\nk1\tk1-2\nk1\tk1-3\nk2\tk2-1\n'
q "UPDATE inbox SET claims = 1, attempts = 1, started_generation = 0 WHERE idempotency_key IN ('k1-1', 'poison-1')" >/dev/null
crash_loop two_suspects --mode ordered --max-attempts 2
expect_eq "two_suspects: rows (status/claims)" "$(q "SELECT string_agg(idempotency_key || '=' || status || '/' || claims, ',' ORDER BY id) FROM inbox_all")" \
    "k1-1=done/2,poison-1=failed/2,k1-2=done/1,k1-3=done/1,k2-1=done/1"
expect_eq "two_suspects: k1's effects in order" "$(q "SELECT string_agg(i.idempotency_key, ',' ORDER BY e.seq) FROM effects e JOIN inbox_all i ON i.id = e.inbox_id WHERE i.partition_key = 'k1'")" "k1-1,k1-2,k1-3"

# a failure is not a crash: rows claimed before (claims 1, so their starts are recorded) fail
# once (--fail-pct 100 --fail-attempts 1) and then complete; no claim reports a suspect
setup failed_once 'f:1\tf:1\nf:2\tf:2\nf:3\tf:3\n'
q "UPDATE inbox SET claims = 1" >/dev/null
"$RB" pg worker "${W[@]}" --fail-pct 100 --fail-attempts 1 --backoff-base-ms 1 --backoff-cap-ms 1 --until-empty \
    >"$TMP/f.out" 2>"$TMP/f.err" || fail "failed_once worker: $(tail -2 "$TMP/f.err")"
expect_eq "failed_once: rows" "$(q "SELECT string_agg(status || '/' || attempts, ',' ORDER BY id) FROM inbox_all")" "done/2,done/2,done/2"
if grep -q "are suspects" "$TMP/f.err"; then fail "failed_once: a row that failed was reported as a suspect: $(grep 'are suspects' "$TMP/f.err" | head -1)"; fi
echo "PASS [$TEST]"
