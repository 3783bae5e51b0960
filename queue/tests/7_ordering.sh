# Scenario 7: with the ordering guard, rows sharing a partition key complete in id order under
# concurrency (3 workers, batch 4, 30% of first attempts failing and retried). The same run with
# affinity alone shows out-of-order completions: affinity is not FIFO.
source "$(dirname "$0")/lib.sh"
for _ in 1 2 3 4 5; do for k in $(seq 1 40); do echo "acct:$k"; done; done >"$TMP/keys"
inversions() { # completions (effects.seq order) whose row id is lower than an earlier sibling's
    q "SELECT count(*) FROM (SELECT inbox_id, max(inbox_id) OVER (PARTITION BY partition_key ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev FROM effects) x WHERE prev > inbox_id"
}
for mode in ordered affinity; do
    use_schema "$mode"
    "$RB" pg migrate >/dev/null
    "$RB" pg enqueue "$TMP/keys" >/dev/null
    for w in 1 2 3; do
        bg "$mode$w" worker --mode "$mode" --batch 4 --fail-pct 30 --heartbeat-ms 100 --ttl-ms 2000 --lease-ms 5000 --until-empty --poll-ms 10
    done
    for w in 1 2 3; do wait_ok "$mode$w"; done
    expect_eq "$mode: effects" "$(q "SELECT count(*) FROM effects")" 200
    n_inv=$(inversions)
    note "$mode: $n_inv out-of-order completions"
    if [[ $mode == ordered ]]; then
        expect_eq "ordered: out-of-order completions" "$n_inv" 0
    else
        [[ $n_inv -gt 0 ]] || fail "affinity: got 0 out-of-order completions, expected > 0 (retries reorder siblings without the guard)"
    fi
done
echo "PASS [$TEST]"
