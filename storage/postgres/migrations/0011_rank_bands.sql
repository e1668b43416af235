-- The number of profiles in each band of each ladder (storage.RankBand:
-- the first bytes of the rank key), kept by every put of a profile, so
-- that a leaderboard page far down a ladder is found by adding up the
-- bands before it and skipping within one band, instead of skipping
-- every rank before it. season is 0 for the all-time ladders.
CREATE TABLE rank_bands (
    guild  text     NOT NULL,
    season integer  NOT NULL,
    ladder smallint NOT NULL,
    band   bytea    NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (guild, season, ladder, band)
);
INSERT INTO rank_bands (guild, season, ladder, band, n)
    SELECT guild, 0, ladder, substring(rank_key FROM 1 FOR 3), count(*) FROM profiles
    GROUP BY guild, ladder, substring(rank_key FROM 1 FOR 3);
INSERT INTO rank_bands (guild, season, ladder, band, n)
    SELECT guild, season, ladder, substring(rank_key FROM 1 FOR 3), count(*) FROM season_profiles
    GROUP BY guild, season, ladder, substring(rank_key FROM 1 FOR 3);
