-- After a ringbench drain: rows done, rows not done, effect rows, and rows with more than one
-- effect row (a duplicate execution that landed). Done = enqueued, effects = done, dup = 0.
SELECT (SELECT count(*) FROM inbox_done) AS n_done,
       (SELECT count(*) FROM inbox) AS n_not_done,
       (SELECT count(*) FROM effects) AS n_effects,
       (SELECT count(*) FROM (SELECT inbox_id FROM effects GROUP BY inbox_id
                              HAVING count(*) > 1) AS d) AS n_dup;
