-- fill.sql — one cell's backlog (psql variables :rows, :nw): inbox emptied and :rows rows
-- enqueued in arrival order (keys order:0..9999 uniform, bucket = hashtext(key) & 1023, as
-- the queue's buckets are spread: 1,024 of them), own set to b mod :nw, then VACUUM ANALYZE
-- and CHECKPOINT (each cell starts with no dead tuples and no dirty buffers). Run with
-- search_path set to the layout's schema.
SELECT to_regclass('done') IS NOT NULL AS has_done, to_regclass('leases') IS NOT NULL AS has_leases
\gset
TRUNCATE inbox, effects, own;
\if :has_done
TRUNCATE done;
\endif
\if :has_leases
TRUNCATE leases;
\endif
INSERT INTO own
SELECT c, ARRAY(SELECT b FROM generate_series(0, 1023) b WHERE b % :nw = c ORDER BY b)
FROM generate_series(0, :nw - 1) c;
INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
SELECT key, hashtext(key) & 1023, 'cell:' || i
FROM (SELECT i, 'order:' || (random() * 9999)::int AS key FROM generate_series(1, :rows) i) t;
VACUUM ANALYZE inbox;
VACUUM ANALYZE effects;
CHECKPOINT;
