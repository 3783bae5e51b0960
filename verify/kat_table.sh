# shellcheck shell=sh
# kat_table.sh — sourced by the table known-answer tests (test_maglev_kat.sh,
# test_skeleton_kat.sh; POSIX sh): compares a reference script's owners with
# `ringbench table`'s, bucket by bucket.
#   kat_table_diff WHAT CASE   $tmp/want (the reference's owners, one per
#       line) against $tmp/got (`ringbench table ... | cut -f2`); on a
#       difference prints "FAIL WHAT CASE: N buckets differ; bucket B: expected
#       X got Y" and counts it in $fails.
#   kat_table_check ALGO REF PARAM VALUE B SEED MEMBERS NAME LABEL — one case:
#       `python3 REF VALUE B SEED MEMBERS` writes $tmp/want, `ringbench table
#       --algo ALGO --hash fnv1a32 --param PARAM=VALUE` over the same B, seed
#       and members writes $tmp/got ($bin), then kat_table_diff ALGO "NAME (LABEL)";
#       a failing reference prints "FAIL ALGO NAME: the reference script failed".
# shellcheck disable=SC2154 # $tmp, $fails and $bin are the sourcing script's
kat_table_diff() {
    if ! cmp -s "$tmp/want" "$tmp/got"; then
        n=$(paste "$tmp/want" "$tmp/got" | awk '$1 != $2' | wc -l)
        first=$(paste "$tmp/want" "$tmp/got" | awk '$1 != $2 { print NR - 1 ": expected " $1 " got " $2; exit }')
        echo "FAIL $1 $2: $n buckets differ; bucket $first" >&2
        fails=$((fails + 1))
    fi
}

kat_table_check() {
    python3 "$2" "$4" "$5" "$6" "$7" >"$tmp/want" ||
        { echo "FAIL $1 $8: the reference script failed" >&2; fails=$((fails + 1)); return; }
    "$bin" table --algo "$1" --hash fnv1a32 --seed "$6" --buckets "$5" \
        --param "$3=$4" --members "$7" | cut -f2 >"$tmp/got"
    kat_table_diff "$1" "$8 ($9)"
}
