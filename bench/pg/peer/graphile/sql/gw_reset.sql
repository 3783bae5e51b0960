-- An empty graphile-worker queue before a fill (jobs of an aborted earlier drain included).
TRUNCATE graphile_worker._private_jobs;
