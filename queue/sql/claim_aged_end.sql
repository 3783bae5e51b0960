-- claim_aged_end.sql — claim_lease.sql's last two columns in affinity's claim with the age
-- scan (the library puts this in at its @AGE_SCAN_END@ mark; every other claim has two NULLs
-- there): where claim_aged.sql's read of the oldest rows ended when it was full
-- (age_scan_end: run_at in microseconds since 1970, id), the same on every row; NULL when the
-- read held fewer than the rows it asked for.
(SELECT e.us FROM age_scan_end e), (SELECT e.id FROM age_scan_end e)
