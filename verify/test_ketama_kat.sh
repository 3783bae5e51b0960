#!/bin/sh
# test_ketama_kat.sh BINARY PEER — ketama known answers: `ringbench table
# --algo ketama` against an independent source for the keys "0" .. "B-1":
#   PEER = ref:   verify/kat/ketama_ref.py, libketama's published algorithm
#                 in Python with hashlib's MD5 (SKIPPED, 77, without python3);
#   PEER = PATH:  the ketama_libmemcached program (libmemcached's own
#                 weighted ketama); SKIPPED (77) when PATH is "none" (the
#                 build found no libmemcached-dev).
# The "2^20 keys" case reaches the rare lookups that ketama's front table
# (impls/front_table.h) does not answer in its slot: crowded slots, and keys
# whose truncated slot offset equals an owner change's (about 10 of 2^20
# keys at 16 servers, half of them past the change).
# Also: with equal weights, adding a server moves buckets only to it.
bin=$1 peer=$2
here=$(dirname "$0")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if [ "$peer" = ref ]; then
    command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3" >&2; exit 77; }
elif [ "$peer" = none ] || [ ! -x "$peer" ]; then
    echo "SKIPPED: built without libmemcached-dev (scripts/bootstrap installs it)" >&2
    exit 77
fi
fails=0

# check NAME B PEER_SERVERS RINGBENCH_MEMBERS
check() {
    name=$1 b=$2 servers=$3 members=$4
    if [ "$peer" = ref ]; then
        python3 "$here/kat/ketama_ref.py" "$b" "$servers" >"$tmp/want"
    else
        "$peer" "$b" "$servers" >"$tmp/want"
    fi || { echo "FAIL ketama $name: the peer failed" >&2; fails=$((fails + 1)); return; }
    "$bin" table --algo ketama --buckets "$b" --members "$members" | cut -f2 >"$tmp/got"
    if ! cmp -s "$tmp/want" "$tmp/got"; then
        n=$(paste "$tmp/want" "$tmp/got" | awk '$1 != $2' | wc -l)
        first=$(paste "$tmp/want" "$tmp/got" | awk '$1 != $2 { print NR - 1 ": expected " $1 " got " $2; exit }')
        echo "FAIL ketama $name vs $peer: $n of $b keys differ; key $first" >&2
        fails=$((fails + 1))
    fi
}

many=$(i=1; while [ $i -le 30 ]; do printf '10.0.%d.%d:11212,' $((i / 8)) $i; i=$((i + 1)); done)
many=${many%,}
sixteen=$(i=1; while [ $i -le 16 ]; do printf 'w%d:11212,' $i; i=$((i + 1)); done)
sixteen=${sixteen%,}
if [ "$peer" = ref ]; then
    check "3 servers" 1024 "10.0.1.1:11211,10.0.1.2:11211,10.0.1.3:11211" \
        "10.0.1.1:11211,10.0.1.2:11211,10.0.1.3:11211"
    check "weights 300/100/50/7" 4096 "a=300,b=100,c=50,d=7" "a=300,b=100,c=50,d=7"
    check "30 servers" 4096 "$many" "$many"
    check "one server" 16 "solo:1" "solo:1"
    check "16 servers, 2^20 keys" 1048576 "$sixteen" "$sixteen"
else
    # libmemcached labels a server on the default port 11211 by host alone
    check "3 servers, port 11211" 1024 "10.0.1.1:11211,10.0.1.2:11211,10.0.1.3:11211" \
        "10.0.1.1,10.0.1.2,10.0.1.3"
    check "3 servers, port 11212" 1024 "10.0.1.1:11212,10.0.1.2:11212,10.0.1.3:11212" \
        "10.0.1.1:11212,10.0.1.2:11212,10.0.1.3:11212"
    check "weights 300/100/50/7" 4096 "a:1=300,b:2=100,c:3=50,d:4=7" \
        "a:1=300,b:2=100,c:3=50,d:4=7"
    check "30 servers" 4096 "$many" "$many"
    check "16 servers, 2^20 keys" 1048576 "$sixteen" "$sixteen"
fi

# equal weights: adding a server moves buckets to it and nowhere else
"$bin" table --algo ketama --members "$many" | cut -f2 >"$tmp/before"
"$bin" table --algo ketama --members "$many,new:1" | cut -f2 >"$tmp/after"
bad=$(paste "$tmp/before" "$tmp/after" | awk '$1 != $2 && $2 != "new:1"' | wc -l)
[ "$bad" -eq 0 ] || { echo "FAIL ketama add: $bad buckets moved between old servers" >&2; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "ketama: all cases agree with $peer"
[ "$fails" -eq 0 ]
