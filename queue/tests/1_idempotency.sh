# Scenario 1: a duplicate idempotency key creates no row, and enqueue says so. Also: buckets are
# the library's (rb_bucket_of, checked against `ringbench owner`) and the CHECK on B holds.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
printf 'order:1\norder:2\norder:3\n' >"$TMP/keys"
out=$("$RB" pg enqueue "$TMP/keys")
[[ $out == "enqueued 3 of 3 rows; 0 duplicate"* ]] || fail "first enqueue: got '$out', expected 3 of 3 inserted"
out=$("$RB" pg enqueue "$TMP/keys")
[[ $out == "enqueued 0 of 3 rows; 3 duplicate idempotency keys skipped"* ]] || fail "second enqueue: got '$out', expected 0 of 3 and 3 duplicates"
expect_eq "rows after two enqueues of the same file" "$(q "SELECT count(*) FROM inbox_all")" 3
printf 'order:9\tpay-1\tfirst\norder:9\tpay-1\tsecond\n' >"$TMP/dup"
out=$("$RB" pg enqueue --format json "$TMP/dup")
expect_eq "explicit duplicate key in one file" "$out" '{"rows": 2, "inserted": 1, "duplicates": 1}'
expect_eq "payload kept is the first" "$(q "SELECT payload FROM inbox_all WHERE idempotency_key = 'pay-1'")" first
# Buckets computed with the library: compare with `ringbench owner` (same hash, seed, B).
for k in order:1 order:2 order:3 order:9; do
    want=$("$RB" owner --algo binary --members x "$k" | cut -f2)
    got=$(q "SELECT DISTINCT partition_bucket FROM inbox_all WHERE partition_key = '$k'")
    expect_eq "partition_bucket of $k" "$got" "$want"
done
# The CHECK constraint: bucket in 0..B-1.
if q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('x', 1024, 'x#1')" 2>/dev/null; then
    fail "bucket 1024 with B = 1024 was accepted, expected the CHECK to reject it"
fi
# Re-running migrate is harmless and keeps the rows.
"$RB" pg migrate >/dev/null
expect_eq "rows after a second migrate" "$(q "SELECT count(*) FROM inbox_all")" 4
echo "PASS [$TEST]"
