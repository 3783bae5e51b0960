-- claim_competing.sql — the rows to claim (competing consumers: any row): up to $2 pending
-- rows whose run_at has come, for worker $1 of incarnation $4, in (run_at, id) order from the
-- front, or from the head when $5 is true. claim_lease.sql, appended at load time, leases them
-- ($3 ms) and returns them.
-- Why a front: a claim is a HOT update that writes no indexed column (migration 009), so the
-- rows in flight keep their entries in inbox_pending_run_at, at its head, and a read from the
-- head visits each of them (a heap fetch to see claimed_by) before it reaches a free row: W x
-- batch fetches a claim, 256 at W 8 batch 32 (buffers/row 75-88 against 56-63 before 009;
-- bench/pg/README.md, "Target 1 after migration 009").
-- front: where the rows in flight end, as the place in the (run_at, id) order of the row in
-- flight with the highest id (inbox_leases holds one row per row in flight: its primary key,
-- read backwards, gives it in one descent). Every row in flight is at or before the newest one
-- claimed, and a read in (run_at, id) order claims a row only once every open row before it
-- was claimed or locked, so the open rows before the front are in flight, except rows given
-- back since (released, reclaimed after their lease lapsed, a claim rolled back) and rows
-- committed late with an earlier run_at. No front (from the head, or nothing in flight): the
-- read starts at the head.
-- ahead: the free rows after the front, oldest first, at most $2; behind: the free rows at or
-- before it, read only when ahead did not fill the batch (Append runs its second arm only
-- when the LIMIT above still wants rows). The rows given back before the front wait for the
-- library's read from the head ($5 true: every 100 ms per worker, queue.c,
-- competing_head_plan) or for a claim that finds too few rows ahead.
-- The MATERIALIZED CTEs bound the rows locked to $2 under every plan; SKIP LOCKED lets
-- concurrent claims pass each other. A dead or replaced incarnation claims nothing.
WITH front AS MATERIALIZED (
    SELECT f.run_at, f.id FROM inbox f
    WHERE NOT $5::boolean AND f.id = (SELECT max(l.id) FROM inbox_leases l)),
picked AS MATERIALIZED (
    SELECT p.id, false AS aged FROM (
        SELECT ahead.id FROM (
            SELECT a.id FROM inbox a
            WHERE a.state = 'open' AND a.claimed_by IS NULL AND a.run_at <= now()
              AND (a.run_at, a.id) > (coalesce((SELECT run_at FROM front), '-infinity'),
                                      coalesce((SELECT id FROM front), 0))
              AND EXISTS (SELECT 1 FROM workers w
                          WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
            ORDER BY a.run_at, a.id LIMIT $2 FOR UPDATE SKIP LOCKED) ahead
        UNION ALL
        SELECT behind.id FROM (
            SELECT b.id FROM inbox b
            WHERE b.state = 'open' AND b.claimed_by IS NULL AND b.run_at <= now()
              AND (b.run_at, b.id) <= (coalesce((SELECT run_at FROM front), '-infinity'),
                                       coalesce((SELECT id FROM front), 0))
              AND EXISTS (SELECT 1 FROM workers w
                          WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
            ORDER BY b.run_at, b.id LIMIT $2 FOR UPDATE SKIP LOCKED) behind) p
    LIMIT $2)
