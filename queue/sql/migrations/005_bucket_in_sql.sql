-- 005_bucket_in_sql.sql — the bucket in SQL (issue 15): an INSERT INTO inbox that leaves partition_bucket NULL gets
-- ringbench_bucket(partition_key, B, bucket_hash, hash_seed) of queue_config, computed by the
-- `ringbench` Postgres extension (queue/ext), so a producer in any language, or plain SQL,
-- stores the bucket the workers route by. A row that brings its bucket (the C enqueue path,
-- rb_bucket_of) keeps it: the trigger fires only WHEN the bucket is NULL.
--
-- The extension is created here (schema public) when the server has it and the database does
-- not. inbox_fill_bucket() is written by inbox_fill_bucket_define(), again whenever
-- queue_config is written (it is recorded once, after the migrations):
--   fast: the extension exists and queue_config is recorded: B, hash and seed are constants
--         in the body and the call is schema-qualified (about the cost of a client-computed
--         bucket; reading queue_config per row, or a per-call search_path, costs ~1.5x);
--   general: otherwise: reads queue_config per row and finds ringbench_bucket on its
--         search_path (queue schema, public), so an extension created later works; without
--         it a row without a bucket fails with a message that says so.
DO $hook$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'ringbench')
       AND NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'ringbench') THEN
        BEGIN
            CREATE EXTENSION ringbench SCHEMA public;
        EXCEPTION
            WHEN insufficient_privilege THEN
                RAISE NOTICE 'ringbench extension not created (%): producers must send partition_bucket', SQLERRM;
            WHEN unique_violation OR duplicate_object THEN
                NULL; -- another session created it at the same moment
        END;
    END IF;
END
$hook$;

-- inbox_fill_bucket_define(queue schema): (re)write inbox_fill_bucket() as described above.
CREATE OR REPLACE FUNCTION inbox_fill_bucket_define(queue text) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $define$
DECLARE
    ext text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'ringbench');
    c record;
BEGIN
    SELECT n_buckets, bucket_hash, hash_seed INTO c FROM queue_config;
    IF ext IS NOT NULL AND FOUND THEN
        EXECUTE format($fast$
            CREATE OR REPLACE FUNCTION %I.inbox_fill_bucket() RETURNS trigger LANGUAGE plpgsql AS $b$
            BEGIN
                NEW.partition_bucket := %I.ringbench_bucket(NEW.partition_key, %s, %L, %s);
                RETURN NEW;
            END $b$ $fast$, queue, ext, c.n_buckets, c.bucket_hash, c.hash_seed);
        RETURN;
    END IF;
    EXECUTE format($general$
        CREATE OR REPLACE FUNCTION %I.inbox_fill_bucket() RETURNS trigger LANGUAGE plpgsql
        SET search_path = %I, %I AS $b$
        BEGIN
            IF to_regprocedure('ringbench_bucket(text, integer, text, bigint)') IS NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'not_null_violation',
                    MESSAGE = 'inbox: partition_bucket is NULL and the ringbench extension is not '
                              'installed in this database',
                    HINT = 'send partition_bucket from the producer, or install the extension '
                           '(scripts/pg install-ext BUILD) and CREATE EXTENSION ringbench SCHEMA public';
            END IF;
            SELECT ringbench_bucket(NEW.partition_key, c.n_buckets, c.bucket_hash, c.hash_seed::bigint)
              INTO STRICT NEW.partition_bucket FROM queue_config c;
            RETURN NEW;
        END $b$ $general$, queue, queue, coalesce(ext, 'public'));
END
$define$;

CREATE OR REPLACE FUNCTION queue_config_written() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM inbox_fill_bucket_define(TG_TABLE_SCHEMA);
    RETURN NULL;
END $$;

SELECT inbox_fill_bucket_define(current_schema());
CREATE TRIGGER queue_config_written AFTER INSERT OR UPDATE ON queue_config
    FOR EACH STATEMENT EXECUTE FUNCTION queue_config_written();
CREATE TRIGGER inbox_fill_bucket BEFORE INSERT ON inbox
    FOR EACH ROW WHEN (NEW.partition_bucket IS NULL) EXECUTE FUNCTION inbox_fill_bucket();
