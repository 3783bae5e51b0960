-- leave.sql — worker $1 leaves the membership gracefully.
UPDATE workers SET status = 'left' WHERE id = $1 AND status = 'alive'
