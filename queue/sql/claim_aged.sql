-- claim_aged.sql — affinity's claim with the age scan (the library sends it instead of
-- claim_affinity.sql when the scan runs: queue.c, age_scan_plan): the rows to claim, at most
-- $2: first the owned rows that have waited past the age bound, oldest first; then the walk
-- over the owned buckets (claim_walk.sql, put in at the mark by the library) fills the batch.
-- Why the age bound: the walk serves the owned buckets in turn, at most $2 rows from each, so
-- under a standing backlog a bucket gets its turn's share whatever it receives: a bucket with
-- a hot key (Zipf keys) fell ever further behind while the others' younger rows ran. In the
-- soak (4 workers, batch 8, 20,000 pending rows kept) its oldest row had waited 92 s after
-- 300 s, and those few old rows kept the inbox's index pages alive (indexes 81 -> 145 MB in
-- 4 minutes; bench/pg/README.md, "The age bound"). With the bound, no owned row waits more
-- than about the bound while younger owned rows are claimed.
-- aged: the oldest pending rows of any bucket whose run_at is more than $6 ms ago, at most $7
-- of them (the library passes about 2 x $2 x the number of workers, so a worker finds its
-- share), read from inbox_pending_run_at at (run_at, id) >= ($8 microseconds since 1970, $9),
-- or from its head when $8 is NULL: O($7) whatever the backlog, and one index descent that
-- finds nothing while no row is that old. The library starts a scan at the newest row its
-- last claim took for its age, or where its read ended (age_scan_end, below), from the head
-- now and then, otherwise
-- sends claim_affinity.sql (queue.c, age_scan_plan): the entries before that start are other
-- workers' rows or rows claimed since the last vacuum (reading them again on every claim cost
-- 195 index pages a claim in the soak), and this statement's plan, sent on every claim, cost
-- 60-100 us a claim at batch 1 (bench/pg/README.md, "The age bound").
-- rescued: those of them in the owned buckets, oldest first, each locked through a
-- primary-key probe (a LATERAL, pulled one at a time up to $2: O($2) under any plan; SKIP
-- LOCKED; status and run_at rechecked on the locked row). The owned buckets are read once into
-- an array (an InitPlan): `= ANY (w.owned_buckets)` in a join read the stored array (out of
-- line at 256-1,024 elements) again for every aged row, 61 of a claim's 324 buffers. Written
-- as `id = ANY (...) ORDER BY run_at, id LIMIT $2`, the lock step was planned, on a table not
-- yet analyzed, as a scan of every due pending row filtered by id (5,000 rows for 16).
-- picked: rescued, then the walk's rows not rescued, at most $2 in all; `aged` tells the
-- library which rows were rescued (they do not move the walk's position: queue.c,
-- walk_next_start).
-- age_scan_end: where the read of aged ended, its newest entry, when it read all $7 (there
-- may be more past the bound beyond it), else none; claim_lease.sql returns it on every row
-- (the library's next scan goes on from there when this one did not fill the batch with
-- aged rows: queue.c, age_scan_next). Without it a read that held none of the worker's rows
-- (a lagging peer's at the head) left no start, and the worker's rows past the bound waited
-- for the next scan from the head while the walk served younger ones.
-- claim_lease.sql, appended at load time, leases them ($3 ms) and returns them.
-- The MATERIALIZED CTEs bound the rows locked to $2 under every plan.
WITH aged AS MATERIALIZED (
    SELECT a.id, a.partition_bucket, a.run_at FROM inbox a
    WHERE a.state = 'open' AND a.claimed_by IS NULL
      AND a.run_at <= now() - $6::bigint * interval '1 millisecond'
      AND (a.run_at, a.id) >= (coalesce('epoch'::timestamptz + $8::bigint * interval '1 microsecond',
                                        '-infinity'), $9::bigint)
    ORDER BY a.run_at, a.id LIMIT $7),
age_scan_end AS MATERIALIZED (
    SELECT (extract(epoch FROM e.run_at) * 1000000)::bigint AS us, e.id FROM aged e
    WHERE (SELECT count(*) FROM aged) = $7
    ORDER BY e.run_at DESC, e.id DESC LIMIT 1),
rescued AS MATERIALIZED (
    SELECT l.id
    FROM unnest(ARRAY(
             SELECT aged.id FROM aged
             WHERE aged.partition_bucket = ANY (ARRAY(
                 SELECT unnest(w.owned_buckets) FROM workers w
                 WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive'))
             ORDER BY aged.run_at, aged.id)) AS c(id)
    CROSS JOIN LATERAL (
        SELECT r.id FROM inbox r
        WHERE r.id = c.id AND r.status = 'pending' AND r.run_at <= now()
        FOR UPDATE SKIP LOCKED) l
    LIMIT $2),
picked AS MATERIALIZED (
    SELECT id, true AS aged FROM rescued
    UNION ALL
    (SELECT walked.id, false FROM (
@WALK@) walked
     WHERE walked.id <> ALL (ARRAY(SELECT id FROM rescued))
     LIMIT $2 - (SELECT count(*) FROM rescued)))
