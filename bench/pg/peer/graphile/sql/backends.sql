-- Client sessions connected to database $1 other than the caller's (0: every worker's backend
-- has exited, so its statistics are flushed). Autovacuum workers do not count.
SELECT count(*) AS n
FROM pg_stat_activity
WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend';
