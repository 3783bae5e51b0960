#!/bin/sh
# regenerate.sh — run the Python reference generators of verify/kat/ and
# compare their output with the committed vector files, so the known answers
# that verify/test_kat.c reads are what the independent implementations print
# (ctest kat.regenerate). Exit 77 (SKIPPED) without python3.
# usage: regenerate.sh KAT_DIR
dir=$1
command -v python3 >/dev/null 2>&1 || { echo "regenerate.sh: python3 not found: SKIPPED"; exit 77; }
fail=0
check() { # check FILE CMD...
    file=$1; shift
    if "$@" | cmp -s - "$dir/$file"; then
        echo "ok   $file"
    else
        echo "FAIL $file: '$*' does not print the committed file" >&2
        fail=1
    fi
}
check jump.tsv python3 "$dir/jump_ref.py"
for a in jumpback fliphash powerch binomial; do
    check "$a.tsv" python3 "$dir/bucket_ref.py" "$a"
done
check multiprobe.tsv python3 "$dir/multiprobe_ref.py"
exit $fail
