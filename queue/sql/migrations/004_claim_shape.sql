-- 004_claim_shape.sql — issue 11: claims that cost O(batch) and order by commit. Additive: no
-- row or value of an older queue changes.

-- Order by commit (target 5): the transaction that inserted the row. Ordered claims take a
-- row only once every transaction older than its inserter has ended (its xid is below the
-- snapshot's xmin), so a row is never processed while an earlier-inserted row of its key
-- may still be uncommitted (the guard cannot see an uncommitted row). Rows of an older
-- queue have NULL: inserted long ago, committed.
ALTER TABLE inbox ADD COLUMN IF NOT EXISTS inserted_xid xid8;
ALTER TABLE inbox ALTER COLUMN inserted_xid SET DEFAULT pg_current_xact_id();
