#!/bin/sh
# test_gate_cli.sh — scripts/gate on bad input and on output it cannot write:
# bad input exits 2, a write failure exits 1, each with exactly one line on
# stderr (never a Python traceback).
#
#   sh bench/test_gate_cli.sh path/to/scripts/gate BUILD_DIR
#
# Failures print the case, got and expected; the last line is
# "test_gate_cli: N passed, N failed".
G=${1:?usage: test_gate_cli.sh GATE BUILD_DIR}
BUILD=${2:?usage: test_gate_cli.sh GATE BUILD_DIR}
n_pass=0
n_fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# expect CASE STATUS [redirect via $redir] ARGS... : exit STATUS, one stderr line
expect() {
    case_=$1 want=$2
    shift 2
    case $redir in
    full) "$G" --build "$BUILD" "$@" >/dev/full 2>"$tmp/err" ;;
    closed) "$G" --build "$BUILD" "$@" >&- 2>"$tmp/err" ;;
    *) "$G" --build "$BUILD" "$@" >"$tmp/out" 2>"$tmp/err" ;;
    esac
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq "$want" ] && [ "$n_err" -eq 1 ]; then
        n_pass=$((n_pass + 1))
    else
        n_fail=$((n_fail + 1))
        printf 'FAIL gate: %s: got exit %s and %s stderr lines (%s), expected exit %s and one line\n' \
            "$case_" "$rc" "$n_err" "$(head -c 300 "$tmp/err")" "$want" >&2
    fi
}

printf '{"figures": ' >"$tmp/truncated.json"
printf '[1, 2]\n' >"$tmp/array.json"
printf '{"figures": {"key/binary:Ir": "fast"}}\n' >"$tmp/strings.json"
redir=
expect "baseline is not JSON" 2 --baseline "$tmp/truncated.json"
expect "baseline is a JSON array" 2 --baseline "$tmp/array.json"
expect "baseline figures are not numbers" 2 --baseline "$tmp/strings.json"
expect "baseline is a folder" 1 --baseline "$tmp"
expect "--threshold inf" 2 --threshold inf
expect "--scale-baseline inf" 2 --scale-baseline inf
expect "--json into a missing folder" 1 --json "$tmp/no/such/folder/gate.json"
redir=full
expect "stdout full" 1
redir=closed
expect "stdout closed" 1

echo "test_gate_cli: $n_pass passed, $n_fail failed"
[ "$n_fail" -eq 0 ]
