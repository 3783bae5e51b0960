#!/bin/sh
# prop_cli.sh BINARY CODES_FILE — exit codes of `verify` and `vnodes`:
# bad input exits 2 with one line on stderr; a changed or missing
# verification code exits 1 naming the algorithm, expected and got.
bin=$1
codes=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# expect CODE PATTERN ARGS...: run BINARY ARGS, check the exit code and that
# stderr matches PATTERN (grep -E).
expect() {
    want=$1 pattern=$2
    shift 2
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -Eq -- "$pattern" "$tmp/err"; then
        echo "FAIL ringbench $*: exit $got (expected $want), stderr:" >&2
        sed 's/^/  /' "$tmp/err" >&2
        echo "  expected stderr matching: $pattern" >&2
        failed=$((failed + 1))
    fi
}

# expect_out PATTERN ARGS...: exit 0 and stdout matching PATTERN (grep -E)
expect_out() {
    pattern=$1
    shift
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne 0 ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
        echo "FAIL ringbench $*: exit $got (expected 0), stdout:" >&2
        head -n 3 "$tmp/out" | sed 's/^/  /' >&2
        echo "  expected stdout matching: $pattern" >&2
        failed=$((failed + 1))
    fi
}

: >"$tmp/empty"
expect 2 "holds no keys" vnodes --members 3..5 --keys "$tmp/empty"
expect 2 "holds no keys" verify --members 3 --keys "$tmp/empty"
expect 2 "cannot open" vnodes --members 3..5 --keys "$tmp/does-not-exist"
expect 2 "larger than B" vnodes --members 3..20 --buckets 16
expect 2 "larger than B" verify --members 2..20 --buckets 16
expect 2 "--vnodes item 1: 0 is out of range \(1\.\.67108864\)" verify --vnodes 0
expect 2 "unknown algorithm" vnodes --members 3..5 --algo nosuch
expect 2 "unknown algorithm" verify --algo binary,nosuch
expect 2 "unknown hash" vnodes --members 3..5 --hash nosuch
expect 2 "unknown hash" verify --hash md5
# decimal options: one wording with the whole-number ones (rb_cli_double_arg)
expect 2 "^ringbench vnodes: --target-peak: 0\.9 is out of range \(1\.\.1048576\)$" vnodes --members 3..5 --target-peak 0.9
expect 2 "^ringbench vnodes: --target-peak must be a decimal number from 1 to 1048576, got 'abc'$" vnodes --members 3..5 --target-peak abc
expect 2 "^ringbench vnodes: --quantile: 0 is out of range \(1e-06\.\.1\)$" vnodes --members 3..5 --quantile 0
expect 2 "^ringbench vnodes: --quantile: 1e400 is out of range \(1e-06\.\.1\)$" vnodes --members 3..5 --quantile 1e400
expect 2 "N1 > N2" vnodes --members 9..3
expect 2 "N1 > N2" verify --members 9..3
expect 2 "--members N1..N2 is required" vnodes
expect 2 "unknown option" verify --bogus
expect 2 "--update needs --codes" verify --update
expect 2 "needs a value" vnodes --members
expect 2 "exceeds the limit" verify --members 70000 --vnodes 1024 --buckets 100000
expect 2 "--n-keys: 0 is out of range" verify --n-keys 0
expect 2 "--seeds: 0 is out of range" vnodes --members 3..5 --seeds 0
# table cannot be filled from itself: bad input (2), not a failure mid-sweep (1) (qa)
expect 2 "--table-source must be" verify --members 3 --vnodes 1 --algo table --table-source table
expect 2 "--table-source must be" vnodes --members 3 --algo table --table-source table
# the seed's example runs one hash: a list is an error, not "the first one" (qa)
expect 2 "--seed-example takes one --hash" verify --seed-example --hash xxh3,fnv1a32
# member-id seeds must not wrap past 2^64 - 1 to 0 (qa)
expect 2 "goes past the largest seed" verify --seed-example --seed 18446744073709551615 --seeds 2
expect 2 "goes past the largest seed" vnodes --members 3 --seed 18446744073709551614 --seeds 3
expect 2 "with --blocks 3 x --seeds 1 goes past" vnodes --members 3 --seed 18446744073709551614 --seeds 1
expect_out "seeds: 18446744073709551614\.\.18446744073709551615 " verify --seed-example --seed 18446744073709551614 --seeds 2

# a list out of order is described by its smallest and largest N (qa)
expect_out "N 3\.\.16 \(2 values\)" vnodes --members 16,3 --max-vnodes 1 --seeds 1 --quiet

# invalid UTF-8 keys under fnv1a32-js
printf 'ok\n\377bad\n' >"$tmp/badutf8"
expect 2 "key 2" vnodes --members 3..4 --hash fnv1a32-js --keys "$tmp/badutf8"

# a changed code: exit 1 with algorithm, expected and got
sed '0,/^binary xxh3 0x/s/^binary xxh3 0x[0-9a-f]*/binary xxh3 0x0123456789abcdef/' "$codes" >"$tmp/changed"
expect 1 "mismatch: algo binary hash xxh3 expected 0x0123456789abcdef got 0x" verify --codes --codes-file "$tmp/changed"
# a missing code
grep -v '^jump fnv1a32 ' "$codes" >"$tmp/missing"
expect 1 "no verification code for jump \(hash fnv1a32\)" verify --codes --codes-file "$tmp/missing"
# a malformed file
printf 'binary xxh3 zzz\n' >"$tmp/bad"
expect 1 "line 1" verify --codes --codes-file "$tmp/bad"
# a codes file that cannot be read is bad input, as --keys (it was exit 1; fresh user)
expect 2 "does-not-exist" verify --codes --codes-file "$tmp/does-not-exist"
expect 2 "^ringbench verify: --codes-file needs --codes$" verify --codes-file "$tmp/does-not-exist"
# options a run would ignore are refused (fresh user, helper-69: --seed-example ran its fixed
# case whatever --members, --keys; --codes ignored --algo, --hash)
expect 2 "^ringbench verify: --seed-example does not read --members: its case is fixed" verify --seed-example --members 5
expect 2 "^ringbench verify: --seed-example does not read --keys: " verify --seed-example --keys "$tmp/does-not-exist"
expect 2 "^ringbench verify: --seed-example does not read --buckets: " verify --seed-example --buckets 64
expect 2 "^ringbench verify: --codes does not read --algo: the codes cover every algorithm" verify --codes --algo jump
expect 2 "^ringbench verify: --codes does not read --hash: " verify --codes --hash xxh3
expect 2 "^ringbench verify: --codes does not read --param: " verify --codes --param probes=3
# --bounded-vnodes over a source without vnodes changed nothing (helper-69): refused, as --vnodes
expect 2 "^ringbench vnodes: --bounded-vnodes does not apply to --algo maglev: it has no vnodes" vnodes --members 3..5 --algo maglev --bounded-vnodes 64
# a code of 17 hex digits is malformed, not clamped to 0xffffffffffffffff (qa)
{ grep -v '^binary xxh3 ' "$codes"; echo "binary xxh3 0x10000000000000000"; } >"$tmp/overflow"
expect 1 "overflow line [0-9]+: expected" verify --codes --codes-file "$tmp/overflow"
# a second line for the same pair is an error, not ignored (qa)
{ cat "$codes"; echo "binary xxh3 0x0123456789abcdef"; } >"$tmp/twice"
expect 1 "twice line [0-9]+: a second code for binary xxh3" verify --codes --codes-file "$tmp/twice"

# --- properties follow the configuration (issue 12) ---
# `table` from `jump` has jump's properties: its owners depend on member order
# (the issue's case: node-0 listed first gives node-0, reversed gives node-2),
# and verify must not report an order-free or remove-middle failure for it.
expect_out '^order:9182	[0-9]+	node-0$' owner --algo table --table-source jump \
    --members node-0,node-1,node-2 --hash fnv1a32 order:9182
expect_out '^order:9182	[0-9]+	node-2$' owner --algo table --table-source jump \
    --members node-2,node-1,node-0 --hash fnv1a32 order:9182
expect_out '"table",.*"monotone_last,weighted"' verify --quiet --algo table \
    --table-source jump --members 2..8 --vnodes 16 --seeds 2 --format json
expect_out '"table",.*"order_free,vnodes,monotone,weighted"' verify --quiet --algo table \
    --members 2..4 --vnodes 16 --seeds 2 --format json

# maglev's declared bound (1 x ideal + 2% of the buckets) holds where its
# disruption dominates the ideal (N 200: ideal 0.5%), and a bad table size
# is bad input
expect_out '"maglev",.*"table_size=65537"' verify --quiet --algo maglev --members 200 \
    --vnodes 1 --seeds 2 --format json
expect 2 "65536 is not prime" owner --algo maglev --members a,b --param table_size=65536 k
expect 2 "smaller than the total weight 3" owner --algo maglev --members a,b=2 \
    --param table_size=2 k

# --- per-algorithm parameters: unknown name or bad value, exit 2, one line ---
expect 2 "^ringbench owner: unknown parameter 'nope'" owner --algo binary --members a,b \
    --param nope=1 k
expect 2 "^ringbench owner: --param 'x' is not NAME=VALUE" owner --algo binary --members a \
    --param x k
expect 2 "^ringbench verify: unknown parameter 'nope'" verify --algo binary --members 2 \
    --vnodes 1 --seeds 1 --quiet --param nope=3
# A value out of range gives the parameter's own range, also past 2^64 - 1 (it gave 0..2^64-1),
# and quotes the value as written; only plain decimal digits are a whole number (fresh user).
expect 2 "^ringbench owner: maglev: --param table_size: '99999999999999999999' is out of range \(2\.\.16777216\)\$" \
    owner --algo maglev --members a --param table_size=99999999999999999999 k
expect 2 "^ringbench owner: maglev: --param table_size: '18446744073709551615' is out of range \(2\.\.16777216\)\$" \
    owner --algo maglev --members a --param table_size=18446744073709551615 k
for v in 99999999999999999999999 5000000000 07 1 4; do
    expect 2 "^ringbench table: front: --param slot_owners: '$v' is out of range \(2\.\.3\)\$" \
        table --algo front --members a,b --param "slot_owners=$v"
done
expect 2 "^ringbench table: anchor: --param capacity: '12345678901234567890\.\.\.' is out of range \(0\.\.[0-9]+\)\$" \
    table --algo anchor --members a,b --param capacity=1234567890123456789012345678901234567890
for v in huge '3 ' ' 3' '+3' '-3' 0x10 '' 3.0 1e3; do
    v_re=$(printf '%s' "$v" | sed 's/[.+]/\\&/g')
    expect 2 "^ringbench table: --param slot_owners: '$v_re' is not a whole number\$" \
        table --algo front --members a,b --param "slot_owners=$v"
done
expect_out "^0	[ab]\$" table --algo front --members a,b --param slot_owners=2
expect 2 "^ringbench owner: --param a given twice" owner --algo binary --members a \
    --param a=1 --param a=2 k

# --- fresh-user defects (kinds, not cases) ---
# Comma lists: an empty item is an error naming its position (it was dropped), a value listed
# twice an error (it was deduplicated or run twice), in every list option.
V="vnodes --members 3 --seeds 1 --blocks 1 --max-vnodes 2 --quiet"
# shellcheck disable=SC2086
{
expect 2 "^ringbench vnodes: --eps: item 2 of '5,,10' is empty" $V --eps 5,,10
expect 2 "^ringbench vnodes: --eps: item 1 of ',5' is empty" $V --eps ,5
expect 2 "^ringbench vnodes: --eps: item 2 of '5,' is empty" $V --eps 5,
expect 2 "^ringbench vnodes: --eps: 5 is listed twice \(items 1 and 2\)" $V --eps 5,5
expect 2 "^ringbench vnodes: --eps: 5 is listed twice \(items 1 and 2\)" $V --eps 5,05
expect 2 "^ringbench vnodes: --members: 4 is listed twice \(items 1 and 2\)" vnodes --members 3..5,4
expect 2 "^ringbench vnodes: --members: item 2 of '3,,4' is empty" vnodes --members 3,,4
expect 2 "^ringbench verify: --vnodes: 4 is listed twice \(items 2 and 3\)" verify --vnodes 1,4,4
expect 2 "^ringbench verify: --algo: item 2 of 'binary,,jump' is empty" verify --algo binary,,jump
expect 2 "^ringbench verify: --algo: 'binary' is listed twice \(items 1 and 2\)" verify --algo binary,binary
expect 2 "^ringbench verify: --hash: item 1 of ',xxh3' is empty" verify --hash ,xxh3
expect 2 "^ringbench verify: --hash item 2: unknown hash" verify --hash xxh3,md5
# An option that the chosen algorithm does not read is an error, not a silent no-op.
expect 2 "^ringbench vnodes: --eps does not apply to --algo table" $V --algo table --eps 5
expect 2 "^ringbench vnodes: --bounded-vnodes does not apply to --algo bounded" $V --algo bounded --bounded-vnodes 4
expect 2 "^ringbench vnodes: --eps does not apply to --format csv" $V --eps 5 --format csv
expect 2 "^ringbench vnodes: unknown parameter 'foo'" $V --param foo=1
expect 2 "^ringbench vnodes: unknown parameter 'eps_pct'" $V --param eps_pct=5
expect 2 "^ringbench owner: --table-source does not apply to --algo binary \(read only by: table, bounded\)" \
    owner --algo binary --members a,b --table-source maglev k
expect 2 "^ringbench verify: --table-source does not apply to --algo of this list" \
    verify --algo binary,jump --table-source maglev
expect 2 "^ringbench vnodes: --table-source does not apply to --algo binary" $V --table-source jump
# --vnodes to an algorithm without vnodes (it was accepted and changed nothing; fresh user
# helper-69): refused, naming the ones that read it; table reads it through its source.
# (verify's --vnodes is a sweep list: an algorithm without vnodes is measured once, as its
# help says.)
expect 2 "^ringbench owner: --vnodes does not apply to --algo maglev \(it has no vnodes; read by: linear, binary, front, table, bounded\)" \
    owner --algo maglev --members a,b --vnodes 4 k
expect 2 "^ringbench table: --vnodes does not apply to --algo jump" table --algo jump --members a,b --vnodes 4
expect 2 "^ringbench owner: --vnodes does not apply to --algo table" \
    owner --algo table --table-source maglev --members a,b --vnodes 4 k
for args in "owner --algo table --members a,b --vnodes 4 k" \
    "verify --algo jump,binary --members 3 --vnodes 4 --seeds 1 --n-keys 200"; do
    # shellcheck disable=SC2086 # the words of args are the arguments
    if ! "$bin" $args >/dev/null 2>"$tmp/err"; then
        echo "FAIL ringbench $args: exit $?, expected 0: $(cat "$tmp/err")" >&2
        failed=$((failed + 1))
    fi
done
# Whole numbers out of range say so, with the range (they said "not a whole number").
expect 2 "^ringbench vnodes: --eps item 1: 99999999999999999999 is out of range \(0\.\.10000\)" \
    $V --eps 99999999999999999999
expect 2 "^ringbench vnodes: --eps item 2: 10001 is out of range \(0\.\.10000\)" $V --eps 5,10001
expect 2 "^ringbench vnodes: --eps item 2 must be a whole number from 0 to 10000, got 'x'" $V --eps 5,x
expect 2 "^ringbench hash: --seed: 99999999999999999999 is out of range \(0\.\.18446744073709551615\)" \
    hash --hash xxh3 --seed 99999999999999999999 k
expect 2 "^ringbench vnodes: --seed: 18446744073709551616 is out of range" $V --seed 18446744073709551616
expect 2 "^ringbench verify: --seed: 99999999999999999999 is out of range" verify --seed 99999999999999999999
expect 2 "^ringbench verify: --seeds: 100001 is out of range \(1\.\.100000\)" verify --seeds 100001
expect 2 "^ringbench verify: --n-keys: 0 is out of range \(1\.\.100000000\)" verify --n-keys 0
expect 2 "^ringbench vnodes: --max-vnodes: 65537 is out of range \(1\.\.65536\)" vnodes --members 3 --max-vnodes 65537
expect 2 "^ringbench owner: --vnodes: 99999999999999999999 is out of range \(1\.\.67108864\)" \
    owner --algo binary --members a --vnodes 99999999999999999999 k
expect 2 "^ringbench owner: --buckets must be a whole number from 1 to 16777216, got '-3'" \
    owner --algo binary --members a --buckets -3 k
expect 2 "^ringbench owner: --replicas: 0 is out of range \(1\.\.1048576\)" \
    owner --algo binary --members a --replicas 0 k
expect 2 "^ringbench owner: --members: member 1 \('a'\) weight: 99999999999999999999 is out of range \(1\.\.65536\)" \
    owner --algo binary --members a=99999999999999999999 k
}
# An error line that quotes input escapes its control bytes: one line, no raw CR or LF.
for id in "$(printf 'x\ry')" "$(printf 'x\ny')"; do
    "$bin" owner --algo binary --members "$id,$id" k >/dev/null 2>"$tmp/err"
    if [ "$(wc -l <"$tmp/err")" -ne 1 ] || grep -q "$(printf '\r')" "$tmp/err" ||
        ! grep -Eq 'duplicate member id .x\\[rn]y.' "$tmp/err"; then
        echo "FAIL duplicate id with a control byte: stderr not one escaped line:" >&2
        od -c "$tmp/err" | head -5 >&2
        failed=$((failed + 1))
    fi
done
# The table source takes its own parameters under bounded (it refused maglev's table_size):
# the size reaches maglev (the owners change with it) and a bad size is still refused.
"$bin" table --algo bounded --table-source maglev --members a,b,c --buckets 64 \
    --param table_size=1009 >"$tmp/b1009" 2>"$tmp/err" || { echo "FAIL bounded over maglev, table_size=1009: $(cat "$tmp/err")" >&2; failed=$((failed + 1)); }
"$bin" table --algo bounded --table-source maglev --members a,b,c --buckets 64 \
    --param table_size=65537 >"$tmp/b65537" 2>"$tmp/err" || { echo "FAIL bounded over maglev, table_size=65537: $(cat "$tmp/err")" >&2; failed=$((failed + 1)); }
if cmp -s "$tmp/b1009" "$tmp/b65537" || [ "$(wc -l <"$tmp/b1009")" -ne 64 ]; then
    echo "FAIL bounded over maglev: table_size did not reach the source (same 64 owners for 1009 and 65537)" >&2
    failed=$((failed + 1))
fi
expect 2 "^ringbench table: maglev: --param table_size=1000: 1000 is not prime" \
    table --algo bounded --table-source maglev --members a,b,c --param table_size=1000
expect_out "^0	" table --algo bounded --table-source maglev --members a,b,c --param eps_pct=10 --param table_size=1009

if [ "$failed" -ne 0 ]; then
    echo "prop_cli: $failed cases failed" >&2
    exit 1
fi
echo "prop_cli: all cases passed"
