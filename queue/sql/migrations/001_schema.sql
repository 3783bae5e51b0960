-- queue/schema.sql — the ringbench queue schema. Idempotent: `ringbench pg migrate` runs it in
-- one transaction, under an advisory lock, with search_path set to the queue's schema and the
-- bucket-count marker (N_BUCKETS between at signs) replaced by B (the bucket count, fixed at the first migrate and kept in
-- queue_config). Every time column is timestamptz written from the database clock (now()).

-- One row: the ring parameters every producer and worker of this queue shares.
CREATE TABLE IF NOT EXISTS queue_config (
    one         boolean PRIMARY KEY DEFAULT true CHECK (one),
    n_buckets   integer NOT NULL CHECK (n_buckets >= 1),
    bucket_hash text    NOT NULL, -- key -> bucket hash (ringbench/hash.h name)
    ring_hash   text    NOT NULL, -- default ring hash for workers
    hash_seed   numeric NOT NULL, -- seed of both hashes (uint64)
    algo        text    NOT NULL, -- default ring algorithm for workers
    n_vnodes    integer NOT NULL CHECK (n_vnodes >= 1),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- The live registry: one row per worker process incarnation.
CREATE TABLE IF NOT EXISTS workers (
    id             text PRIMARY KEY,                -- hostname:pid:random, unique per incarnation
    status         text NOT NULL DEFAULT 'alive' CHECK (status IN ('alive', 'dead', 'left')),
    started_at     timestamptz NOT NULL DEFAULT now(),
    last_seen_at   timestamptz NOT NULL DEFAULT now(), -- heartbeat (database clock)
    dead_at        timestamptz,                     -- when a housekeeper marked it dead
    dead_marked_by text,                            -- which housekeeper did
    ttl_ms         integer NOT NULL CHECK (ttl_ms > 0),
    mode           text NOT NULL,                   -- competing | affinity | ordered
    view_members   text[],                          -- live membership it last built its ring from
    owned_buckets  integer[],                       -- buckets it owns on that ring (affinity modes)
    view_at        timestamptz
);
CREATE INDEX IF NOT EXISTS workers_live ON workers (last_seen_at) WHERE status = 'alive';

CREATE TABLE IF NOT EXISTS inbox (
    id               bigserial PRIMARY KEY,
    partition_key    text    NOT NULL,
    partition_bucket integer NOT NULL CONSTRAINT inbox_partition_bucket_range
                             CHECK (partition_bucket >= 0 AND partition_bucket < @N_BUCKETS@),
    idempotency_key  text    NOT NULL CONSTRAINT inbox_idempotency_key_unique UNIQUE,
    payload          text,
    status           text    NOT NULL DEFAULT 'pending'
                             CHECK (status IN ('pending', 'claimed', 'done', 'failed')),
    claimed_by       text,
    claimed_at       timestamptz,
    lease_expires_at timestamptz,
    lease_generation bigint  NOT NULL DEFAULT 0, -- fencing token: +1 on every claim
    attempts         integer NOT NULL DEFAULT 0,
    last_error       text,
    run_at           timestamptz NOT NULL DEFAULT now(),
    created_at       timestamptz NOT NULL DEFAULT now(),
    completed_at     timestamptz,
    CHECK ((status = 'claimed') = (claimed_by IS NOT NULL AND lease_expires_at IS NOT NULL))
);
-- Claims (all modes): pending rows in (run_at, id) order; affinity adds the bucket.
CREATE INDEX IF NOT EXISTS inbox_pending_run_at ON inbox (run_at, id) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS inbox_pending_bucket ON inbox (partition_bucket, run_at, id)
    WHERE status = 'pending';
-- Ordering guard: an older unfinished row with the same partition_key.
CREATE INDEX IF NOT EXISTS inbox_unfinished_key ON inbox (partition_key, id)
    WHERE status IN ('pending', 'claimed');
-- Housekeeping: expired leases.
CREATE INDEX IF NOT EXISTS inbox_claimed_lease ON inbox (lease_expires_at) WHERE status = 'claimed';

-- Effects: written in the same statement (transaction) as the completion, keyed by the
-- idempotency key, so an effect happens exactly once. seq gives the commit order of effects.
CREATE TABLE IF NOT EXISTS effects (
    idempotency_key  text PRIMARY KEY,
    seq              bigserial NOT NULL,
    inbox_id         bigint NOT NULL,
    partition_key    text   NOT NULL,
    lease_generation bigint NOT NULL,
    worker_id        text   NOT NULL,
    effect           text,
    created_at       timestamptz NOT NULL DEFAULT now()
);
