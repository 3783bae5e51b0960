-- housekeep.sql — one housekeeping round by worker $1, in one statement (one transaction)
-- under pg_try_advisory_xact_lock, so at most one housekeeper acts at a time: workers alive
-- past their TTL become 'dead' (not until the server has been up for a TTL: a restart cuts
-- every heartbeat, and a worker is not dead for that); claimed rows past their lease go back
-- to pending (run_at kept after a first claim: redone first; run_at = now() once claimed
-- twice: behind the waiting rows), or to 'failed' when out of attempts
-- (handler starts >= $2) or out of claims (>= $3: workers keep dying before they start it).
-- A claim whose worker died while another row of its batch (same claimed_by and claimed_at:
-- one lease) was in its handler, started under that lease (start.sql) and unfinished, does not
-- end a row by the claim cap: that row is the likely culprit and was charged an attempt, so
-- the forgiven deaths are bounded by the attempts (without this, the rows behind two poison
-- rows in a batch at max attempts 1 became dead letters unrun: a fresh user).
-- The lock CTE is MATERIALIZED so it is evaluated once.
WITH lock AS MATERIALIZED (
    SELECT pg_try_advisory_xact_lock(29282, hashtext(current_schema())) AS won),
dead AS (
    UPDATE workers SET status = 'dead', dead_at = now(), dead_marked_by = $1
    WHERE status = 'alive' AND last_seen_at < now() - ttl_ms * interval '1 millisecond'
      -- after a server restart every worker had a full TTL to reconnect and heartbeat
      AND pg_postmaster_start_time() < now() - ttl_ms * interval '1 millisecond'
      AND (SELECT won FROM lock)
    RETURNING id),
lapsed AS MATERIALIZED (
    -- the leases past their expiry, through inbox_leases' index (migration 009); the row's own
    -- lease_expires_at is checked again below (it is the one extensions write first)
    SELECT l.id, l.lease_generation FROM inbox_leases l
    WHERE l.lease_expires_at < now() AND (SELECT won FROM lock)),
culprit AS (
    SELECT DISTINCT i.claimed_by, i.claimed_at FROM inbox i JOIN lapsed l USING (id, lease_generation)
    WHERE i.status = 'claimed' AND i.lease_expires_at < now()
      AND i.started_generation = i.lease_generation),
expired AS (
    UPDATE inbox
    SET state = CASE WHEN attempts >= $2::int THEN 'failed'
                     WHEN (claimed_by, claimed_at) IN (SELECT * FROM culprit) THEN 'open'
                     WHEN claims >= $3::int THEN 'failed'
                     ELSE 'open' END,
        -- after its first claim the row keeps run_at: it was due, so it is redone before the
        -- rows behind it, not after the whole backlog (issue 11, target 8); a row whose
        -- claimers keep dying (claims >= 2) goes behind the waiting rows (run_at = now()), so
        -- it cannot keep taking batch-mates down with it at the head of the queue
        run_at = CASE WHEN claims >= 2 THEN now() ELSE run_at END,
        claimed_by = NULL, lease_expires_at = NULL,
        last_error = CASE WHEN attempts >= $2::int OR claims < $3::int
                            OR (claimed_by, claimed_at) IN (SELECT * FROM culprit)
                          THEN 'lease expired'
                          ELSE 'lease expired; claimed ' || claims
                               || CASE WHEN claims = 1 THEN ' time' ELSE ' times' END
                               || ' by workers that died'
                          END
    FROM lapsed
    WHERE inbox.id = lapsed.id AND inbox.lease_generation = lapsed.lease_generation
      AND inbox.status = 'claimed' AND inbox.lease_expires_at < now()
    RETURNING inbox.id, inbox.lease_generation, inbox.status),
unleased AS (
    -- the reclaimed rows' leases, and lapsed lease rows whose lease ended otherwise
    DELETE FROM inbox_leases l USING lapsed
    WHERE l.id = lapsed.id AND l.lease_generation = lapsed.lease_generation
      AND ((lapsed.id, lapsed.lease_generation) IN (SELECT id, lease_generation FROM expired)
           OR NOT EXISTS (SELECT 1 FROM inbox i
                          WHERE i.id = lapsed.id AND i.lease_generation = lapsed.lease_generation
                            AND i.status = 'claimed')))
SELECT (SELECT won FROM lock),
       (SELECT count(*) FROM dead),
       (SELECT count(*) FROM expired WHERE status = 'pending'),
       (SELECT count(*) FROM expired WHERE status = 'failed'),
       (SELECT string_agg(id, ',' ORDER BY id) FROM dead)
