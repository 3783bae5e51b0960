-- counts.sql — rows by status, effects, workers by status (live = alive and heartbeat within
-- its TTL by the database clock), and pending rows blocked behind a dead letter of their key
-- (ordered mode, block policy).
SELECT (SELECT count(*) FROM inbox WHERE status = 'pending'),
       (SELECT count(*) FROM inbox WHERE status = 'claimed'),
       (SELECT count(*) FROM inbox_done),
       (SELECT count(*) FROM inbox WHERE state = 'failed'),
       (SELECT count(*) FROM effects),
       (SELECT count(*) FROM workers WHERE status = 'alive'),
       (SELECT count(*) FROM workers
        WHERE status = 'alive' AND last_seen_at > now() - ttl_ms * interval '1 millisecond'),
       (SELECT count(*) FROM workers WHERE status = 'dead'),
       (SELECT count(*) FROM workers WHERE status = 'left'),
       (SELECT count(*) FROM inbox p WHERE p.status = 'pending'
          AND EXISTS (SELECT 1 FROM inbox f WHERE f.partition_key = p.partition_key
                        AND f.id < p.id AND f.state = 'failed'))
