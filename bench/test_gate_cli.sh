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
. "$(dirname "$0")/expect.sh"

# expect CASE STATUS ARGS... : the gate with stdout as $redir says (a file, full, closed)
expect() {
    case_=$1 want=$2
    shift 2
    case $redir in
    full) out=/dev/full ;;
    closed) out=closed ;;
    *) out=$tmp/out ;;
    esac
    expect_exit gate "$case_" "$want" "$out" "$G" --build "$BUILD" "$@"
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
expect "--allow-dirty without --update" 2 --allow-dirty
expect "--json into a missing folder" 1 --json "$tmp/no/such/folder/gate.json"
redir=full
expect "stdout full" 1
redir=closed
expect "stdout closed" 1

expect_done test_gate_cli
