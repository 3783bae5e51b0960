# expect.sh — sourced by the command-line error tests of bench/ (POSIX sh).
# Sets up $tmp (removed on exit) and the pass/fail counters, and:
#   expect_exit WHAT CASE STATUS OUT CMD...  run CMD with stdout to OUT (a path,
#       /dev/full, or "closed") and stderr to $tmp/err; it passes when CMD exits
#       STATUS and wrote exactly one line on stderr;
#   pass / fail MESSAGE                      count a check (fail prints "FAIL MESSAGE");
#   expect_done NAME                         print "NAME: N passed, N failed"; false on a failure.
n_pass=0
n_fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass() { n_pass=$((n_pass + 1)); }
fail() {
    n_fail=$((n_fail + 1))
    printf 'FAIL %s\n' "$*" >&2
}

expect_exit() {
    what_=$1 case_=$2 want_=$3 out_=$4
    shift 4
    if [ "$out_" = closed ]; then "$@" >&- 2>"$tmp/err"; else "$@" >"$out_" 2>"$tmp/err"; fi
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq "$want_" ] && [ "$n_err" -eq 1 ]; then
        pass
    else
        fail "$what_: $case_: got exit $rc and $n_err stderr lines ($(head -c 300 "$tmp/err")), expected exit $want_ and one line"
    fi
}

expect_done() {
    echo "$1: $n_pass passed, $n_fail failed"
    [ "$n_fail" -eq 0 ]
}
