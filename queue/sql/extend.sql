-- extend.sql — lease_expires_at = clock_timestamp() + $4 ms for row $1 (generation $2,
-- worker $3), fenced.
WITH mirrored AS (
    -- the lease row the housekeeper reads, moved on with the row's own lease (same fence)
    UPDATE inbox_leases SET lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
    WHERE id = $1 AND lease_generation = $2
      AND EXISTS (SELECT 1 FROM inbox WHERE id = $1 AND lease_generation = $2
                                        AND claimed_by = $3 AND status = 'claimed'))
UPDATE inbox SET lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
