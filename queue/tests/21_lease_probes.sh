# Scenario 21 (issue 11, target 6): a worker's statements reach inbox_leases by key, never by
# reading it through. inbox_leases holds the W x batch live lease rows among the dead ones of
# every lease ended since the last vacuum, so its statistics say "tiny" and the generic plan of
# the completions' lease delete (parts/complete_move.sql, `DELETE ... USING done`) was a
# nested loop over a sequential scan: every page of the table read for every batch done. In
# the soak (10,000 rows/s, 356 pages between vacuums) the work per row grew from 91 to
# 130-191 buffers as the table's pages did. Worker sessions now plan without sequential scans
# where an index reaches the rows (queue.c, WORKER_NO_SEQSCAN). Observed from outside the
# library: the sequential scans of inbox_leases counted by the server
# (pg_stat_user_tables.seq_scan) while workers of each mode drain 2,400 rows at batch 8 (300
# batch completions, their claims, extends and housekeeping rounds) must stay at most 3 (seen
# 1 per mode; with the setting removed, one per batch or more). And the completions' lease deletes
# still delete: no lease row is left once the rows are done.
source "$(dirname "$0")/lib.sh"
for i in $(seq 1 2400); do echo "key$((i % 240))"; done >"$TMP/keys"
# seq_scans — the sequential scans of this schema's inbox_leases so far (a backend's counts
# reach the view when it exits: read after the workers are gone)
seq_scans() { q "SELECT seq_scan FROM pg_stat_user_tables WHERE relid = 'inbox_leases'::regclass"; }
# drain MODE WORKERS — WORKERS workers of MODE drain the 2,400 rows in a schema of their own
drain() {
    local mode=$1 n=$2 before after
    use_schema "$mode$n"
    "$RB" pg migrate >/dev/null
    "$RB" pg enqueue "$TMP/keys" >/dev/null
    # the statistics autovacuum leaves between bursts in a running queue: a few live rows, a
    # few pages (here none), which the generic plans are made from
    q "VACUUM ANALYZE inbox_leases" >/dev/null
    before=$(seq_scans)
    for w in $(seq 1 "$n"); do
        bg "$mode$w" worker --id "$mode$w" --mode "$mode" --batch 8 --poll-ms 10 --heartbeat-ms 100 --until-empty
    done
    for w in $(seq 1 "$n"); do wait_ok "$mode$w"; done
    expect_eq "$mode: rows done" "$(q "SELECT count(*) FROM effects")" 2400
    expect_eq "$mode: lease rows left" "$(q "SELECT count(*) FROM inbox_leases")" 0
    sleep 0.5 # the workers' backends have exited; their counts are flushed as they go
    after=$(seq_scans)
    note "$mode x $n: $((after - before)) sequential scans of inbox_leases"
    ((after - before <= 3)) ||
        fail "$mode x $n: $((after - before)) sequential scans of inbox_leases over 300 batches, expected <= 3 (worker statements probe its keys)"
}
drain competing 2
drain affinity 2
drain ordered 2
echo "PASS [$TEST]: no worker statement read inbox_leases through (every mode, 2 workers, 300 batches)"
