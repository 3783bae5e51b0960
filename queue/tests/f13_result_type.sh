# Scenario f13: a column the claim returns changes type under running workers (ALTER TABLE
# inbox ALTER COLUMN payload TYPE varchar, and back). The server then refuses the session's
# prepared claim ("cached plan must not change result type", SQLSTATE 0A000) until it is
# prepared again. Expected: the workers prepare it again and go on; every row done once.
# Variants: a chained worker at batch 1 (the claim fails inside the pipelined transaction,
# whose fallback claims unchained) and a plain one at batch 8; payload and partition_key.
# (A fresh user found both workers exiting 1 on 50021a1.)
source "$(dirname "$0")/lib.sh"
use_schema plan
"$RB" pg migrate >/dev/null
# The view of every row (migration 009) depends on the columns altered below; the queue does
# not use it.
q "DROP VIEW inbox_all" >/dev/null
N=3000
for i in $(seq 1 "$N"); do printf 'acct:%d\tk%d\tpayload %d\n' "$((i % 97))" "$i" "$i"; done >"$TMP/rows"
"$RB" pg enqueue "$TMP/rows" >/dev/null
common=(worker --mode competing --work-ms 1 --heartbeat-ms 200 --until-empty --retry-ms 10000)
bg C "${common[@]}" --id wC --chain --batch 1
bg B "${common[@]}" --id wB --batch 8
wait_for 30 "SELECT count(*) >= 300 FROM inbox_done"
q "ALTER TABLE inbox ALTER COLUMN payload TYPE varchar" >/dev/null
wait_for 30 "SELECT count(*) >= 1200 FROM inbox_done"
q "ALTER TABLE inbox ALTER COLUMN partition_key TYPE varchar(3000)" >/dev/null
wait_for 30 "SELECT count(*) >= 2000 FROM inbox_done"
q "ALTER TABLE inbox ALTER COLUMN payload TYPE text, ALTER COLUMN partition_key TYPE text" >/dev/null
wait_ok C
wait_ok B
expect_eq "rows done" "$(q "SELECT count(*) FROM inbox_done")" "$N"
expect_eq "effects" "$(q "SELECT count(*) FROM effects")" "$N"
expect_eq "duplicate effects" "$(q "SELECT count(*) - count(DISTINCT idempotency_key) FROM effects")" 0
note "both workers went on after 3 type changes: $(field C completed) + $(field B completed) rows"
