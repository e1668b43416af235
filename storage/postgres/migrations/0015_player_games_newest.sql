-- A player's games by color and newest first: (red_user, kind, id) and
-- (black_user, kind, id) in place of active_red_user and
-- active_black_user, so that the newest page of /kulami games mine:true
-- (storage.Tx.NewestPlayerGames) reads the page's rows from two index
-- scans in the order of the IDs, and counts the player's games from the
-- indexes, instead of reading every game of the player to sort them (35
-- ms for a player of 1,086 running games in issue 41). PlayerGames finds
-- a player's games by their first column as before.
CREATE INDEX IF NOT EXISTS active_red_user_id ON active (red_user, kind, id);
CREATE INDEX IF NOT EXISTS active_black_user_id ON active (black_user, kind, id);
DROP INDEX IF EXISTS active_red_user;
DROP INDEX IF EXISTS active_black_user;
