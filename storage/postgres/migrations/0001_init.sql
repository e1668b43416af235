-- The first schema of kulami on PostgreSQL. Values are the JSON that the
-- bbolt backend stores ({"v":1,"data":{...}}), in text columns; the
-- columns beside them are what queries select and order by. Times are
-- Unix nanoseconds (bigint), so that they order exactly as Go's times do.

CREATE SEQUENCE game_ids;
CREATE SEQUENCE challenge_ids;

-- The active game or the open challenge of each channel: one row a
-- channel, so that a channel never holds both. kind is 0 for a game, 1 for
-- a challenge (storage.WakeKind); wake_at indexes it for the scheduler.
CREATE TABLE active (
    channel       text     PRIMARY KEY,
    kind          smallint NOT NULL,
    id            bigint   NOT NULL,
    guild         text     NOT NULL,
    ply           integer  NOT NULL,
    board_message text     NOT NULL,
    wake_at       bigint,
    data          text     NOT NULL
);
CREATE INDEX active_wake ON active (wake_at);
CREATE INDEX active_guild ON active (guild, kind, id);

CREATE TABLE finished (
    guild   text   NOT NULL,
    id      bigint NOT NULL,
    channel text   NOT NULL,
    end_at  bigint NOT NULL,
    data    text   NOT NULL,
    PRIMARY KEY (guild, id)
);
CREATE INDEX finished_channel ON finished (guild, channel, id);

CREATE TABLE history (
    guild   text   NOT NULL,
    player  text   NOT NULL,
    end_at  bigint NOT NULL,
    game_id bigint NOT NULL,
    data    text   NOT NULL,
    PRIMARY KEY (guild, player, end_at, game_id)
);

-- rank_key is storage.Profile.RankKey: leaderboards order by its bytes.
CREATE TABLE profiles (
    guild    text     NOT NULL,
    ladder   smallint NOT NULL,
    player   text     NOT NULL,
    rank_key bytea    NOT NULL,
    data     text     NOT NULL,
    PRIMARY KEY (guild, ladder, player)
);
CREATE INDEX profiles_rank ON profiles (guild, ladder, rank_key);

CREATE TABLE guild_settings (
    guild text PRIMARY KEY,
    data  text NOT NULL
);

CREATE TABLE user_settings (
    user_id text PRIMARY KEY,
    data    text NOT NULL
);

CREATE TABLE reviews (
    guild   text   NOT NULL,
    game_id bigint NOT NULL,
    data    text   NOT NULL,
    PRIMARY KEY (guild, game_id)
);

-- When the bot was last alive: one row, id 1.
CREATE TABLE alive (
    id integer PRIMARY KEY,
    at bigint  NOT NULL
);
