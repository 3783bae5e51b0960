# Issue 10, kind 8: producer input. `ringbench pg enqueue` checks every line before it sends
# anything and sends all rows in one statement, so an input goes in whole or not at all; a bad
# line exits 2 naming it; a key too long for its btree index is refused up front; an empty
# idempotency field is an error, not a duplicate. Plus the format's edge cases.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
rows() { q "SELECT count(*) FROM inbox_all"; }
# rand N — N printable bytes that do not compress (so no TOAST compression saves the index).
rand() { head -c $(($1 * 2)) /dev/urandom | base64 -w0 | cut -c1-"$1"; } # cut reads all: no SIGPIPE
# refused FILE PATTERN — exit 2, one stderr line matching PATTERN, no row written.
refused() {
    local rc=0
    "$RB" pg enqueue "$1" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [[ $rc == 2 ]] || fail "enqueue $(basename "$1"): exit $rc, expected 2 ($(cat "$TMP/err"))"
    [[ $(wc -l <"$TMP/err") == 1 ]] || fail "enqueue $(basename "$1"): expected one stderr line, got: $(cat "$TMP/err")"
    grep -q -- "$2" "$TMP/err" || fail "enqueue $(basename "$1"): stderr '$(cat "$TMP/err")', expected /$2/"
    expect_eq "rows after the refused $(basename "$1")" "$(rows)" 0
}
# A file that cannot be opened: its reason, no row.
refused "$TMP/no-such-file" "cannot open '.*no-such-file': No such file or directory"
# The issue's scenario: 1,500 lines, line 1,200 has a 3,000-byte key. It committed 1,000 rows
# and then failed with the server's raw btree error.
{ seq 1 1199 | sed 's/^/o:/'; rand 3000; echo; seq 1201 1500 | sed 's/^/o:/'; } >"$TMP/long_key"
refused "$TMP/long_key" "long_key line 1200: key of 3000 bytes is longer than 2000 bytes"
# An explicit idempotency key too long for the unique index, likewise.
{ seq 1 5 | sed 's/^/o:/'; printf 'o:6\t%s\n' "$(rand 2001)"; } >"$TMP/long_idem"
refused "$TMP/long_idem" "long_idem line 6: idempotency key of 2001 bytes"
# Empty idempotency field: it made 5 distinct jobs one row plus 4 "duplicates", exit 0.
for i in 1 2 3 4 5; do printf 'order:%d\t\tpayload-%d\n' $i $i; done >"$TMP/empty_idem"
refused "$TMP/empty_idem" "empty_idem line 1: empty idempotency key"
printf 'a\tid-a\n\tid-b\n' >"$TMP/empty_key"
refused "$TMP/empty_key" "empty_key line 2: empty key"
printf 'a\tid-a\nb\t\n' >"$TMP/trailing_tab"
refused "$TMP/trailing_tab" "trailing_tab line 2: empty idempotency key"
# All or nothing also for a failure only the server sees: a trigger refuses one row of 1,500.
q "CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN
     IF NEW.partition_key = 'p:1300' THEN RAISE EXCEPTION 'poison row'; END IF; RETURN NEW; END \$\$;
   CREATE TRIGGER refuse_poison BEFORE INSERT ON inbox FOR EACH ROW EXECUTE FUNCTION refuse_poison()"
seq 1 1500 | sed 's/^/p:/' >"$TMP/poison"
rc=0
"$RB" pg enqueue "$TMP/poison" >"$TMP/out" 2>"$TMP/err" || rc=$?
expect_eq "exit of an enqueue the server refuses" "$rc" 1
grep -q "poison row.*(nothing enqueued)" "$TMP/err" || fail "server error: stderr '$(cat "$TMP/err")'"
expect_eq "rows after a server error on row 1300 of 1500" "$(rows)" 0
q "DROP TRIGGER refuse_poison ON inbox"
# At the limit: a 2,000-byte key (default idempotency key KEY#LINE, 2,002 bytes) and a
# 2,000-byte explicit idempotency key go in.
key=$(rand 2000) idem=$(rand 2000)
printf '%s\n%s\t%s\n' "$key" "o:limit" "$idem" >"$TMP/at_limit"
out=$("$RB" pg enqueue --format csv "$TMP/at_limit") || fail "2000-byte key and idempotency key: exit $?"
expect_eq "at the limit" "$(tail -1 <<<"$out")" "2,2,0"
expect_eq "the 2000-byte key's row" "$(q "SELECT length(partition_key) || ' ' || length(idempotency_key) FROM inbox_all WHERE partition_key = '$key'")" "2000 2002"
q "DELETE FROM inbox" >/dev/null
# CRLF lines: CR dropped from the last field; a line of only CR is blank.
printf 'c:1\r\nc:2\tid-c2\r\n\r\nc:3\tid-c3\tpay\r\n' >"$TMP/crlf"
out=$("$RB" pg enqueue --format csv "$TMP/crlf") || fail "CRLF file: exit $?"
expect_eq "CRLF rows" "$(tail -1 <<<"$out")" "3,3,0"
expect_eq "CRLF fields" "$(q "SELECT string_agg(partition_key || '|' || idempotency_key || '|' || coalesce(payload, '-'), ',' ORDER BY id) FROM inbox_all")" \
    "c:1|c:1#1|-,c:2|id-c2|-,c:3|id-c3|pay"
q "DELETE FROM inbox" >/dev/null
# The payload is the rest of the line: TABs in it (also "too many fields") stay; an empty
# payload is the empty string; a 1 MiB payload goes in whole.
printf 't:1\tid-t1\ta\tb\tc\nt:2\tid-t2\t\n' >"$TMP/tabs"
big=$(head -c 1048576 /dev/zero | tr '\0' 'x')
printf 't:3\tid-t3\t%s\n' "$big" >>"$TMP/tabs"
out=$("$RB" pg enqueue --format csv "$TMP/tabs") || fail "payload with tabs: exit $?"
expect_eq "payload rows" "$(tail -1 <<<"$out")" "3,3,0"
expect_eq "payload with tabs" "$(q "SELECT payload = E'a\\tb\\tc' FROM inbox_all WHERE idempotency_key = 'id-t1'")" t
expect_eq "empty payload" "$(q "SELECT payload = '' FROM inbox_all WHERE idempotency_key = 'id-t2'")" t
expect_eq "1 MiB payload" "$(q "SELECT length(payload) FROM inbox_all WHERE idempotency_key = 'id-t3'")" 1048576
q "DELETE FROM inbox" >/dev/null
# Empty input and input of only blank lines: nothing to do, exit 0.
: >"$TMP/empty"
expect_eq "empty file" "$("$RB" pg enqueue --format csv "$TMP/empty" | tail -1)" "0,0,0"
printf '\n\n\r\n\n' >"$TMP/blank"
expect_eq "blank lines" "$("$RB" pg enqueue --format csv "$TMP/blank" | tail -1)" "0,0,0"
# stdin, as '-' and with no FILE; errors name stdin.
expect_eq "stdin '-'" "$(printf 's:1\ns:2\n' | "$RB" pg enqueue --format csv - | tail -1)" "2,2,0"
expect_eq "stdin (no FILE)" "$(printf 's:3\n' | "$RB" pg enqueue --format csv | tail -1)" "1,1,0"
rc=0
printf 's:4\ns:5\t\tx\n' | "$RB" pg enqueue 2>"$TMP/err" >/dev/null || rc=$?
expect_eq "stdin with a bad line: exit" "$rc" 2
grep -q "stdin line 2: empty idempotency key" "$TMP/err" || fail "stdin error: '$(cat "$TMP/err")'"
expect_eq "rows after the stdin inputs" "$(rows)" 3
echo "PASS [$TEST]"
