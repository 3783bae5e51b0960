-- claim_window.sql — ordered mode's claim for a worker that owns every bucket (the only live
-- member it sees, e.g. one worker): the oldest claimable rows of the whole queue, in the
-- global (run_at, id) order competing consumers claim in, each taken only with every older
-- row of its key that still blocks it. The walk over the owned buckets (claim_walk.sql with
-- claim_run.sql) would take a run of one key's rows, scattered over the heap (a row of a
-- key every few hundred ids), where this takes a batch of neighbouring rows, a few heap and
-- index pages, as competing does (bench/pg/README.md, "Ordered mode with every bucket").
-- window: up to $2 rows in (run_at, id) order (index inbox_pending_run_at) that are
-- pending and due, of live worker $1 of incarnation $4, each locked (FOR UPDATE SKIP
-- LOCKED), and that pass the guard: no older row of the key is in a blocking status
-- (the BLOCKING mark: the dead-letter policy's literal list, as in claim_ordered.sql) unless it
-- is itself pending, due and earlier in this order, so it can be in the window
-- too. A key blocked at its oldest row (claimed elsewhere, a dead letter, a retry not yet
-- due) is passed over after one index entry, and the window fills from other keys.
-- picked: the window's rows none of whose key's older blocking rows is outside the window
-- (one that another session holds, or that failed the guard for a reason of its own): a
-- key's rows in the batch are then always its oldest blocking rows, in id order, which the
-- worker runs in id order and holds back after a failure as for a run (queue/worker.c). The
-- window's first row is the oldest blocking row of its key (an older one would pass the
-- guard and come first), so it is picked: a window takes at least one row unless another
-- session holds rows (a claim is never starved by keys that are passed over).
-- The guard and the check of picked are LATERALs with LIMIT 1, not NOT EXISTS: as an anti
-- join, the generic plan could hash every blocking row of the queue and join it to every
-- pending row before the sort and the LIMIT (3.7 s for 32 rows over 20,000 pending rows of
-- 200 keys, one with 30% of them, analyzed; 51 ms for picked's over 137,000 rows). A LATERAL
-- with LIMIT 1 is a probe per row under any plan.
-- Cost: one guard probe of inbox_blocking_key per row read, which reads the key's older
-- rows in the window (under Zipf s = 1 over 10,000 keys, about 3 in a batch of 32; at most
-- $2 - 1); O($2 + rows passed over).
-- claim_lease.sql, appended at load time, leases the picked rows ($3 ms) and returns them.
WITH window_rows AS MATERIALIZED (
    SELECT c.id, c.partition_key FROM inbox c
    LEFT JOIN LATERAL (
        SELECT 1 AS found FROM inbox older
        WHERE older.partition_key = c.partition_key AND older.id < c.id
          AND older.state IN (@BLOCKING@)
          AND NOT (older.status = 'pending' AND older.run_at <= now()
                   AND (older.run_at, older.id) < (c.run_at, c.id))
        LIMIT 1) blocker ON true
    WHERE c.state = 'open' AND c.claimed_by IS NULL AND c.run_at <= now()
      AND EXISTS (SELECT 1 FROM workers w
                  WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
      AND blocker.found IS NULL
    ORDER BY c.run_at, c.id LIMIT $2 FOR UPDATE OF c SKIP LOCKED),
window_ids AS MATERIALIZED (SELECT array_agg(id) AS ids FROM window_rows),
picked AS MATERIALIZED (
    SELECT w.id, false AS aged FROM window_rows w CROSS JOIN window_ids
    LEFT JOIN LATERAL (SELECT 1 AS found FROM inbox older
                       WHERE older.partition_key = w.partition_key AND older.id < w.id
                         AND older.state IN (@BLOCKING@)
                         AND older.id <> ALL (window_ids.ids)
                       LIMIT 1) outside ON true
    WHERE outside.found IS NULL)
