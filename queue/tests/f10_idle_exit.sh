# Issue 10, kind 10: `pg worker --max-claims N` must be able to end on an empty queue: with
# --idle-ms it stops after that long without a row (exit 0, summary printed); --until-empty
# with --max-claims stops too.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
start=$SECONDS
timeout 20 "$RB" pg worker --max-claims 5 --idle-ms 500 >"$TMP/a.out" 2>"$TMP/a.err" || fail "--max-claims 5 --idle-ms 500 on an empty queue: exit $? ($(tail -2 "$TMP/a.err"))"
(( SECONDS - start <= 8 )) || fail "--idle-ms 500 took $((SECONDS - start)) s"
expect_eq "claims of the idle worker" "$(field a claims)" 0
grep -q "idle for 500 ms" "$TMP/a.err" || fail "no idle event: $(cat "$TMP/a.err")"
timeout 20 "$RB" pg worker --max-claims 5 --until-empty >"$TMP/b.out" 2>"$TMP/b.err" || fail "--max-claims 5 --until-empty on an empty queue: exit $?"
# Rows, then idle: it drains 3 rows and stops.
printf 'x\ny\nz\n' | "$RB" pg enqueue >/dev/null
timeout 20 "$RB" pg worker --max-claims 50 --idle-ms 400 >"$TMP/c.out" 2>"$TMP/c.err" || fail "drain then idle: exit $?"
expect_eq "rows completed before going idle" "$(field c completed)" 3
echo "PASS [$TEST]"
