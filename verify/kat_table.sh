# shellcheck shell=sh
# kat_table.sh — sourced by the table known-answer tests (test_maglev_kat.sh,
# test_skeleton_kat.sh; POSIX sh): compares a reference script's owners with
# `ringbench table`'s, bucket by bucket.
#   kat_table_diff WHAT CASE   $tmp/want (the reference's owners, one per
#       line) against $tmp/got (`ringbench table ... | cut -f2`); on a
#       difference prints "FAIL WHAT CASE: N buckets differ; bucket B: expected
#       X got Y" and counts it in $fails.
# shellcheck disable=SC2154 # $tmp and $fails are the sourcing script's
kat_table_diff() {
    if ! cmp -s "$tmp/want" "$tmp/got"; then
        n=$(paste "$tmp/want" "$tmp/got" | awk '$1 != $2' | wc -l)
        first=$(paste "$tmp/want" "$tmp/got" | awk '$1 != $2 { print NR - 1 ": expected " $1 " got " $2; exit }')
        echo "FAIL $1 $2: $n buckets differ; bucket $first" >&2
        fails=$((fails + 1))
    fi
}
