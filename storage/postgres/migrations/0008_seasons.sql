-- The ladders of the seasons (storage.Profile with a Season), as profiles
-- holds the all-time ones: season is rating.Season's number (year·4 +
-- quarter − 1). The season under way starts empty on upgrade: games that
-- ended before it count on the all-time ladders only.
CREATE TABLE season_profiles (
    guild    text     NOT NULL,
    season   integer  NOT NULL,
    ladder   smallint NOT NULL,
    player   text     NOT NULL,
    rank_key bytea    NOT NULL,
    data     text     NOT NULL,
    PRIMARY KEY (guild, season, ladder, player)
);
CREATE INDEX season_profiles_rank ON season_profiles (guild, season, ladder, rank_key);
