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

: >"$tmp/empty"
expect 2 "holds no keys" vnodes --members 3..5 --keys "$tmp/empty"
expect 2 "holds no keys" verify --members 3 --keys "$tmp/empty"
expect 2 "cannot open" vnodes --members 3..5 --keys "$tmp/does-not-exist"
expect 2 "larger than B" vnodes --members 3..20 --buckets 16
expect 2 "larger than B" verify --members 2..20 --buckets 16
expect 2 "--vnodes: values must be from 1" verify --vnodes 0
expect 2 "unknown algorithm" vnodes --members 3..5 --algo nosuch
expect 2 "unknown algorithm" verify --algo binary,nosuch
expect 2 "unknown hash" vnodes --members 3..5 --hash nosuch
expect 2 "unknown hash" verify --hash md5
expect 2 "target-peak must be a number >= 1" vnodes --members 3..5 --target-peak 0.9
expect 2 "target-peak must be a number >= 1" vnodes --members 3..5 --target-peak abc
expect 2 "N1 > N2" vnodes --members 9..3
expect 2 "N1 > N2" verify --members 9..3
expect 2 "--members N1..N2 is required" vnodes
expect 2 "unknown option" verify --bogus
expect 2 "--update needs --codes" verify --update
expect 2 "needs a value" vnodes --members
expect 2 "exceeds the limit" verify --members 70000 --vnodes 1024 --buckets 100000
expect 2 "--n-keys must be" verify --n-keys 0
expect 2 "--seeds must be" vnodes --members 3..5 --seeds 0

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

if [ "$failed" -ne 0 ]; then
    echo "prop_cli: $failed cases failed" >&2
    exit 1
fi
echo "prop_cli: all cases passed"
