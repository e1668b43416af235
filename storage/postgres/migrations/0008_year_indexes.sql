-- Indexes for the reads a player makes, so that they stay quick however
-- many games are stored (issue 33). The head-to-head of two players
-- counts their history entries against each other by an index-only scan
-- of history_pair: opponent is the opponent's storage.ProfileID ("ai:"
-- and the level for the computer) and outcome the entry's game.Outcome
-- ("won", "lost", "drawn", "no-contest"), both filled here from the
-- entries' data for a database of an earlier schema.
ALTER TABLE history ADD COLUMN opponent text, ADD COLUMN outcome text;
UPDATE history SET
    opponent = CASE WHEN coalesce((data::jsonb)->'data'->'opponent'->>'ai', '') <> ''
        THEN 'ai:' || ((data::jsonb)->'data'->'opponent'->>'ai')
        ELSE (data::jsonb)->'data'->'opponent'->>'user' END,
    outcome = (data::jsonb)->'data'->>'outcome';
ALTER TABLE history ALTER COLUMN opponent SET NOT NULL, ALTER COLUMN outcome SET NOT NULL;
CREATE INDEX history_pair ON history (guild, player, opponent, outcome);

-- The resume under way after an outage (storage.Resuming), which
-- storage.Core.Resume writes in batches: one row, id 1, while it runs.
CREATE TABLE resuming (
    id   integer PRIMARY KEY,
    data text    NOT NULL
);

-- The number of profiles on each ladder, kept by the insert of every new
-- profile, so that a leaderboard page does not count the whole ladder.
CREATE TABLE ladder_sizes (
    guild  text     NOT NULL,
    ladder smallint NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (guild, ladder)
);
INSERT INTO ladder_sizes (guild, ladder, n) SELECT guild, ladder, count(*) FROM profiles GROUP BY guild, ladder;
