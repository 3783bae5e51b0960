# pg_ext_agree: the extension computes what the library's CLI computes.
#  - ringbench_hash and ringbench_bucket on every key of the committed real key samples
#    (datasets/samples/*.txt: English words, npm names, city names with non-ASCII letters)
#    equal `ringbench hash` and the bucket column of `ringbench owner`, for fnv1a32,
#    fnv1a32-js and xxh3, seeds 0 and 2^40+7, B = 1024 and B = 1000;
#  - ringbench_owner for every bucket equals `ringbench table`, for every algorithm, two
#    hashes and a membership with a non-ASCII id;
#  - the seed's example, NULL in -> NULL out, and bad arguments raise one clear error.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/ext_lib.sh"
need_ext
samples=$(cd "$(dirname "$0")/../../../datasets/samples" && pwd)
qp "CREATE SCHEMA $RINGBENCH_PG_SCHEMA; CREATE TABLE keys (n bigserial PRIMARY KEY, key text NOT NULL)" >/dev/null

# load FILE — the keys of FILE, one per line, into table keys (COPY text format: escape \ and CR).
load() {
    sed 's/\\/\\\\/g; s/\r/\\r/g' "$1" >"$TMP/keys.copy"
    qp "TRUNCATE keys RESTART IDENTITY" >/dev/null
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 \
        -c "\\copy $RINGBENCH_PG_SCHEMA.keys (key) FROM '$TMP/keys.copy'"
}

# same WHAT CLI_FILE SQL_FILE — the two outputs must be equal line by line.
same() {
    local nc ns
    nc=$(wc -l <"$2") ns=$(wc -l <"$3")
    [[ $nc == "$ns" && $nc -gt 0 ]] || fail "$1: $nc lines from the CLI, $ns from SQL"
    if ! cmp -s "$2" "$3"; then
        fail "$1: first difference (line: CLI | SQL): $(paste "$2" "$3" | grep -nvP '^(.*)\t\1$' | head -3 | tr '\n' ' ')"
    fi
}

checked=0
for f in "$samples"/*.txt; do
    load "$f"
    for hash in fnv1a32 fnv1a32-js xxh3; do
        for seed in 0 1099511627783; do
            what="$(basename "$f") $hash seed $seed"
            "$RB" hash --hash "$hash" --seed "$seed" <"$f" | awk -F'\t' '{print $NF}' >"$TMP/cli.hash"
            qp "SELECT ringbench_hash(key, '$hash', $seed) FROM keys ORDER BY n" >"$TMP/sql.hash"
            same "ringbench_hash, $what" "$TMP/cli.hash" "$TMP/sql.hash"
            for b in 1024 1000; do
                "$RB" owner --algo modn --members m --hash "$hash" --seed "$seed" --buckets "$b" <"$f" |
                    awk -F'\t' '{print $(NF-1)}' >"$TMP/cli.bucket"
                qp "SELECT ringbench_bucket(key, $b, '$hash', $seed) FROM keys ORDER BY n" >"$TMP/sql.bucket"
                same "ringbench_bucket, $what, B $b" "$TMP/cli.bucket" "$TMP/sql.bucket"
                checked=$((checked + $(wc -l <"$TMP/sql.bucket")))
            done
        done
    done
done
note "hashes and buckets agree on $checked (key, hash, seed, B) cases"

members=worker-1,worker-2,worker-3,s1:11,büro-7
array="ARRAY['worker-1','worker-2','worker-3','s1:11','büro-7']"
# --vnodes only to the algorithms it reaches (the CLI refuses it elsewhere; the SQL function
# takes a vnode count for every algorithm and the others ignore it)
mapfile -t vnode_algos < <("$RB" list --format csv | python3 -c 'import csv, sys
print("\n".join(r["name"] for r in csv.DictReader(sys.stdin) if "vnodes" in r["properties"].split(",")))')
for algo in $("$RB" list | awk '{print $1}'); do
    vn=()
    [[ " ${vnode_algos[*]} " == *" $algo "* ]] && vn=(--vnodes 16)
    for hash in fnv1a32 xxh3; do
        "$RB" table --algo "$algo" --members "$members" "${vn[@]}" --buckets 1000 --hash "$hash" --seed 5 |
            cut -f2 >"$TMP/cli.owner"
        qp "SELECT ringbench_owner(b, $array, '$algo', 16, 1000, '$hash', 5) FROM generate_series(0, 999) b ORDER BY b" >"$TMP/sql.owner"
        same "ringbench_owner, $algo $hash" "$TMP/cli.owner" "$TMP/sql.owner"
    done
done
note "owners agree with ringbench table for every algorithm"

expect_eq "the seed's example" "$(qp "SELECT ringbench_bucket('order:9182', 1024, 'fnv1a32', 0)")" 43
expect_eq "NULL key" "$(qp "SELECT ringbench_bucket(NULL, 1024, 'fnv1a32', 0) IS NULL AND ringbench_hash('k', NULL, 0) IS NULL AND ringbench_owner(1, NULL, 'binary', 1, 2, 'xxh3', 0) IS NULL")" t
err() { # err PATTERN SQL — SQL must fail with one ERROR line matching PATTERN
    local out
    out=$(qp "$2" 2>&1) && fail "'$2' succeeded ($out), expected an error /$1/"
    grep -q -- "$1" <<<"$out" || fail "'$2': got '$out', expected /$1/"
}
err "ringbench_bucket: unknown hash 'md5' (known: fnv1a32, fnv1a32-js, xxh3)" "SELECT ringbench_bucket('k', 1024, 'md5', 0)"
err "ringbench_bucket: n_buckets must be 1 .. 16777216, got 0" "SELECT ringbench_bucket('k', 0, 'xxh3', 0)"
err "ringbench_hash: seed must be >= 0, got -1" "SELECT ringbench_hash('k', 'xxh3', -1)"
err "ringbench_owner: bucket must be 0 .. 1023, got 1024" "SELECT ringbench_owner(1024, ARRAY['a'], 'binary', 8, 1024, 'xxh3', 0)"
err "ringbench_owner: duplicate member id 'a'" "SELECT ringbench_owner(0, ARRAY['a','a'], 'binary', 8, 1024, 'xxh3', 0)"
err "ringbench_owner: members is empty" "SELECT ringbench_owner(0, ARRAY[]::text[], 'binary', 8, 1024, 'xxh3', 0)"
err "ringbench_owner: members\[2\] is NULL" "SELECT ringbench_owner(0, ARRAY['a',NULL], 'binary', 8, 1024, 'xxh3', 0)"
err "ringbench_owner: unknown algorithm 'nosuchalgo'" "SELECT ringbench_owner(0, ARRAY['a'], 'nosuchalgo', 8, 1024, 'xxh3', 0)"
err "ringbench_owner: n_vnodes must be >= 1, got 0" "SELECT ringbench_owner(0, ARRAY['a'], 'binary', 0, 1024, 'xxh3', 0)"
# Member numbers (README "Member numbers"): a library message counts members from 0, in SQL
# as in the CLI; the HINT maps member k to members[k+1]. The same membership gives the same
# numbers through both.
out=$(qp "SELECT ringbench_owner(0, ARRAY['a','b','a'], 'binary', 8, 1024, 'xxh3', 0)" 2>&1) &&
    fail "a duplicate member id was accepted: $out"
grep -q "duplicate member id 'a' (members 0 and 2)" <<<"$out" || fail "duplicate in SQL: got '$out', expected members 0 and 2"
grep -q "HINT: .*member k is members\[k+1\]" <<<"$out" || fail "duplicate in SQL: no HINT mapping member k to members[k+1] in '$out'"
cli=$("$RB" owner --algo binary --members a,b,a k 2>&1) && fail "the CLI accepted a duplicate member id"
grep -q "(members 0 and 2)" <<<"$cli" || fail "duplicate in the CLI: got '$cli', expected members 0 and 2 (as in SQL)"
out=$(qp "SELECT ringbench_owner(0, ARRAY['a',NULL], 'binary', 8, 1024, 'xxh3', 0)" 2>&1) || true
grep -q "HINT" <<<"$out" && fail "members[2] is an SQL subscript and needs no HINT: '$out'"
echo "PASS [$TEST]"
