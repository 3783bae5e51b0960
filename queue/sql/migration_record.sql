-- migration_record.sql — migration $1 (version) named $2 was applied in this transaction.
INSERT INTO schema_migrations (version, name) VALUES ($1, $2)
