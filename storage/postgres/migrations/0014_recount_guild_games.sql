-- The guilds' counts of active games counted again from the games. Before
-- this release, two starts of a game in one channel that committed at
-- once both succeeded (the later one replaced the earlier game) and both
-- were counted, so /kulami games said one game more than it listed; a
-- start now inserts its row and fails on such a conflict (see PutGame).
-- A database that met the race keeps its games (the replaced one is
-- lost) with a count one too high per race; this makes each count that of
-- the guild's rows again, as 0012 first made it.
DELETE FROM guild_games;
INSERT INTO guild_games (guild, stripe, n)
    SELECT guild, id % 16, count(*) FROM active WHERE kind = 0 GROUP BY guild, id % 16;
