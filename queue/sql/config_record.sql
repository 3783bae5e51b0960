-- config_record.sql — record the queue's ring parameters on the first migrate (B $1, bucket
-- hash $2, ring hash $3, seed $4, algorithm $5, vnodes $6); later runs keep the first.
INSERT INTO queue_config (n_buckets, bucket_hash, ring_hash, hash_seed, algo, n_vnodes)
VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
