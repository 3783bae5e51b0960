-- inbox_bucket_trigger.sql — the queue schema's hook for the `ringbench` extension (issue 15):
-- when the extension is available on the server, an INSERT INTO inbox that leaves
-- partition_bucket NULL gets ringbench_bucket(partition_key, B, bucket_hash, hash_seed) from
-- queue_config, so a producer in any language (or plain SQL) stores the bucket the workers
-- route by. A row that carries a bucket (the C enqueue path, rb_bucket_of) keeps it.
-- Runs in the queue's schema (search_path) like the other migrations; idempotent. Without the
-- extension it does nothing (a row without a bucket then fails the NOT NULL constraint, as
-- before); re-running `ringbench pg migrate` after installing the extension adds the trigger.
-- The extension is created in schema public when the database lacks it; the trigger calls it
-- schema-qualified, so the queue sessions' search_path (the queue schema only) does not matter.
DO $hook$
DECLARE
    ext_schema text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'ringbench') THEN
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'ringbench') THEN
        CREATE EXTENSION ringbench SCHEMA public;
    END IF;
    SELECT n.nspname INTO ext_schema
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'ringbench';
    -- queue_config has one row, fixed once recorded (ringbench pg migrate refuses changes).
    EXECUTE format($fn$
        CREATE OR REPLACE FUNCTION inbox_fill_bucket() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
            SELECT %1$I.ringbench_bucket(NEW.partition_key, c.n_buckets, c.bucket_hash,
                                         c.hash_seed::bigint)
              INTO STRICT NEW.partition_bucket
              FROM queue_config c;
            RETURN NEW;
        END $body$ SET search_path FROM CURRENT
    $fn$, ext_schema);
    IF NOT EXISTS (SELECT 1 FROM pg_trigger
                    WHERE tgname = 'inbox_fill_bucket' AND tgrelid = 'inbox'::regclass) THEN
        CREATE TRIGGER inbox_fill_bucket BEFORE INSERT ON inbox
            FOR EACH ROW WHEN (NEW.partition_bucket IS NULL) EXECUTE FUNCTION inbox_fill_bucket();
    END IF;
END
$hook$;
