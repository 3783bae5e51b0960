-- After a fill: no dead tuples, fresh statistics (as `pg bench` does after its fill).
VACUUM ANALYZE inbox, effects;
