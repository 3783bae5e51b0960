# Issue 10, kind 4: attempts count handler starts, not claims. Rows poison, innocent:1..3,
# batch 4, max attempts 2; a worker exits right after claiming, twice (no handler ran): the
# rows are not failed; a third worker completes all 4 with attempts = 1 (its start) and
# claims = 3. Variant: a crash loop still ends: with --max-row-claims 2, two claims by workers
# that died make the rows dead letters ("claimed 2 times by workers that died"). Variant: a real
# poison row whose handler kills its worker (--crash-on poison, first in every batch): its
# starts are recorded before it runs, so it fails for good after 2 attempts and the innocent
# rows claimed beside it complete. The poison row is first in every batch because a batch comes
# in id order, whatever the statement's plan returns: in poison_moved its row version is
# rewritten after the innocents' (a scan in physical order returns it last), and the innocents
# must still not start before it. In poison_mid the poison row is third of four (innocent rows
# before it run first): once re-claimed, a row whose handler succeeded is completed at once, so
# the innocent rows before it complete (done/1) instead of running out of attempts beside it
# (before: innocent:1, innocent:2 failed/2 with it).
source "$(dirname "$0")/lib.sh"
W=(--batch 4 --max-attempts 2 --lease-ms 300 --ttl-ms 900 --heartbeat-ms 300 --poll-ms 10)
for s in main cap poison poison_moved; do
    use_schema $s
    "$RB" pg migrate >/dev/null
    printf 'poison\ninnocent:1\ninnocent:2\ninnocent:3\n' | "$RB" pg enqueue >/dev/null
done
use_schema poison_mid
"$RB" pg migrate >/dev/null
printf 'innocent:1\ninnocent:2\npoison\ninnocent:3\n' | "$RB" pg enqueue >/dev/null
use_schema poison_moved
q "UPDATE inbox SET payload = payload WHERE partition_key = 'poison'" >/dev/null
expect_eq "poison_moved: the poison row's version is after the innocents'" \
    "$(q "SELECT string_agg(partition_key, ',' ORDER BY ctid) FROM inbox")" "innocent:1,innocent:2,innocent:3,poison"
use_schema main
for i in 1 2; do
    "$RB" pg worker "${W[@]}" --exit-after-claim --max-claims 1 >"$TMP/x$i.out" 2>"$TMP/x$i.err" || fail "crashing worker $i: $(tail -2 "$TMP/x$i.err")"
    wait_for 10 "SELECT count(*) = 4 FROM inbox_all WHERE status = 'claimed' AND lease_expires_at < now()"
done
"$RB" pg worker "${W[@]}" --until-empty >"$TMP/c.out" 2>"$TMP/c.err" || fail "worker: $(tail -2 "$TMP/c.err")"
expect_eq "rows by status" "$(q "SELECT string_agg(status || '=' || n, ',' ORDER BY status) FROM (SELECT status, count(*) n FROM inbox_all GROUP BY status) s")" "done=4"
expect_eq "attempts (handler starts) per row" "$(q "SELECT string_agg(DISTINCT attempts::text, ',') FROM inbox_all")" 1
expect_eq "claims per row" "$(q "SELECT string_agg(DISTINCT claims::text, ',') FROM inbox_all")" 3

use_schema cap
for i in 1 2; do
    "$RB" pg worker "${W[@]}" --max-row-claims 2 --exit-after-claim --max-claims 1 >"$TMP/y$i.out" 2>"$TMP/y$i.err" || fail "crashing worker $i: $(tail -2 "$TMP/y$i.err")"
    wait_for 10 "SELECT count(*) = 4 FROM inbox_all WHERE status = 'claimed' AND lease_expires_at < now()"
done
"$RB" pg worker "${W[@]}" --max-row-claims 2 --until-empty >"$TMP/d.out" 2>"$TMP/d.err" || fail "worker: $(tail -2 "$TMP/d.err")"
expect_eq "crash loop ends: dead letters" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'failed' AND attempts = 0 AND last_error LIKE '%claimed 2 times by workers that died%'")" 4

for s in poison poison_moved poison_mid; do
    use_schema $s
    for i in 1 2 3 4 5 6; do
        rc=0
        "$RB" pg worker "${W[@]}" --crash-on poison --until-empty >"$TMP/p$s$i.out" 2>"$TMP/p$s$i.err" || rc=$?
        if [[ $rc == 0 ]]; then
            # its housekeeping failed the poison row for good: the summary counts it
            expect_eq "$s: the last run's dead_lettered" "$(grep -o 'dead_lettered=[0-9]*' "$TMP/p$s$i.out")" dead_lettered=1
            break
        fi
        [[ $rc == 137 ]] || fail "$s run $i: exit $rc, expected 137 (SIGKILL) or 0: $(tail -2 "$TMP/p$s$i.err")"
    done
    want="poison=failed/2,innocent:1=done/1,innocent:2=done/1,innocent:3=done/1"
    [[ $s == poison_mid ]] && want="innocent:1=done/1,innocent:2=done/1,poison=failed/2,innocent:3=done/1"
    expect_eq "$s runs: rows" "$(q "SELECT string_agg(partition_key || '=' || status || '/' || attempts, ',' ORDER BY id) FROM inbox_all")" "$want"
done
# Ordered mode (batch 4): a re-claimed row is completed at once with the rows before it in its batch,
# never before them: k:2 claimed once before (claims 1, pending again) between k:1 and k:3 on
# their first claim; the effects come in id order (a00d271 completed k:2 alone, first).
use_schema ordered_reclaimed
"$RB" pg migrate >/dev/null
printf 'k\tk:1\nk\tk:2\nk\tk:3\n' | "$RB" pg enqueue >/dev/null
q "UPDATE inbox SET claims = 1 WHERE idempotency_key = 'k:2'" >/dev/null
"$RB" pg worker "${W[@]}" --mode ordered --until-empty >"$TMP/o.out" 2>"$TMP/o.err" || fail "ordered worker: $(tail -2 "$TMP/o.err")"
expect_eq "ordered: effects in id order" "$(q "SELECT string_agg(i.idempotency_key, ',' ORDER BY e.seq) FROM effects e JOIN inbox_all i ON i.id = e.inbox_id")" "k:1,k:2,k:3"
echo "PASS [$TEST]"
