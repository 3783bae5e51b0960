# Issue 10, kind 4: attempts count handler starts, not claims. Rows poison, innocent:1..3,
# batch 4, max attempts 2; a worker exits right after claiming, twice (no handler ran): the
# rows are not failed; a third worker completes all 4 with attempts = 1 (its start) and
# claims = 3. Variant: a crash loop still ends: with --max-row-claims 2, two claims by workers
# that died make the rows dead letters ("claimed 2 times by workers that died").
source "$(dirname "$0")/lib.sh"
W=(--batch 4 --max-attempts 2 --lease-ms 300 --ttl-ms 900 --heartbeat-ms 300 --poll-ms 10)
for s in main cap; do
    use_schema $s
    "$RB" pg migrate >/dev/null
    printf 'poison\ninnocent:1\ninnocent:2\ninnocent:3\n' | "$RB" pg enqueue >/dev/null
done
use_schema main
for i in 1 2; do
    "$RB" pg worker "${W[@]}" --exit-after-claim --max-claims 1 >"$TMP/x$i.out" 2>"$TMP/x$i.err" || fail "crashing worker $i: $(tail -2 "$TMP/x$i.err")"
    wait_for 10 "SELECT count(*) = 4 FROM inbox WHERE status = 'claimed' AND lease_expires_at < now()"
done
"$RB" pg worker "${W[@]}" --until-empty >"$TMP/c.out" 2>"$TMP/c.err" || fail "worker: $(tail -2 "$TMP/c.err")"
expect_eq "rows by status" "$(q "SELECT string_agg(status || '=' || n, ',' ORDER BY status) FROM (SELECT status, count(*) n FROM inbox GROUP BY status) s")" "done=4"
expect_eq "attempts (handler starts) per row" "$(q "SELECT string_agg(DISTINCT attempts::text, ',') FROM inbox")" 1
expect_eq "claims per row" "$(q "SELECT string_agg(DISTINCT claims::text, ',') FROM inbox")" 3

use_schema cap
for i in 1 2; do
    "$RB" pg worker "${W[@]}" --max-row-claims 2 --exit-after-claim --max-claims 1 >"$TMP/y$i.out" 2>"$TMP/y$i.err" || fail "crashing worker $i: $(tail -2 "$TMP/y$i.err")"
    wait_for 10 "SELECT count(*) = 4 FROM inbox WHERE status = 'claimed' AND lease_expires_at < now()"
done
"$RB" pg worker "${W[@]}" --max-row-claims 2 --until-empty >"$TMP/d.out" 2>"$TMP/d.err" || fail "worker: $(tail -2 "$TMP/d.err")"
expect_eq "crash loop ends: dead letters" "$(q "SELECT count(*) FROM inbox WHERE status = 'failed' AND attempts = 0 AND last_error LIKE '%claimed 2 times by workers that died%'")" 4
echo "PASS [$TEST]"
