#!/usr/bin/env bash
# test_samples.sh DATASETS_DIR — checks the committed samples of the real key
# sets (offline): one per manifest row, 2,000 lines (or all keys when fewer),
# LF-terminated, no empty line, valid UTF-8, unchanged (samples/SHA256SUMS),
# and the city sample keeps its non-ASCII names as UTF-8 bytes.
set -uo pipefail
dir=${1:?usage: test_samples.sh DATASETS_DIR}
n_fail=0
check() { # check CASE GOT EXPECTED
    if [ "$2" != "$3" ]; then
        echo "FAIL samples $1: got '$2', expected '$3'" >&2
        n_fail=$((n_fail + 1))
    fi
}
n_rows=0
while IFS=$'\t' read -r name _ _ _ _ _ n_keys _; do
    case "$name" in '' | '#'*) continue ;; esac
    n_rows=$((n_rows + 1))
    f="$dir/samples/$name.txt"
    if [ ! -s "$f" ]; then
        check "$name file" "missing or empty" "$f with keys"
        continue
    fi
    want=$((n_keys < 2000 ? n_keys : 2000))
    check "$name lines" "$(wc -l <"$f")" "$want"
    check "$name ends with LF" "$(tail -c 1 "$f" | od -An -tx1 | tr -d ' ')" 0a
    check "$name empty lines" "$(grep -c '^$' "$f")" 0
    check "$name valid UTF-8" "$(iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 && echo yes || echo no)" yes
done <"$dir/manifest.tsv"
check "manifest rows" "$n_rows" 3
check "sample files" "$(find "$dir/samples" -name "*.txt" | wc -l)" "$n_rows"
check "SHA256SUMS" "$(cd "$dir/samples" && sha256sum --quiet -c SHA256SUMS 2>&1 && echo ok)" ok
check "cities has non-ASCII names" \
    "$(LC_ALL=C grep -c "$(printf '[\200-\377]')" "$dir/samples/cities.txt" | awk '{ print ($1 > 100) ? "yes" : "no" }')" yes
if [ $n_fail -gt 0 ]; then
    echo "samples: $n_fail check(s) failed" >&2
    exit 1
fi
echo "samples: all checks passed"
