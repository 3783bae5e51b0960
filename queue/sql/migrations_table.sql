-- migrations_table.sql — the schema version table (as river and pgmq keep one): one row per
-- migration applied, created before the first migration runs.
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
