package bot

import (
	"context"
	"errors"
	"time"

	"github.com/kulami/kulami/storage"
)

// Boards that never lie. A board says whose move it is and what stops or
// pauses their clock: "due <t>", "on vacation until…", "paused for the
// weekend until…". What changes that without a move (a vacation begun or
// ended, time given, a weekend pause that begins or ends) makes the board
// due for an edit (storage.Game.BoardEdit), in the commit of the change,
// or, for a weekend, at the change's time (game.Game.PauseChange); the
// scheduler then draws the board again, as a job of class jobEdit (after
// the boards of moves and the GIF replays) and edits the message, which
// notifies nobody, as is right: nothing is asked of anyone. Time given is
// shown at once by the interaction that gives it, through the same edit.
//
// Many boards at once (a player with 500 games starts a vacation) are
// edited in batches of editsPerSecond, a batch a second (editAt), so that
// their edits leave Discord's 50 requests a second (global to the bot)
// to the moves, reminders and answers: 500 boards take 50 seconds. The
// scheduler runs at most dueAtOnce of them at a time.
//
// The board of an answer-only game (a DM, a group DM, a server without the
// bot: see courier) can be edited only through the token of the
// interaction that answered with it, for 15 minutes; after that, or after
// a restart, it stays as it was, and its Refresh button shows the game as
// it is.

// editsPerSecond is how many boards of one change are due for their edit
// in each second (editAt).
const editsPerSecond = 10

// editAt returns when the i-th board (from 0) of a change made at now is
// due for its edit: the first editsPerSecond at once, the next a second
// later, and so on.
func editAt(now time.Time, i int) time.Time {
	return now.Add(time.Duration(i/editsPerSecond) * time.Second)
}

// editBoards makes the boards of games, changed at now without a move,
// due for their edits: in batches of editsPerSecond (editAt), in the
// commit of the change.
func editBoards(games []*storage.Game, now time.Time) {
	for i, g := range games {
		g.BoardEdit = editAt(now, i)
	}
}

// editBoard edits the board message of g, due for an edit at now
// (storage.Game.BoardEdit), so that it shows g as it is, then stores when
// the board is next due (game.Game.PauseChange), unless the game changed
// since g was read (a change that is due again has its own). A board that
// Discord refuses to edit (deleted, say) is left as it is; one Discord
// failed (an answer 5xx, or none) is an error, for the scheduler to try
// again.
func (t *table) editBoard(ctx context.Context, g *storage.Game, now time.Time) error {
	if g.BoardMessageID != "" {
		m, err := t.views.drawBoard(ctx, t.langs.guildLang(ctx, g.GuildID), g, jobEdit)
		if err != nil {
			return err
		}
		m.mentions = nil
		switch {
		case answerOnly(g):
			t.courier.edit(ctx, g.ChannelID, g.BoardMessageID, m)
		default:
			if err := t.out.editBoard(ctx, g.ChannelID, g.BoardMessageID, m); err != nil {
				if _, fault := discordFault(err); fault {
					return err
				}
				t.log.Warn("cannot edit a board", "channel", g.ChannelID, "message", g.BoardMessageID, "err", RedactError(err))
			}
		}
	}
	_, err := t.store.UpdateGame(ctx, g.ChannelID, func(s *storage.Game) error {
		if s.ID != g.ID || s.Ply() != g.Ply() || !s.BoardEdit.Equal(g.BoardEdit) {
			return errMovedOn
		}
		s.BoardEdit = s.PauseChange(now)
		return nil
	})
	if errors.Is(err, errMovedOn) || errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}
