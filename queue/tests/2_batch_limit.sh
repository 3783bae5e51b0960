# Scenario 2: a claim never returns more rows than its batch, in every mode, also with the
# planner pushed to other plans (hash/merge joins, seq scans off), with two workers competing.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
for i in $(seq 1 1000); do echo "k:$((i % 37))"; done >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
BATCH=7
for planner in none hashjoin,mergejoin seqscan hashjoin,mergejoin,seqscan nestloop,seqscan; do
    for mode in competing affinity ordered; do
        extra=()
        [[ $planner != none ]] && extra=(--planner-off "$planner")
        for w in a b; do
            bg "$w" worker --mode "$mode" --batch $BATCH --max-claims 3 --heartbeat-ms 100 \
                --ttl-ms 3000 "${extra[@]}"
        done
        wait_ok a
        wait_ok b
        for w in a b; do
            max=$(field "$w" max_claim_rows)
            # Exactly the batch: <= alone also passes when every claim came back empty.
            [[ -n $max && $max -eq $BATCH ]] || fail "mode $mode planner-off $planner worker $w: max rows in one claim '$max', expected $BATCH (rows are pending: a full batch and never more)"
        done
    done
done
# Database side: no worker completed more than max-claims x batch rows in a round.
over=$(q "SELECT count(*) FROM (SELECT worker_id FROM effects GROUP BY worker_id HAVING count(*) > 3 * $BATCH) x")
expect_eq "workers with more than 3 x batch effects" "$over" 0
echo "PASS [$TEST]"
