-- The server the drains run on, recorded with the results.
SELECT current_setting('server_version') AS server_version,
       current_setting('fsync') AS fsync,
       current_setting('synchronous_commit') AS synchronous_commit,
       current_setting('full_page_writes') AS full_page_writes,
       current_setting('max_connections') AS max_connections;
