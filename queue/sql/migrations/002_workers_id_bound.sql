-- 002_workers_id_bound.sql — bound workers.id to what a worker may register (1 to 255 bytes,
-- RB_QUEUE_WORKER_ID_MAX - 1) and the ring accepts: a longer id made every worker's ring
-- build fail (issue 10, kind 11). NOT VALID: rows already there are kept (no loss); every
-- new or updated row is checked.
ALTER TABLE workers ADD CONSTRAINT workers_id_length
    CHECK (octet_length(id) BETWEEN 1 AND 255) NOT VALID;
