-- claim_competing.sql — the rows to claim (competing consumers: any row): up to $2 pending
-- rows whose run_at has come, for worker $1 of incarnation $4. claim_lease.sql, appended at
-- load time, leases them ($3 ms) and returns them.
-- The MATERIALIZED CTE bounds the rows locked to $2 under every plan; SKIP LOCKED lets
-- concurrent claims pass each other. A dead or replaced incarnation claims nothing.
WITH picked AS MATERIALIZED (
    SELECT id, false AS aged FROM inbox
    WHERE state = 'open' AND claimed_by IS NULL AND run_at <= now()
      AND EXISTS (SELECT 1 FROM workers w
                  WHERE w.id = $1 AND w.incarnation = $4 AND w.status = 'alive')
    ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
