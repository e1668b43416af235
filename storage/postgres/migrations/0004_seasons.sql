-- The ladders of the seasons (storage.Profile with a Season), as profiles
-- holds the all-time ones: season is rating.Season's number (year·4 +
-- quarter − 1).
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
-- A mark for the process that opens the database next: it fills the
-- seasons' ladders from the finished games (storage.Core.RebuildSeasons),
-- in the transaction that deletes the mark, once.
CREATE TABLE season_rebuild (pending boolean PRIMARY KEY);
INSERT INTO season_rebuild VALUES (true);
