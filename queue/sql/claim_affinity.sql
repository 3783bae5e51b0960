-- claim_affinity.sql — the rows to claim (bucket affinity): the rows of the walk over the
-- owned buckets (claim_walk.sql, put in at the mark by the library), at most $2; none of them
-- picked for its age (aged false: that is claim_aged.sql, which the library sends instead
-- when the worker's age scan runs).
-- claim_lease.sql, appended at load time, leases them ($3 ms) and returns them.
-- The MATERIALIZED CTE bounds the rows locked to $2 under every plan.
WITH picked AS MATERIALIZED (
    SELECT walked.id, false AS aged FROM (
@WALK@) walked)
