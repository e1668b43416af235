package bot

import (
	"context"

	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
)

// PuzzleStore keeps the puzzles and what the players did with them (see
// storage's puzzle.go for what each method writes).
type PuzzleStore interface {
	// LoadPuzzles stores the puzzle set ps and reports how many puzzles
	// it added or changed; a set loaded before changes nothing. Errors:
	// none but those of every method.
	LoadPuzzles(ctx context.Context, ps []puzzle.JSON) (int, error)
	// Puzzle returns a stored puzzle. Errors: storage.ErrNotFound.
	Puzzle(ctx context.Context, id string) (*storage.PuzzleEntry, error)
	// NextPuzzle returns the puzzle nearest the user's rating that they
	// never tried, else the nearest. Errors: storage.ErrNotFound if no
	// puzzle is stored.
	NextPuzzle(ctx context.Context, userID string) (*storage.PuzzleEntry, error)
	// DailyPuzzle returns the daily puzzle of day, picking it the first
	// time. Errors: storage.ErrNotFound if no puzzle can be.
	DailyPuzzle(ctx context.Context, day string) (*storage.DailyPuzzle, error)
	// PuzzleProfile returns the user's record at puzzles. Errors:
	// storage.ErrNotFound if no attempt of theirs counted.
	PuzzleProfile(ctx context.Context, userID string) (*storage.PuzzleProfile, error)
	// PuzzleLeaderboard returns a page of the guild's puzzle
	// leaderboard and its size. Errors: storage.ErrNotFound if the
	// mark's player is not on it.
	PuzzleLeaderboard(ctx context.Context, guildID string, from *storage.Mark, before bool, limit int) ([]storage.PuzzleProfile, int, error)
	// PuzzleAttempt returns the user's ended attempt at a puzzle.
	// Errors: storage.ErrNotFound if none.
	PuzzleAttempt(ctx context.Context, userID, puzzleID string) (*storage.PuzzleAttempt, error)
	// PuzzleTry returns the user's attempt under way. Errors:
	// storage.ErrNotFound if none.
	PuzzleTry(ctx context.Context, userID string) (*storage.PuzzleTry, error)
	// StartPuzzle stores t as the user's attempt under way. Errors:
	// storage.ErrNotFound if its puzzle is not stored.
	StartPuzzle(ctx context.Context, t *storage.PuzzleTry) error
	// AdvancePuzzle stores next if the attempt under way is at its
	// puzzle and at step. Errors: storage.ErrNotFound if not (stale).
	AdvancePuzzle(ctx context.Context, step int, next *storage.PuzzleTry) error
	// FinishPuzzle ends the attempt under way and counts it. Errors:
	// storage.ErrNotFound if it is not at r's puzzle and step (stale).
	FinishPuzzle(ctx context.Context, r storage.PuzzleResult) (*storage.PuzzleOutcome, error)
	// ClaimDailyPost claims the post of the daily puzzle of day in the
	// guild: false if claimed before. Errors: none but those of every
	// method.
	ClaimDailyPost(ctx context.Context, guildID, day, channelID string) (bool, error)
	// NoteDailyPost records the message of a claimed post. Errors:
	// storage.ErrNotFound if it was not claimed.
	NoteDailyPost(ctx context.Context, guildID, day, messageID string) error
	// DailyPost returns the post of the daily puzzle of day in the
	// guild. Errors: storage.ErrNotFound if none was claimed.
	DailyPost(ctx context.Context, guildID, day string) (*storage.DailyPost, error)
	// PuzzleChannels returns the settings of the guilds that chose a
	// puzzle channel. Errors: none but those of every method.
	PuzzleChannels(ctx context.Context) ([]storage.GuildSettingsEntry, error)
}

// deadlinePuzzles is the PuzzleStore of the handlers and the scheduler,
// whose calls made for an interaction keep to its deadlines, as
// deadlineStore's do (see storeDeadlines).
type deadlinePuzzles struct{ PuzzleStore }

func (s deadlinePuzzles) Puzzle(ctx context.Context, id string) (*storage.PuzzleEntry, error) {
	return call1(ctx, func(ctx context.Context) (*storage.PuzzleEntry, error) { return s.PuzzleStore.Puzzle(ctx, id) })
}

func (s deadlinePuzzles) NextPuzzle(ctx context.Context, userID string) (*storage.PuzzleEntry, error) {
	return call1(ctx, func(ctx context.Context) (*storage.PuzzleEntry, error) { return s.PuzzleStore.NextPuzzle(ctx, userID) })
}

func (s deadlinePuzzles) DailyPost(ctx context.Context, guildID, day string) (*storage.DailyPost, error) {
	return call1(ctx, func(ctx context.Context) (*storage.DailyPost, error) {
		return s.PuzzleStore.DailyPost(ctx, guildID, day)
	})
}

func (s deadlinePuzzles) DailyPuzzle(ctx context.Context, day string) (*storage.DailyPuzzle, error) {
	return call1(ctx, func(ctx context.Context) (*storage.DailyPuzzle, error) { return s.PuzzleStore.DailyPuzzle(ctx, day) })
}

func (s deadlinePuzzles) PuzzleProfile(ctx context.Context, userID string) (*storage.PuzzleProfile, error) {
	return call1(ctx, func(ctx context.Context) (*storage.PuzzleProfile, error) {
		return s.PuzzleStore.PuzzleProfile(ctx, userID)
	})
}

func (s deadlinePuzzles) PuzzleLeaderboard(ctx context.Context, guildID string, from *storage.Mark, before bool, limit int) ([]storage.PuzzleProfile, int, error) {
	type page struct {
		ps    []storage.PuzzleProfile
		total int
	}
	p, err := call1(ctx, func(ctx context.Context) (page, error) {
		ps, total, err := s.PuzzleStore.PuzzleLeaderboard(ctx, guildID, from, before, limit)
		return page{ps, total}, err
	})
	return p.ps, p.total, err
}

func (s deadlinePuzzles) PuzzleAttempt(ctx context.Context, userID, puzzleID string) (*storage.PuzzleAttempt, error) {
	return call1(ctx, func(ctx context.Context) (*storage.PuzzleAttempt, error) {
		return s.PuzzleStore.PuzzleAttempt(ctx, userID, puzzleID)
	})
}

func (s deadlinePuzzles) PuzzleTry(ctx context.Context, userID string) (*storage.PuzzleTry, error) {
	return call1(ctx, func(ctx context.Context) (*storage.PuzzleTry, error) { return s.PuzzleStore.PuzzleTry(ctx, userID) })
}

func (s deadlinePuzzles) StartPuzzle(ctx context.Context, t *storage.PuzzleTry) error {
	return call0(ctx, func(ctx context.Context) error { return s.PuzzleStore.StartPuzzle(ctx, t) })
}

func (s deadlinePuzzles) AdvancePuzzle(ctx context.Context, step int, next *storage.PuzzleTry) error {
	return call0(ctx, func(ctx context.Context) error { return s.PuzzleStore.AdvancePuzzle(ctx, step, next) })
}

func (s deadlinePuzzles) FinishPuzzle(ctx context.Context, r storage.PuzzleResult) (*storage.PuzzleOutcome, error) {
	return call1(ctx, func(ctx context.Context) (*storage.PuzzleOutcome, error) { return s.PuzzleStore.FinishPuzzle(ctx, r) })
}
