-- schema_state.sql — is the queue there (queue_config), and does it record its migrations
-- (schema_migrations; a queue made by main at 7f57670 has no such table and counts as
-- version 1)?
SELECT to_regclass('queue_config') IS NOT NULL, to_regclass('schema_migrations') IS NOT NULL
