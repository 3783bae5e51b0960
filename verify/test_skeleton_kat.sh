#!/bin/sh
# test_skeleton_kat.sh BINARY KAT_DIR — `skeleton` known answers: `ringbench
# table --algo skeleton` against kat/skeleton_ref.py, an independent Python
# reference of weighted skeleton-based rendezvous (it descends the member set
# at every lookup instead of walking a built tree), run here. Cases: fanout
# bits 1, 3 and 8, weights, 40 and 200 members, a non-zero seed, the list
# reversed. SKIPPED (77) without python3.
bin=$1
kat=$2
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3" >&2; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
# shellcheck source=verify/kat_table.sh
. "$(dirname "$0")/kat_table.sh"
list() { # list N WEIGHTED: node-0,..,node-(N-1), weights 1..4 when WEIGHTED
    i=0 out=
    while [ "$i" -lt "$1" ]; do
        if [ "$2" = 1 ]; then out="$out,node-$i=$((i % 4 + 1))"; else out="$out,node-$i"; fi
        i=$((i + 1))
    done
    echo "${out#,}"
}
many=$(list 40 0)
weighted=$(list 200 1)
reversed=$(echo "$weighted" | tr , '\n' | sort -r | paste -sd, -)

# check NAME FANOUT_BITS B SEED MEMBERS
check() {
    kat_table_check skeleton "$kat/skeleton_ref.py" fanout_bits "$2" "$3" "$4" "$5" "$1" \
        "fanout_bits $2, B $3, seed $4"
}

check "3 members" 3 64 0 "a,b,c"
check "one member" 3 16 0 "solo"
check "weights, binary trie" 1 256 0 "worker-1,worker-2=3,worker-3,worker-4=2"
check "40 members" 3 1024 0 "$many"
check "40 members, 256-way" 8 1024 0 "$many"
check "200 weighted members" 3 1024 0 "$weighted"
check "200 weighted members, seed 5" 2 1024 5 "$weighted"
check "200 weighted members listed in reverse" 3 1024 0 "$reversed"

[ "$fails" -eq 0 ] && echo "skeleton: 8 known-answer cases agree with skeleton_ref.py"
[ "$fails" -eq 0 ]
