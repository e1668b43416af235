-- The leases of processes on the work of wakes (storage.Core.Claim): the
-- last one of each game or challenge. at is the wake claimed, until when
-- the lease lapses (Unix nanoseconds).
CREATE TABLE leases (
    kind    smallint NOT NULL,
    channel text     NOT NULL,
    at      bigint   NOT NULL,
    owner   text     NOT NULL,
    until   bigint   NOT NULL,
    PRIMARY KEY (kind, channel)
);
