-- publish_view.sql — worker $1 (incarnation $4) publishes the live membership $2 (text[]) it
-- built its ring from and the buckets $3 (int[]) it owns on that ring.
UPDATE workers SET view_members = $2, owned_buckets = $3, view_at = now()
WHERE id = $1 AND incarnation = $4
