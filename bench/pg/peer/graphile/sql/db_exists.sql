-- Whether database $1 exists (the driver creates it otherwise).
SELECT count(*) AS n FROM pg_database WHERE datname = $1;
