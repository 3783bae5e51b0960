-- incarnation.sql — the current incarnation of alive worker $1 (after a register whose reply
-- was lost to a dropped connection).
SELECT incarnation FROM workers WHERE id = $1 AND status = 'alive'
