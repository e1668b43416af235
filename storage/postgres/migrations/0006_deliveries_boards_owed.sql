-- The interactions delivered lately over HTTP (Store.FirstDelivery), so
-- that a signed request replayed to another process sharing the database
-- is refused as it is by the process that took it first. at is when it
-- came (Unix nanoseconds); rows older than the bots keep them are pruned.
CREATE TABLE deliveries (
    id text   PRIMARY KEY,
    at bigint NOT NULL
);
CREATE INDEX deliveries_at ON deliveries (at);

-- The wake of a game once its board is noted (Store.NoteBoard): a board
-- noted pays the board owed (storage.Game.BoardDue), so NoteBoard sets
-- wake_at to it in the same UPDATE. Rows of before have no board owed by
-- their last change, so their wake is the one they have.
ALTER TABLE active ADD COLUMN noted_wake bigint;
UPDATE active SET noted_wake = wake_at;

-- When the final board of a finished game is owed (storage.Core's
-- SetFinalBoard): Discord failed to post it, and the scheduler posts it
-- then. Null when nothing is owed, as for every game of before.
ALTER TABLE finished ADD COLUMN board_due bigint;
CREATE INDEX finished_board_due ON finished (board_due) WHERE board_due IS NOT NULL;
