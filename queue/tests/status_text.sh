# pg status prints keys and errors from the database: its human output escapes control bytes
# (a fresh user saw a raw CR: a key "k<CR>X" printed as "X" over the start of its row), and its
# json keeps them escaped as JSON does (\r, \u0007). (Error lines: verify/prop_cli.sh.)
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key, state, attempts, last_error, failed_at)
   VALUES (E'key\rX', 0, E'idem\n1', 'failed', 1, E'boom\r\n\tthen\x07', now())" >/dev/null
"$RB" pg status --dead-letters >"$TMP/text" || fail "pg status --dead-letters: exit $?"
grep -q $'\r' "$TMP/text" && fail "status --dead-letters printed a raw CR: $(od -c "$TMP/text" | head -5)"
grep -q $'\a' "$TMP/text" && fail "status --dead-letters printed a raw BEL"
expect_eq "lines of status --dead-letters (header, one row)" "$(wc -l <"$TMP/text")" 2
row=$(tail -1 "$TMP/text")
grep -qF 'key\rX' <<<"$row" || fail "the key is not shown escaped as key\\rX: '$row'"
grep -qF 'idem\n1' <<<"$row" || fail "the idempotency key is not shown escaped as idem\\n1: '$row'"
grep -qF 'boom\r\n\tthen\x07' <<<"$row" || fail "the last error is not shown escaped: '$row'"
"$RB" pg status --dead-letters --format json >"$TMP/json" || fail "pg status --dead-letters --format json: exit $?"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))[0]; sys.exit(r["partition_key"] != "key\rX" or r["last_error"] != "boom\r\n\tthen\x07")' "$TMP/json" ||
    fail "json does not decode to the stored key and error: $(cat "$TMP/json")"
grep -q $'\r' "$TMP/json" && fail "json holds a raw CR"
echo "PASS [$TEST]"
