-- The tournaments of guilds (storage.Tournament): one row a tournament,
-- data its stored form, wake_at its wake (Unix nanoseconds, NULL for
-- none), which the scheduler reads with the wakes of the table active.
CREATE SEQUENCE tournament_ids;

CREATE TABLE tournaments (
    guild   text   NOT NULL,
    id      bigint NOT NULL,
    wake_at bigint,
    data    text   NOT NULL,
    PRIMARY KEY (guild, id)
);
CREATE INDEX tournaments_wake ON tournaments (wake_at);
