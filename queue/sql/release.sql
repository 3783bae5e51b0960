-- release.sql — give row $1 (generation $2, worker $3) back as pending now, fenced.
WITH unleased AS (
    DELETE FROM inbox_leases
    WHERE id = $1 AND lease_generation = $2
      AND EXISTS (SELECT 1 FROM inbox WHERE id = $1 AND lease_generation = $2
                                        AND claimed_by = $3 AND status = 'claimed'))
UPDATE inbox SET claimed_by = NULL, lease_expires_at = NULL
WHERE id = $1 AND lease_generation = $2 AND claimed_by = $3 AND status = 'claimed'
