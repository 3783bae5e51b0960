#!/bin/sh
# test_maglev_kat.sh BINARY — Maglev known answers: `ringbench table --algo
# maglev` against verify/kat/maglev_ref.py, a reference written from the
# paper's pseudo-code (Eisenbud et al., NSDI 2016, sec. 3.4) in Python, run
# here. Cases: a tiny prime table, weights, the default M = 65537 with 40
# members, a non-zero seed, and a shuffled member list. SKIPPED (77) without
# python3.
bin=$1
here=$(dirname "$0")
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3" >&2; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
# shellcheck source=verify/kat_table.sh
. "$(dirname "$0")/kat_table.sh"
many=$(i=0; while [ $i -lt 40 ]; do printf 'node-%d,' $i; i=$((i + 1)); done)
many=${many%,}
# shellcheck disable=SC2046 # the member list split into lines on purpose
shuffled=$(printf '%s\n' $(echo "$many" | tr , ' ') | sort -r | paste -sd, -)

# check NAME M B SEED MEMBERS
check() {
    kat_table_check maglev "$here/kat/maglev_ref.py" table_size "$2" "$3" "$4" "$5" "$1" \
        "M $2, B $3, seed $4"
}

check "3 members, M 7" 7 64 0 "a,b,c"
check "weights, M 13" 13 100 0 "worker-1,worker-2=3,worker-3,worker-4=2"
check "40 members, M 65537" 65537 1024 0 "$many"
check "40 members, seed 5" 65537 1024 5 "$many"
check "40 members listed in reverse" 65537 1024 0 "$shuffled"
check "prefix ids, M 101" 101 256 0 "ab,a,abc,b"

[ "$fails" -eq 0 ] && echo "maglev: 6 known-answer cases agree with maglev_ref.py"
[ "$fails" -eq 0 ]
