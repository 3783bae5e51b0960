-- An empty ringbench queue before a fill (what `pg bench` does before each cell).
TRUNCATE inbox, inbox_done, inbox_leases, effects, workers RESTART IDENTITY;
