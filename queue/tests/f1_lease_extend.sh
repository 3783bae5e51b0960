# Issue 10, kind 1: leases run out during long work. Worker A (batch 4, 400 ms per row, lease
# 1 s, TTL 3 s) works through its batch while a fast peer B housekeeps every 100 ms. A keeps
# (fenced) extending the leases of the rows it still holds, so B never reclaims them and no
# handler runs on a lost lease: handler runs (completed + lost) = rows, every effect at
# lease_generation 1. Variant: one handler (2.5 s) longer than the whole lease (1 s).
source "$(dirname "$0")/lib.sh"
runs() { echo $(( $(field "$1" completed) + $(field "$1" lost) )); }
"$RB" pg migrate >/dev/null
seq 1 8 | sed 's/^/order:/' >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
bg A worker --batch 4 --work-ms 400 --lease-ms 1000 --ttl-ms 3000 --until-empty
wait_for 10 "SELECT count(*) = 4 FROM inbox_all WHERE status = 'claimed'"
bg B worker --batch 4 --lease-ms 1000 --ttl-ms 3000 --heartbeat-ms 100 --poll-ms 10 --until-empty
wait_ok A
wait_ok B
expect_eq "handler runs (completed + lost, A + B) for 8 rows" "$(( $(runs A) + $(runs B) ))" 8
expect_eq "lost completions of A" "$(field A lost)" 0
expect_eq "effects" "$(q "SELECT count(*) FROM effects")" 8
expect_eq "rows reclaimed (lease_generation > 1)" "$(q "SELECT count(*) FROM inbox_all WHERE lease_generation > 1")" 0

use_schema long
"$RB" pg migrate >/dev/null
echo "slow:1" | "$RB" pg enqueue >/dev/null
bg C worker --batch 1 --work-ms 2500 --lease-ms 1000 --ttl-ms 3000 --max-claims 1
wait_for 10 "SELECT count(*) = 1 FROM inbox_all WHERE status = 'claimed'"
bg D worker --lease-ms 1000 --ttl-ms 3000 --heartbeat-ms 100 --poll-ms 10 --duration-ms 3500
wait_ok C
wait_ok D
expect_eq "handler runs of the one slow row" "$(( $(runs C) + $(runs D) ))" 1
expect_eq "slow row done at generation 1" "$(q "SELECT status || ':' || lease_generation FROM inbox_all")" "done:1"
echo "PASS [$TEST]"
