-- IF NOT EXISTS: a test of the earlier migrations runs them again over
-- a schema that has these tables.
--
-- The puzzles (storage.PuzzleEntry) and what the players did with them.
-- rating is the puzzle's Glicko-2 rating now, start_rating its starting
-- difficulty (the daily puzzle's band); data the entry in the stored
-- encoding.
CREATE TABLE IF NOT EXISTS puzzles (
    id           text             PRIMARY KEY,
    start_rating integer          NOT NULL,
    rating       double precision NOT NULL,
    data         text             NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (rating, id COLLATE "C");
CREATE INDEX IF NOT EXISTS puzzles_start ON puzzles (start_rating, id COLLATE "C");

-- The hash of each puzzle set loaded (storage.Core.LoadPuzzles), as a
-- stored string.
CREATE TABLE IF NOT EXISTS puzzle_sets (
    name text PRIMARY KEY,
    data text NOT NULL
);

-- The players' records at puzzles, one row a user, and their places on
-- the puzzle leaderboard of each guild they did puzzles in: rank_key is
-- storage.PuzzleProfile.RankKey, n in puzzle_ladder_sizes the players
-- on a guild's.
CREATE TABLE IF NOT EXISTS puzzle_profiles (
    user_id text PRIMARY KEY,
    data    text NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_ranks (
    guild    text  NOT NULL,
    user_id  text  NOT NULL,
    rank_key bytea NOT NULL,
    PRIMARY KEY (guild, user_id)
);
CREATE INDEX IF NOT EXISTS puzzle_ranks_rank ON puzzle_ranks (guild, rank_key);
CREATE TABLE IF NOT EXISTS puzzle_ladder_sizes (
    guild text   PRIMARY KEY,
    n     bigint NOT NULL
);

-- The attempts that ended, one a user and puzzle; the attempt under way
-- of each user; the daily puzzle of each day (its key the day); the
-- daily puzzle posted in each guild (its key "guild/day").
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    user_id   text NOT NULL,
    puzzle_id text NOT NULL,
    data      text NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE TABLE IF NOT EXISTS puzzle_tries (
    user_id text PRIMARY KEY,
    data    text NOT NULL
);
CREATE TABLE IF NOT EXISTS daily_puzzles (
    day  text PRIMARY KEY,
    data text NOT NULL
);
CREATE TABLE IF NOT EXISTS daily_posts (
    post text PRIMARY KEY,
    data text NOT NULL
);
