-- An empty ringbench queue before a fill (what `pg bench` does before each cell).
TRUNCATE inbox, effects, workers RESTART IDENTITY;
