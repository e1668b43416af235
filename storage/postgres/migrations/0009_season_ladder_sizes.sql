-- The number of profiles on each season's ladder, kept by the insert of
-- every new season profile as ladder_sizes keeps the all-time ones, so
-- that a page of a season's leaderboard does not count the whole ladder.
CREATE TABLE season_ladder_sizes (
    guild  text     NOT NULL,
    season integer  NOT NULL,
    ladder smallint NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (guild, season, ladder)
);
INSERT INTO season_ladder_sizes (guild, season, ladder, n)
    SELECT guild, season, ladder, count(*) FROM season_profiles GROUP BY guild, season, ladder;
