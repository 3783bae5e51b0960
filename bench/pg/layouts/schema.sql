-- schema.sql — four layouts of the inbox, one schema each, for scripts/pg-layouts (issue 11,
-- target 1: is affinity's deficit the layout's?). Each schema holds inbox, effects (as in
-- queue/sql/migrations) and own (the buckets each pgbench client owns). The columns and
-- indexes of inbox are those of the queue's migrations 001-008; what differs:
--   s  the queue as it is: status in the partial indexes' predicates, so neither a claim nor a
--      completion is a HOT update (each writes a new entry in every index it qualifies for);
--      done rows stay in inbox.
--   d  s, but a completion moves the row to `done` (DELETE from inbox, INSERT into done):
--      no index entry is written for a done row in inbox.
--   k  rows stay, but the claim is HOT: the predicates name `state` (open, done, failed),
--      which a claim does not change, and no index names a lease column; status is derived
--      from state and claimed_by. The expired-lease index lives in `leases` (one row per
--      leased row: inserted by the claim, deleted by the completion). fillfactor 80 leaves
--      each page room for the claims' new versions.
--   m  k, and a completion moves the row to `done` (as d).
-- Everything is created afresh (DROP ... CASCADE): run it on a database of its own.
DROP SCHEMA IF EXISTS s, d, k, m CASCADE;
CREATE SCHEMA s;
CREATE TABLE s.inbox (
    id               bigserial PRIMARY KEY,
    partition_key    text NOT NULL,
    partition_bucket integer NOT NULL,
    idempotency_key  text NOT NULL UNIQUE,
    payload          text,
    status           text NOT NULL DEFAULT 'pending',
    claimed_by       text,
    claimed_at       timestamptz,
    lease_expires_at timestamptz,
    lease_generation bigint NOT NULL DEFAULT 0,
    attempts         integer NOT NULL DEFAULT 0,
    last_error       text,
    run_at           timestamptz NOT NULL DEFAULT now(),
    created_at       timestamptz NOT NULL DEFAULT now(),
    completed_at     timestamptz,
    started_generation bigint,
    claims           integer NOT NULL DEFAULT 0);
CREATE INDEX ON s.inbox (run_at, id) WHERE status = 'pending';
CREATE INDEX ON s.inbox (partition_bucket, run_at, id) WHERE status = 'pending';
CREATE INDEX ON s.inbox (partition_key, id) WHERE status IN ('pending', 'claimed');
CREATE INDEX ON s.inbox (lease_expires_at) WHERE status = 'claimed';
CREATE INDEX ON s.inbox (partition_key, id) WHERE status IN ('pending', 'claimed', 'failed');
CREATE INDEX ON s.inbox (id) WHERE status = 'failed';
CREATE INDEX ON s.inbox (completed_at) WHERE status = 'done';
CREATE TABLE s.effects (
    idempotency_key  text PRIMARY KEY,
    seq              bigserial NOT NULL,
    inbox_id         bigint NOT NULL,
    partition_key    text NOT NULL,
    lease_generation bigint NOT NULL,
    worker_id        text NOT NULL,
    effect           text,
    created_at       timestamptz NOT NULL DEFAULT now());
CREATE TABLE s.own (client integer PRIMARY KEY, buckets integer[] NOT NULL);

CREATE SCHEMA d;
CREATE TABLE d.inbox (LIKE s.inbox INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE d.done (LIKE s.inbox);
CREATE INDEX ON d.done (completed_at);
CREATE TABLE d.effects (LIKE s.effects INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE d.own (LIKE s.own INCLUDING INDEXES);

CREATE SCHEMA k;
CREATE TABLE k.inbox (
    id               bigserial PRIMARY KEY,
    partition_key    text NOT NULL,
    partition_bucket integer NOT NULL,
    idempotency_key  text NOT NULL UNIQUE,
    payload          text,
    state            text NOT NULL DEFAULT 'open',
    claimed_by       text,
    claimed_at       timestamptz,
    lease_expires_at timestamptz,
    lease_generation bigint NOT NULL DEFAULT 0,
    attempts         integer NOT NULL DEFAULT 0,
    last_error       text,
    run_at           timestamptz NOT NULL DEFAULT now(),
    created_at       timestamptz NOT NULL DEFAULT now(),
    completed_at     timestamptz,
    started_generation bigint,
    claims           integer NOT NULL DEFAULT 0,
    status           text GENERATED ALWAYS AS (
        CASE WHEN state <> 'open' THEN state
             WHEN claimed_by IS NULL THEN 'pending' ELSE 'claimed' END) STORED)
    WITH (fillfactor = 80);
CREATE INDEX ON k.inbox (run_at, id) WHERE state = 'open';
CREATE INDEX ON k.inbox (partition_bucket, run_at, id) WHERE state = 'open';
CREATE INDEX ON k.inbox (partition_key, id) WHERE state = 'open';
CREATE INDEX ON k.inbox (partition_key, id) WHERE state IN ('open', 'failed');
CREATE INDEX ON k.inbox (id) WHERE state = 'failed';
CREATE INDEX ON k.inbox (completed_at) WHERE state = 'done';
CREATE TABLE k.leases (id bigint PRIMARY KEY, lease_expires_at timestamptz NOT NULL);
CREATE INDEX ON k.leases (lease_expires_at);
CREATE TABLE k.effects (LIKE s.effects INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE k.own (LIKE s.own INCLUDING INDEXES);

CREATE SCHEMA m;
CREATE TABLE m.inbox (LIKE k.inbox INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING INDEXES)
    WITH (fillfactor = 80);
CREATE TABLE m.done (LIKE k.inbox);
CREATE INDEX ON m.done (completed_at);
CREATE TABLE m.leases (LIKE k.leases INCLUDING INDEXES);
CREATE TABLE m.effects (LIKE s.effects INCLUDING DEFAULTS INCLUDING INDEXES);
CREATE TABLE m.own (LIKE s.own INCLUDING INDEXES);

-- Autovacuum as the queue sets it for inbox (migrations 006 and 007), on every churned table.
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['s.inbox', 'd.inbox', 'k.inbox', 'k.leases', 'm.inbox', 'm.leases']
    LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_vacuum_scale_factor = 0, '
                       'autovacuum_vacuum_threshold = 5000, autovacuum_analyze_scale_factor = 0, '
                       'autovacuum_analyze_threshold = 20000, autovacuum_vacuum_cost_delay = 0)', t);
    END LOOP;
END $$;
