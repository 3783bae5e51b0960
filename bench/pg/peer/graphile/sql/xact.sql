-- Transactions committed and rolled back in database $1 so far (every session of it). Read
-- from another database, so the reader's own transactions do not count; each call is its own
-- transaction, so the statistics snapshot is fresh.
SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1;
