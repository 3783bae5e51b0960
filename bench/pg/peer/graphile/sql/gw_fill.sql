-- The graphile-worker backlog: $1 jobs of task `noop` through graphile-worker's own bulk
-- insert, add_jobs (one statement, one transaction), payload {"key": "order:<i mod $2>"}
-- (the partition keys of the ringbench backlog); no queue_name (jobs run in parallel).
SELECT count(*)
FROM graphile_worker.add_jobs((
    SELECT array_agg(json_populate_record(NULL::graphile_worker.job_spec,
                     json_build_object('identifier', 'noop',
                                       'payload', json_build_object('key', 'order:' || (i % $2))))
                     ORDER BY i)
    FROM generate_series(0, $1::int - 1) AS i));
