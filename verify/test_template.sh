#!/bin/sh
# test_template.sh SRC_DIR — the adding-an-algorithm text of impls/README.md,
# executed: copy the sources (CMakeLists.txt, include/, impls/, cli/, verify/)
# into a temporary tree, make impls/tmplprobe.c from impls/TEMPLATE.c.in, add
# its one registry line, and build with no other edit. Then the new algorithm
# must be in `ringbench list`, pass the contract test and a small verify
# sweep, and `verify --codes` must fail naming the command that records its
# code, and pass once that command has run. A second copy, tmplbad, keeps the
# template's order-free claim but breaks it (4-bit scores, ties to the first
# member in list order): the contract test and verify must both catch it.
set -u
src=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL template: $1: $2" >&2; fails=$((fails + 1)); }

mkdir "$tmp/src"
for part in CMakeLists.txt include impls cli verify; do
    cp -R "$src/$part" "$tmp/src/$part" || exit 1
done
sed 's/@NAME@/tmplprobe/g' "$src/impls/TEMPLATE.c.in" >"$tmp/src/impls/tmplprobe.c" || exit 1
sed -e 's/@NAME@/tmplbad/g' -e 's/hdr->id_order\[k\]/k/g' \
    -e 's/uint64_t s = rb_hash_fmix64(pos ^ r->key\[k\]);/uint64_t s = rb_hash_fmix64(pos ^ r->key[k]) >> 60;/' \
    -e 's/uint64_t top = rb_hash_fmix64(pos ^ r->key\[0\]);/uint64_t top = rb_hash_fmix64(pos ^ r->key[0]) >> 60;/' \
    "$src/impls/TEMPLATE.c.in" >"$tmp/src/impls/tmplbad.c" || exit 1
grep -q '>> 60' "$tmp/src/impls/tmplbad.c" ||
    { echo "template: could not make tmplbad (TEMPLATE.c.in changed?)" >&2; exit 1; }
# the one registry line (each), at the head of RB_ALGO_LIST
sed 's/^#define RB_ALGO_LIST(X) *\\$/&\n    X(tmplprobe) \\\n    X(tmplbad) \\/' \
    "$src/impls/registry.c" >"$tmp/src/impls/registry.c" || exit 1
grep -q 'X(tmplprobe)' "$tmp/src/impls/registry.c" ||
    { echo "template: could not add the registry line (RB_ALGO_LIST changed?)" >&2; exit 1; }

cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Debug -DRINGBENCH_BENCH=OFF \
    -DRINGBENCH_PG=OFF -DRINGBENCH_WERROR=ON >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; echo "FAIL template: configure" >&2; exit 1; }
cmake --build "$tmp/build" -j2 --target ringbench-cli test_contract >"$tmp/build.log" 2>&1 ||
    { tail -30 "$tmp/build.log" >&2; echo "FAIL template: build" >&2; exit 1; }
rb=$tmp/build/cli/ringbench

"$rb" list | grep -q '^tmplprobe ' || fail "list" "tmplprobe not in \`ringbench list\`"
"$tmp/build/verify/test_contract" >"$tmp/contract.log" 2>&1
grep -q '^contract tmplprobe *ok' "$tmp/contract.log" ||
    { grep 'FAIL tmplprobe' "$tmp/contract.log" | head >&2; fail "contract" "tmplprobe not ok"; }
grep -q '^contract tmplbad *FAILED' "$tmp/contract.log" ||
    fail "contract" "tmplbad claims order-free falsely, yet the contract test passed it"
"$rb" verify --quiet --algo tmplbad --members 8 --vnodes 1 --seeds 2 >/dev/null \
    2>"$tmp/bad.err" && fail "verify" "tmplbad passed"
grep -q 'claims order-free, yet' "$tmp/bad.err" ||
    fail "verify" "no order-free failure reported for tmplbad"
"$rb" verify --quiet --algo tmplprobe --members 2..6 --vnodes 1 --seeds 2 >/dev/null ||
    fail "verify" "the sweep reported a failure"
codes=$tmp/src/impls/verification_codes.txt
"$rb" verify --codes >/dev/null 2>"$tmp/codes.err" && fail "codes" "passed without a code"
rm "$tmp/src/impls/tmplbad.c" # not for the codes: rebuild without it
sed -i '/X(tmplbad)/d' "$tmp/src/impls/registry.c"
cmake --build "$tmp/build" -j2 --target ringbench-cli >"$tmp/build2.log" 2>&1 ||
    { tail -20 "$tmp/build2.log" >&2; fail "build" "without tmplbad"; }
grep -q 'no verification code for tmplprobe.*ringbench verify --codes --update' \
    "$tmp/codes.err" || fail "codes" "no message naming \`ringbench verify --codes --update\`"
"$rb" verify --codes --update 2>/dev/null && "$rb" verify --codes >/dev/null 2>&1 ||
    fail "codes" "still failing after --update"
grep -q '^tmplprobe ' "$codes" || fail "codes" "no tmplprobe line written"

[ "$fails" -eq 0 ] && echo "template: tmplprobe built from impls/TEMPLATE.c.in, listed, contract ok"
[ "$fails" -eq 0 ]
