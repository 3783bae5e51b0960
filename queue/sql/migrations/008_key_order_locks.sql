-- 008_key_order_locks.sql — order by commit for every producer (issue 11, target 5). A key's
-- rows get their ids in the order their transactions end: before a row draws its id, its
-- inserting transaction takes a transaction-scoped advisory lock on the key's stripe (one of
-- the queue's 64, from hashtext of the key), held until it commits or rolls back.
--
-- Why it holds: rows r1 (id a) and r2 (id b > a) of one key, inserted by transactions T1 and
-- T2. Each draws its id while it holds the stripe, and holds it to its end, so if T1 and T2
-- differ, T1 ended before T2 took the stripe: T1 either rolled back (r1 never exists) or
-- committed before r2 existed. A commit is visible to new snapshots before its locks are
-- released, so every snapshot that sees r2 sees r1: the ordering guard of ordered mode
-- (claim_ordered.sql, claim_run.sql, claim_window.sql) never misses an older row of a key
-- that is still uncommitted, and no claim has to wait for other transactions to end.
--
-- This replaces the rule of 004 (a row claimable only once its inserting xid is below the
-- snapshot's xmin). That rule let a row run while a younger transaction that drew a lower id
-- of its key was still open (A takes an xid, B inserts id 2 of a key, A inserts id 3 of it
-- and commits: xmin is B's xid, above A's, so id 3 ran before id 2 committed), and a long
-- transaction anywhere on the server held every ordered claim back. inserted_xid stays (its
-- default too) so workers of an older binary keep their rule during an upgrade; this
-- version's claims do not read it.
--
-- The cost is on producers, none on claims: one lock per row (a lock the transaction already
-- holds is taken again in its own memory) and, when two transactions insert rows of one
-- stripe, the second waits for the first to end. queue/README.md ("Order by commit") gives
-- the measurements.
--
-- Every producer takes part: the id is drawn by the trigger inbox_order_id (the column has no
-- default any more, so an insert that bypasses the trigger fails on the NOT NULL of id
-- instead of silently getting an id outside the protocol; an id the producer sends is
-- replaced). A statement that inserts rows of several stripes, one after the other, could
-- deadlock with another that meets them in the opposite order (the server detects it after
-- deadlock_timeout and aborts one); inbox_lock_keys(keys) takes a set of keys' stripes at
-- once, in stripe order, and enqueue.sql calls it first. A producer writing multi-row INSERTs
-- of its own should too: SELECT inbox_lock_keys(ARRAY[...]) in the same transaction.
--
-- Lock ids: the two-int advisory form, class 29283 (the housekeeper and migrations use 29282),
-- object (hashtext(schema) with its low 6 bits cleared) | stripe, so two queues in one
-- database rarely share a stripe. The bodies are written with the schema's names and
-- numbers in them (no per-call search_path).
DO $def$
BEGIN
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION %1$I.inbox_key_stripe(key text) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $b$ SELECT %2$s | (hashtext(key) & 63) $b$;

        CREATE OR REPLACE FUNCTION %1$I.inbox_lock_keys(keys text[]) RETURNS integer
        LANGUAGE plpgsql AS $b$
        DECLARE
            stripe integer;
            n integer := 0;
        BEGIN
            FOR stripe IN SELECT DISTINCT %1$I.inbox_key_stripe(k) FROM unnest(keys) k ORDER BY 1
            LOOP
                PERFORM pg_advisory_xact_lock(%3$s, stripe);
                n := n + 1;
            END LOOP;
            RETURN n;
        END $b$;

        CREATE OR REPLACE FUNCTION %1$I.inbox_order_id() RETURNS trigger LANGUAGE plpgsql AS $b$
        BEGIN
            PERFORM pg_advisory_xact_lock(%3$s, %1$I.inbox_key_stripe(NEW.partition_key));
            NEW.id := nextval(%4$L::regclass);
            RETURN NEW;
        END $b$ $f$,
        current_schema(), hashtext(current_schema()) & ~63, 29283,
        pg_get_serial_sequence(format('%I.inbox', current_schema()), 'id'));
END
$def$;
-- Named to fire last of the BEFORE INSERT triggers (name order): a row inbox_done_key skips
-- takes no lock and draws no id.
CREATE TRIGGER inbox_order_id BEFORE INSERT ON inbox
    FOR EACH ROW EXECUTE FUNCTION inbox_order_id();
ALTER TABLE inbox ALTER COLUMN id DROP DEFAULT;
