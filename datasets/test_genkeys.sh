#!/usr/bin/env bash
# test_genkeys.sh GENKEYS — checks ringbench-genkeys: determinism per seed,
# counts, formats, known answers, Zipf skew against uniform, bad input.
# Counts failures and prints case, got and expected for each; exit 1 if any.
set -uo pipefail
G=${1:?usage: test_genkeys.sh PATH/TO/ringbench-genkeys}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n_fail=0
check() { # check CASE GOT EXPECTED
    if [ "$2" != "$3" ]; then
        echo "FAIL genkeys $1: got '$2', expected '$3'" >&2
        n_fail=$((n_fail + 1))
    fi
}

# Determinism and seed sensitivity, every kind.
for kind in order uuid zipf; do
    "$G" --kind $kind --count 5000 --seed 7 >"$tmp/a" || check "$kind run" "exit $?" "exit 0"
    "$G" --kind $kind --count 5000 --seed 7 >"$tmp/b"
    "$G" --kind $kind --count 5000 --seed 8 >"$tmp/c"
    check "$kind same seed identical" "$(cmp -s "$tmp/a" "$tmp/b" && echo same || echo differ)" same
    if [ $kind != order ]; then
        check "$kind other seed differs" "$(cmp -s "$tmp/a" "$tmp/c" && echo same || echo differ)" differ
    fi
    check "$kind count" "$(wc -l <"$tmp/a")" 5000
    check "$kind count 0" "$("$G" --kind $kind --count 0 | wc -c)" 0
done

# order: exactly order:1..N, or from --start.
check "order 1..N" "$("$G" --kind order --count 1000 | sha256sum)" \
    "$(seq 1 1000 | sed 's/^/order:/' | sha256sum)"
check "order --start" "$("$G" --kind order --count 3 --start 9182 | tr '\n' ' ')" \
    "order:9182 order:9183 order:9184 "
check "order max" "$("$G" --kind order --count 1 --start 18446744073709551615)" \
    "order:18446744073709551615"

# uuid: RFC 9562 v4 format, no repeats, known answer (seed 42, computed by an
# independent Python splitmix64 when the generator was written).
"$G" --kind uuid --count 20000 --seed 3 >"$tmp/u"
check "uuid format" \
    "$(grep -cvE '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' "$tmp/u")" 0
check "uuid distinct" "$(sort -u "$tmp/u" | wc -l)" 20000
check "uuid known answer seed 42" "$("$G" --kind uuid --count 3 --seed 42 | tr '\n' ' ')" \
    "bdd73226-2feb-4e95-a8ef-e333b266f103 47526757-130f-4f52-981c-e1ff0e4ae394 09bc585a-2448-43f2-9e44-31fa3c80db06 "
check "zipf known answer seed 7" \
    "$("$G" --kind zipf --count 5 --seed 7 --customers 100 --zipf-s 1 | tr '\n' ' ')" \
    "customer:4 customer:1 customer:60 customer:12 customer:6 "

# The goldens above come from datasets/genkeys_ref.py (an independent Python splitmix64, UUIDv4
# and Zipf inverse transform); run it on more cases (every seed edge, skews 0.99 and 2.5).
ref=$(dirname "$0")/genkeys_ref.py
# shellcheck disable=SC2086 # $c holds one case's words, split on purpose
for c in "uuid 500 0" "uuid 500 18446744073709551615" "uuid 3 42"; do
    set -- $c
    check "uuid count $2 seed $3 against genkeys_ref.py" \
        "$("$G" --kind uuid --count $2 --seed $3 | sha256sum)" "$(python3 "$ref" uuid $2 $3 | sha256sum)"
done
# shellcheck disable=SC2086 # $c holds one case's words, split on purpose
for c in "2000 11 1000 0.99" "2000 3 7 2.5" "5 7 100 1"; do
    set -- $c
    check "zipf count $1 seed $2 customers $3 s $4 against genkeys_ref.py" \
        "$("$G" --kind zipf --count $1 --seed $2 --customers $3 --zipf-s $4 | sha256sum)" \
        "$(python3 "$ref" zipf $1 $2 $3 $4 | sha256sum)"
done

# zipf: format and range; skew. For s = 1 over K = 1000 the hottest customer
# (customer:1) has probability 1/H(1000,1) = 0.1336, 134x the uniform 0.001;
# with 200,000 draws its share must be within 5 % of that. For s = 0 the
# hottest share must stay below 1.5x uniform.
n=200000
"$G" --kind zipf --count $n --customers 1000 --zipf-s 1 --seed 11 >"$tmp/z"
check "zipf format and range" \
    "$(awk -F: '!/^customer:[0-9]+$/ || $2 < 1 || $2 > 1000' "$tmp/z" | wc -l)" 0
top=$(sort "$tmp/z" | uniq -c | sort -k1,1nr | head -1)
check "zipf s=1 hottest customer" "$(echo "$top" | awk '{print $2}')" customer:1
expect=$(awk 'BEGIN { for (k = 1; k <= 1000; k++) h += 1 / k; printf "%.4f", 1 / h }')
share=$(echo "$top" | awk -v n=$n '{ printf "%.4f", $1 / n }')
check "zipf s=1 top share $share within 5% of $expect" \
    "$(awk -v s="$share" -v e="$expect" 'BEGIN { print (s > 0.95 * e && s < 1.05 * e) ? "yes" : "no" }')" yes
"$G" --kind zipf --count $n --customers 1000 --zipf-s 0 --seed 11 >"$tmp/z0"
share0=$(sort "$tmp/z0" | uniq -c | sort -k1,1nr | head -1 | awk -v n=$n '{ printf "%.5f", $1 / n }')
check "zipf s=0 top share $share0 below 1.5x uniform 0.001" \
    "$(awk -v s="$share0" 'BEGIN { print (s < 0.0015) ? "yes" : "no" }')" yes
check "zipf s=0 uses all customers" "$(sort -u "$tmp/z0" | wc -l)" 1000

# Bad input: exit 2, exactly one line on stderr, nothing on stdout.
bad() {
    "$G" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    check "bad input [$*] exit" "$rc" 2
    check "bad input [$*] stderr lines" "$(wc -l <"$tmp/err")" 1
    check "bad input [$*] stdout bytes" "$(wc -c <"$tmp/out")" 0
}
bad
bad --count 5
bad --kind order
bad --kind nope --count 5
bad --kind uuid --count -1
bad --kind uuid --count 12x
bad --kind uuid --count 99999999999999999999999
# a whole number past 2^64 - 1 is out of range, with the range (it read "not a whole number")
check "count past 2^64: the range" "$(grep -c -- "--count: 99999999999999999999999 is out of range (0\.\.18446744073709551615)" "$tmp/err")" 1
bad --kind zipf --count 5 --customers 100000001
check "customers past the range" "$(grep -c -- "--customers: 100000001 is out of range (1\.\.100000000)" "$tmp/err")" 1
bad --kind uuid --count 5 --seed
bad --kind uuid --count 5 --seed -3
bad --kind zipf --count 5 --customers 0
bad --kind zipf --count 5 --zipf-s -1
bad --kind zipf --count 5 --zipf-s nan
bad --kind zipf --count 5 --zipf-s inf
bad --kind zipf --count 5 --zipf-s 101
check "zipf-s past the range: the range" "$(grep -c -- "--zipf-s: 101 is out of range (0\.\.100)" "$tmp/err")" 1
bad --kind zipf --count 5 --zipf-s 1e400
check "zipf-s past DBL_MAX: out of range" "$(grep -c -- "--zipf-s: 1e400 is out of range (0\.\.100)" "$tmp/err")" 1
# below the smallest double: the nearest double, in range (it said "out of range (0..100)")
"$G" --kind zipf --count 3 --customers 10 --zipf-s 1e-400 >/dev/null 2>"$tmp/err"
check "zipf-s 1e-400 (0): exit" "$?" 0
"$G" --kind zipf --count 3 --customers 10 --zipf-s 4.9e-324 >/dev/null 2>"$tmp/err"
check "zipf-s 4.9e-324 (a denormal): exit" "$?" 0
bad --kind zipf --count 5 --zipf-s 0x1
check "zipf-s in hex: not a decimal number" "$(grep -c -- "--zipf-s must be a decimal number from 0 to 100, got '0x1'" "$tmp/err")" 1
bad --kind uuid --count 5 --customers 10
bad --kind uuid --count 5 --start 10
bad --kind order --count 2 --start 18446744073709551615
bad --kind order --count 5 extra
bad --kind order --count 5 --frobnicate 1
# a repeated option is an error, not "the last one wins" (qa)
bad --kind order --count 5 --kind uuid
bad --kind order --count 5 --count 6

# Write failure: exit 1 (stdout is /dev/full).
if [ -w /dev/full ]; then
    "$G" --kind uuid --count 100000 >/dev/full 2>"$tmp/err"
    check "write to /dev/full exit" "$?" 1
fi

if [ $n_fail -gt 0 ]; then
    echo "genkeys: $n_fail check(s) failed" >&2
    exit 1
fi
echo "genkeys: all checks passed"
