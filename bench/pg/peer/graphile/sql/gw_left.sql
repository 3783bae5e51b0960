-- Jobs still in the graphile-worker queue after a drain (completed jobs are deleted), and how
-- many of them carry an error (a failed attempt): both must be 0.
SELECT count(*) AS n_left, count(*) FILTER (WHERE last_error IS NOT NULL) AS n_errored
FROM graphile_worker._private_jobs;
