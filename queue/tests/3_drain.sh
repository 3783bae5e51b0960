# Scenario 3: W worker processes drain R rows: every row completed exactly once, every effect
# exactly once. Competing consumers (W=4) and bucket affinity (W=3), each in its own schema.
source "$(dirname "$0")/lib.sh"
R=2000
for i in $(seq 1 $R); do echo "cust:$((i % 211))"; done >"$TMP/keys"
for run in competing:4 affinity:3; do
    mode=${run%:*} W=${run#*:}
    use_schema "$mode"
    "$RB" pg migrate >/dev/null
    "$RB" pg enqueue "$TMP/keys" >/dev/null
    for w in $(seq 1 "$W"); do
        bg "w$w" worker --mode "$mode" --batch 10 --heartbeat-ms 100 --ttl-ms 2000 --lease-ms 5000 --until-empty
    done
    total=0
    for w in $(seq 1 "$W"); do
        wait_ok "w$w"
        total=$((total + $(field "w$w" completed)))
    done
    expect_eq "$mode: rows done" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" $R
    expect_eq "$mode: effects" "$(q "SELECT count(*) FROM effects")" $R
    expect_eq "$mode: distinct rows with an effect" "$(q "SELECT count(DISTINCT inbox_id) FROM effects")" $R
    expect_eq "$mode: rows claimed more than once" "$(q "SELECT count(*) FROM inbox_all WHERE lease_generation <> 1")" 0
    expect_eq "$mode: completions reported by the workers" "$total" $R
done
echo "PASS [$TEST]"
