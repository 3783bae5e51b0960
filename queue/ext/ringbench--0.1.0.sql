-- ringbench--0.1.0.sql — the SQL functions of the ringbench extension (queue/ext/ringbench_pg.c
-- documents each). STRICT: a NULL argument gives NULL. IMMUTABLE: the same arguments always
-- give the same answer (the library's verification codes pin every mapping).
\echo Use "CREATE EXTENSION ringbench" to load this file. \quit

-- The hash of the key's UTF-8 bytes: fnv1a32 | fnv1a32-js | xxh3; unsigned, as `ringbench hash`.
CREATE FUNCTION ringbench_hash(key text, hash text, seed bigint) RETURNS numeric
    AS 'MODULE_PATHNAME', 'ringbench_hash' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- The bucket of a key: hash(key, seed) mod n_buckets, as the producer stores it
-- (ringbench_bucket('order:9182', 1024, 'fnv1a32', 0) = 43, the seed's example).
CREATE FUNCTION ringbench_bucket(key text, n_buckets integer, hash text, seed bigint)
    RETURNS integer
    AS 'MODULE_PATHNAME', 'ringbench_bucket' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- The owner of a bucket on a ring of `algo` (any name `ringbench list` prints)
-- over `members` (ids, weight 1; jump and modn use the array order), with n_vnodes per member,
-- n_buckets buckets and the ring hash `hash`: `ringbench table` for one bucket.
CREATE FUNCTION ringbench_owner(bucket integer, members text[], algo text, n_vnodes integer,
                                n_buckets integer, hash text, seed bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'ringbench_owner' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
