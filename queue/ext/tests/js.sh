# pg_ext_js: on a queue migrated with the fnv1a32-js bucket hash, a Node producer that inserts
# rows without a partition_bucket (seed_producer.mjs, the seed's own JavaScript hash) gets, from
# the extension's trigger, the bucket the seed computes (hash(key) % 1024) and the bucket the C
# enqueue path (`ringbench pg enqueue`) stores for the same key; a row that brings its own bucket
# keeps it. Keys: the city-name sample (non-ASCII names, where fnv1a32-js and fnv1a32 differ).
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/ext_lib.sh"
need_ext
command -v node >/dev/null || fail "node is missing (scripts/bootstrap installs it)"
here=$(cd "$(dirname "$0")" && pwd)
keys=$here/../../../datasets/samples/cities.txt
n=$(wc -l <"$keys")

"$RB" pg migrate --hash fnv1a32-js --algo binary >/dev/null
node "$here/seed_producer.mjs" js <"$keys" >"$TMP/insert.sql" || fail "seed_producer.mjs failed"
psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "SET search_path TO $RINGBENCH_PG_SCHEMA" -f "$TMP/insert.sql" >/dev/null ||
    fail "the Node producer's INSERTs without partition_bucket failed"
"$RB" pg enqueue "$keys" >/dev/null || fail "ringbench pg enqueue failed"

expect_eq "rows from the Node producer" "$(q "SELECT count(*) FROM inbox WHERE idempotency_key LIKE 'js:%'")" "$n"
bad=$(q "SELECT count(*) FROM inbox WHERE idempotency_key LIKE 'js:%' AND partition_bucket::text <> payload")
[[ $bad == 0 ]] || fail "$bad of $n rows: the trigger's bucket differs from the seed's hash(key) % 1024, e.g. $(q "SELECT partition_key || ': got ' || partition_bucket || ', expected ' || payload FROM inbox WHERE idempotency_key LIKE 'js:%' AND partition_bucket::text <> payload LIMIT 3" | tr '\n' ' ')"
same=$(q "SELECT count(*) FROM inbox j JOIN inbox c
            ON c.idempotency_key = j.partition_key || '#' || substr(j.idempotency_key, 4)
         WHERE j.idempotency_key LIKE 'js:%' AND c.partition_bucket = j.partition_bucket")
expect_eq "rows where the trigger's bucket equals the C enqueue path's" "$same" "$n"
differ=$(qp "SELECT count(*) FROM inbox WHERE idempotency_key LIKE 'js:%'
               AND ringbench_bucket(partition_key, 1024, 'fnv1a32', 0) <> partition_bucket")
((differ > 0)) || fail "no key of the sample tells fnv1a32-js from fnv1a32: the test would not notice the wrong hash"
expect_eq "a row that brings its bucket" \
    "$(q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('order:9182', 7, 'own') RETURNING partition_bucket")" 7
note "$n rows from Node agree with the seed's hash and the C path ($differ of them would differ under fnv1a32)"

# The largest queue seed, 2^63 - 1, reaches the trigger's hash (a larger one is refused at
# migrate, pg_cli_input; it was recorded and every row without a bucket then failed with
# "function ringbench_bucket(text, integer, unknown, numeric) does not exist").
use_schema maxseed
"$RB" pg migrate --seed 9223372036854775807 >/dev/null || fail "pg migrate --seed 2^63-1 failed"
want=$("$RB" owner --algo modn --members m --seed 9223372036854775807 order:9182 | cut -f2)
seed0=$("$RB" owner --algo modn --members m order:9182 | cut -f2)
[[ $want != "$seed0" ]] || fail "order:9182 has bucket $want at seeds 0 and 2^63-1: the check below could not tell them apart"
expect_eq "the trigger's bucket at seed 2^63-1" \
    "$(q "INSERT INTO inbox (partition_key, idempotency_key) VALUES ('order:9182', 'max') RETURNING partition_bucket")" "$want"
echo "PASS [$TEST]"
