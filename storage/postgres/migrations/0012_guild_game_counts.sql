-- IF NOT EXISTS and the DELETE: a test of the earlier migrations runs
-- them again over a schema that has this table.
--
-- The number of active games of each guild, kept by every start and end
-- of a game (PutGame of a channel without a game, DeleteGame) in the same
-- statement, so that /kulami games does not count the guild's rows. Each
-- guild's count is split over 16 stripes (the game's ID mod 16), summed
-- on read, so that games starting and ending at once in one guild do not
-- all wait for one row.
CREATE TABLE IF NOT EXISTS guild_games (
    guild  text     NOT NULL,
    stripe smallint NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (guild, stripe)
);
DELETE FROM guild_games;
INSERT INTO guild_games (guild, stripe, n)
    SELECT guild, id % 16, count(*) FROM active WHERE kind = 0 GROUP BY guild, id % 16;
