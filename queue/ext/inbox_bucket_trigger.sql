-- The bucket in SQL (issue 15): an INSERT INTO inbox that leaves partition_bucket NULL gets
-- ringbench_bucket(partition_key, B, bucket_hash, hash_seed) from queue_config, computed by the
-- `ringbench` Postgres extension (queue/ext), so a producer in any language, or plain SQL,
-- stores the bucket the workers route by. A row that brings its bucket (the C enqueue path,
-- rb_bucket_of) keeps it: the trigger fires only WHEN the bucket is NULL.
-- The extension: created here (schema public) when the server has it and the database does
-- not; when it is missing, a row without a bucket fails with a message that says so. The
-- trigger function finds ringbench_bucket on its own search_path (the queue schema, then the
-- extension's schema or public), so the extension may be created after this migration.
DO $hook$
DECLARE
    ext_schema text;
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'ringbench')
       AND NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'ringbench') THEN
        BEGIN
            CREATE EXTENSION ringbench SCHEMA public;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'ringbench extension not created (%): producers must send partition_bucket', SQLERRM;
        END;
    END IF;
    SELECT n.nspname INTO ext_schema
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'ringbench';
    EXECUTE format($fn$
        CREATE OR REPLACE FUNCTION inbox_fill_bucket() RETURNS trigger LANGUAGE plpgsql
        SET search_path = %I, %I AS $body$
        BEGIN
            IF to_regprocedure('ringbench_bucket(text, integer, text, bigint)') IS NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'not_null_violation',
                    MESSAGE = 'inbox: partition_bucket is NULL and the ringbench extension is not '
                              'installed in this database',
                    HINT = 'send partition_bucket from the producer, or install the extension '
                           '(scripts/pg install-ext BUILD) and CREATE EXTENSION ringbench SCHEMA public';
            END IF;
            -- queue_config has one row, fixed once recorded (ringbench pg migrate refuses changes).
            SELECT ringbench_bucket(NEW.partition_key, c.n_buckets, c.bucket_hash, c.hash_seed::bigint)
              INTO STRICT NEW.partition_bucket
              FROM queue_config c;
            RETURN NEW;
        END $body$
    $fn$, current_schema(), coalesce(ext_schema, 'public'));
END
$hook$;
CREATE TRIGGER inbox_fill_bucket BEFORE INSERT ON inbox
    FOR EACH ROW WHEN (NEW.partition_bucket IS NULL) EXECUTE FUNCTION inbox_fill_bucket();
