-- The interactions delivered lately over HTTP (Store.FirstDelivery), so
-- that a signed request replayed to another process sharing the database
-- is refused as it is by the process that took it first. at is when it
-- came (Unix nanoseconds); rows older than the bots keep them are pruned.
CREATE TABLE deliveries (
    id text   PRIMARY KEY,
    at bigint NOT NULL
);
CREATE INDEX deliveries_at ON deliveries (at);
