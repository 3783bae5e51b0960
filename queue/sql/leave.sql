-- leave.sql — worker $1, incarnation $2, leaves the membership gracefully (a dead or replaced
-- incarnation changes nothing).
UPDATE workers SET status = 'left' WHERE id = $1 AND incarnation = $2 AND status = 'alive'
