-- schema_version.sql — the highest migration applied to this schema (0: none yet).
SELECT coalesce(max(version), 0) FROM schema_migrations
