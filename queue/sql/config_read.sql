-- config_read.sql — the queue's recorded ring parameters.
SELECT n_buckets, bucket_hash, hash_seed::text, ring_hash, algo, n_vnodes FROM queue_config
