-- The people who play each active game, by color (storage.PlayerUsers:
-- a person's user ID, NULL for the computer and in a challenge's row),
-- so that a player's games (storage.Tx.PlayerGames: /kulami games
-- mine:true, a vacation, a change of where one lives) are found by the
-- indexes active_red_user and active_black_user instead of a scan that
-- casts every active row's JSON. The statements that write a game set
-- them from the game (PutGame); here they are filled from the JSON of the
-- games stored (the stored form of storage.EncodeGame: the players are
-- data.players[0] and [1], "ai" set for the computer). IF NOT EXISTS: a
-- test of the earlier migrations runs them again over a schema that has
-- these columns.
ALTER TABLE active ADD COLUMN IF NOT EXISTS red_user text, ADD COLUMN IF NOT EXISTS black_user text;
UPDATE active SET
    red_user = CASE WHEN coalesce((data::jsonb)->'data'->'players'->0->>'ai', '') = ''
        THEN (data::jsonb)->'data'->'players'->0->>'user' END,
    black_user = CASE WHEN coalesce((data::jsonb)->'data'->'players'->1->>'ai', '') = ''
        THEN (data::jsonb)->'data'->'players'->1->>'user' END
    WHERE kind = 0;
CREATE INDEX IF NOT EXISTS active_red_user ON active (red_user);
CREATE INDEX IF NOT EXISTS active_black_user ON active (black_user);
