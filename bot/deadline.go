package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// storeWork bounds the storage calls of an interaction that Discord
// waits for: the player waits for a deferred answer, which Discord shows
// as "thinking…" for up to 15 minutes, but a game whose row stays locked
// this long should be answered "busy, try again" rather than leave the
// player waiting for nothing. Counted from the interaction's start.
const storeWork = 15 * time.Second

// storeAnswerShare is the share of Options.AnswerWithin that the storage
// calls of an autocomplete may take: it cannot be deferred, so a call
// that runs out answers an empty list, before Discord's 3 s. 4/5: 2 s of
// the default 2.5 s. Every other interaction's calls outlive it: a call
// still under way when the bot defers for its slow handler (at
// AnswerWithin) goes on, and the handler answers once it has finished its
// work. A queue of honest work (a burst that waits for the disk, for a
// connection) is load, not a fault, and is never answered "busy"; only a
// game's row locked past the database's lock timeout (storage.ErrBusy
// from the store) or past storeWork is.
const storeAnswerShare = 0.8

// errOutOfTime is the cause of an interaction's storage call cut short by
// its deadline (see storeDeadlines).
var errOutOfTime = errors.New("the interaction's time for the database ran out")

// storeDeadlines are the deadlines of one interaction's storage calls: by
// answerOver for an autocomplete while Discord has heard nothing of it,
// by workOver otherwise; each is done, with the cause errOutOfTime, once
// its time has run out on the bot's Timer. It rides on the interaction's
// context (see withStoreDeadlines); work that outlives the interaction
// (the scheduler's, a job's) bounds its calls itself.
type storeDeadlines struct {
	answer     *answer
	deferrable bool // the interaction may be deferred: not an autocomplete
	answerOver context.Context
	workOver   context.Context
}

type storeDeadlinesKey struct{}

// withStoreDeadlines returns ctx carrying the deadlines of c's storage
// calls, counted from now on timer, and stop, which stops their timers.
func withStoreDeadlines(ctx context.Context, c *interaction, timer Timer, answerWithin time.Duration) (_ context.Context, stop func()) {
	answerOver, endAnswer := context.WithCancelCause(context.Background())
	workOver, endWork := context.WithCancelCause(context.Background())
	stopAnswer := timer.AfterFunc(time.Duration(float64(answerWithin)*storeAnswerShare), func() { endAnswer(errOutOfTime) })
	stopWork := timer.AfterFunc(storeWork, func() { endWork(errOutOfTime) })
	deferrable := c.i == nil || c.i.Type != discordgo.InteractionApplicationCommandAutocomplete
	d := &storeDeadlines{answer: &c.answer, deferrable: deferrable, answerOver: answerOver, workOver: workOver}
	return context.WithValue(ctx, storeDeadlinesKey{}, d), func() { stopAnswer(); stopWork() }
}

// beyond returns ctx for work that outlives its interaction (if ctx is
// one's): ctx's values, without its cancellation or the deadlines of its
// storage calls, so that the work bounds its calls itself.
func beyond(ctx context.Context) context.Context {
	return context.WithValue(context.WithoutCancel(ctx), storeDeadlinesKey{}, nil)
}

// bound returns ctx with the deadline of a storage call made now, if ctx
// is an interaction's: it is cancelled, with the cause errOutOfTime, when
// that deadline is over.
func bound(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Value(storeDeadlinesKey{}).(*storeDeadlines)
	if !ok {
		return ctx, func() {}
	}
	over := d.workOver
	if !d.deferrable && !d.answer.heard() {
		over = d.answerOver
	}
	bctx, cancel := context.WithCancelCause(ctx)
	if over.Err() != nil {
		cancel(context.Cause(over))
		return bctx, func() {}
	}
	stop := context.AfterFunc(over, func() { cancel(context.Cause(over)) })
	return bctx, func() {
		stop()
		cancel(context.Canceled)
	}
}

// outOfTime returns err, as storage.ErrBusy if it is the end of the
// deadline of bctx (from bound): the database could not serve the call in
// the interaction's time. The call changed nothing: a store's call whose
// context is done before it begins writes nothing, and PostgreSQL rolls
// back a transaction whose context ends while it runs (but for a COMMIT
// already under way, see storage.Backend).
func outOfTime(bctx context.Context, err error) error {
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) && errors.Is(context.Cause(bctx), errOutOfTime) {
		return fmt.Errorf("%w: %w: %w", storage.ErrBusy, errOutOfTime, err)
	}
	return err
}

// call0 runs a storage call that returns an error within ctx's deadline.
func call0(ctx context.Context, f func(context.Context) error) error {
	bctx, cancel := bound(ctx)
	defer cancel()
	return outOfTime(bctx, f(bctx))
}

// call1 runs a storage call that returns a value and an error within ctx's
// deadline.
func call1[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	bctx, cancel := bound(ctx)
	defer cancel()
	v, err := f(bctx)
	return v, outOfTime(bctx, err)
}

// call2 runs a storage call that returns two values and an error within
// ctx's deadline.
func call2[T, U any](ctx context.Context, f func(context.Context) (T, U, error)) (T, U, error) {
	bctx, cancel := bound(ctx)
	defer cancel()
	v, w, err := f(bctx)
	return v, w, outOfTime(bctx, err)
}

// deadlineStore is the store of the handlers and their parts, whose calls
// made for an interaction keep to its deadlines (see storeDeadlines);
// others go through as they are. Its writes on a channel's game or
// challenge take their turn at the channel's gate (see gates; none if
// gates is nil). The scheduler's own calls (NextWake, Due, Claim,
// SetAlive, Resume) are never an interaction's: it has the store itself.
type deadlineStore struct {
	interactionStore
	gates *gates
}

func (s deadlineStore) CreateGame(ctx context.Context, g *storage.Game) error {
	return call0(ctx, func(ctx context.Context) error { return s.interactionStore.CreateGame(ctx, g) })
}

func (s deadlineStore) Game(ctx context.Context, channelID string) (*storage.Game, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Game, error) { return s.interactionStore.Game(ctx, channelID) })
}

func (s deadlineStore) UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Game, error) {
		return gated(ctx, s.gates, channelID, func(ctx context.Context) (*storage.Game, error) {
			return s.interactionStore.UpdateGame(ctx, channelID, fn)
		})
	})
}

func (s deadlineStore) NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error {
	return call0(ctx, func(ctx context.Context) error {
		return s.interactionStore.NoteBoard(ctx, channelID, gameID, ply, messageID)
	})
}

func (s deadlineStore) GuildGames(ctx context.Context, guildID string, limit int) ([]*storage.Game, int, error) {
	return call2(ctx, func(ctx context.Context) ([]*storage.Game, int, error) {
		return s.interactionStore.GuildGames(ctx, guildID, limit)
	})
}

func (s deadlineStore) CreateChallenge(ctx context.Context, c *storage.Challenge) error {
	return call0(ctx, func(ctx context.Context) error { return s.interactionStore.CreateChallenge(ctx, c) })
}

func (s deadlineStore) Challenge(ctx context.Context, channelID string) (*storage.Challenge, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Challenge, error) {
		return s.interactionStore.Challenge(ctx, channelID)
	})
}

func (s deadlineStore) UpdateChallenge(ctx context.Context, channelID string, fn func(*storage.Challenge) error) (*storage.Challenge, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Challenge, error) {
		return gated(ctx, s.gates, channelID, func(ctx context.Context) (*storage.Challenge, error) {
			return s.interactionStore.UpdateChallenge(ctx, channelID, fn)
		})
	})
}

func (s deadlineStore) DeleteChallenge(ctx context.Context, channelID string, id uint64) error {
	return call0(ctx, func(ctx context.Context) error {
		_, err := gated(ctx, s.gates, channelID, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, s.interactionStore.DeleteChallenge(ctx, channelID, id)
		})
		return err
	})
}

func (s deadlineStore) AcceptChallenge(ctx context.Context, channelID string, challengeID uint64, g *storage.Game) error {
	return call0(ctx, func(ctx context.Context) error {
		_, err := gated(ctx, s.gates, channelID, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, s.interactionStore.AcceptChallenge(ctx, channelID, challengeID, g)
		})
		return err
	})
}

func (s deadlineStore) MoveIntoThread(ctx context.Context, channelID string, gameID uint64, threadID string) (*storage.Game, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Game, error) {
		return gated(ctx, s.gates, channelID, func(ctx context.Context) (*storage.Game, error) {
			return s.interactionStore.MoveIntoThread(ctx, channelID, gameID, threadID)
		})
	})
}

func (s deadlineStore) FinishedGame(ctx context.Context, guildID string, id uint64) (*storage.FinishedGame, error) {
	return call1(ctx, func(ctx context.Context) (*storage.FinishedGame, error) {
		return s.interactionStore.FinishedGame(ctx, guildID, id)
	})
}

func (s deadlineStore) LastFinishedGame(ctx context.Context, guildID, channelID string) (*storage.FinishedGame, error) {
	return call1(ctx, func(ctx context.Context) (*storage.FinishedGame, error) {
		return s.interactionStore.LastFinishedGame(ctx, guildID, channelID)
	})
}

func (s deadlineStore) SaveReview(ctx context.Context, guildID string, gameID uint64, data []byte) error {
	return call0(ctx, func(ctx context.Context) error { return s.interactionStore.SaveReview(ctx, guildID, gameID, data) })
}

func (s deadlineStore) Review(ctx context.Context, guildID string, gameID uint64) ([]byte, error) {
	return call1(ctx, func(ctx context.Context) ([]byte, error) { return s.interactionStore.Review(ctx, guildID, gameID) })
}

func (s deadlineStore) History(ctx context.Context, guildID, userID string, limit int, before uint64) ([]storage.HistoryEntry, error) {
	return call1(ctx, func(ctx context.Context) ([]storage.HistoryEntry, error) {
		return s.interactionStore.History(ctx, guildID, userID, limit, before)
	})
}

func (s deadlineStore) HeadToHead(ctx context.Context, guildID, a, b string) (storage.Tally, error) {
	return call1(ctx, func(ctx context.Context) (storage.Tally, error) {
		return s.interactionStore.HeadToHead(ctx, guildID, a, b)
	})
}

func (s deadlineStore) RatingTrend(ctx context.Context, guildID, userID string, ladder storage.Ladder, n int) ([]storage.RatingPoint, error) {
	return call1(ctx, func(ctx context.Context) ([]storage.RatingPoint, error) {
		return s.interactionStore.RatingTrend(ctx, guildID, userID, ladder, n)
	})
}

func (s deadlineStore) Profile(ctx context.Context, guildID, userID string, ladder storage.Ladder) (*storage.Profile, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Profile, error) {
		return s.interactionStore.Profile(ctx, guildID, userID, ladder)
	})
}

func (s deadlineStore) Leaderboard(ctx context.Context, guildID string, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error) {
	return call2(ctx, func(ctx context.Context) ([]storage.Profile, int, error) {
		return s.interactionStore.Leaderboard(ctx, guildID, ladder, offset, limit)
	})
}

func (s deadlineStore) SeasonLeaderboard(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error) {
	return call2(ctx, func(ctx context.Context) ([]storage.Profile, int, error) {
		return s.interactionStore.SeasonLeaderboard(ctx, guildID, season, ladder, offset, limit)
	})
}

func (s deadlineStore) LeaderboardFrom(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, from storage.Mark, before bool, limit int) ([]storage.Profile, int, error) {
	return call2(ctx, func(ctx context.Context) ([]storage.Profile, int, error) {
		return s.interactionStore.LeaderboardFrom(ctx, guildID, season, ladder, from, before, limit)
	})
}

func (s deadlineStore) GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error) {
	return call1(ctx, func(ctx context.Context) (storage.GuildSettings, error) {
		return s.interactionStore.GuildSettings(ctx, guildID)
	})
}

func (s deadlineStore) UpdateGuildSettings(ctx context.Context, guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	return call1(ctx, func(ctx context.Context) (storage.GuildSettings, error) {
		return s.interactionStore.UpdateGuildSettings(ctx, guildID, fn)
	})
}

func (s deadlineStore) UserSettings(ctx context.Context, userID string) (storage.UserSettings, error) {
	return call1(ctx, func(ctx context.Context) (storage.UserSettings, error) {
		return s.interactionStore.UserSettings(ctx, userID)
	})
}

func (s deadlineStore) UpdateUserSettings(ctx context.Context, userID string, fn func(*storage.UserSettings) error) (storage.UserSettings, error) {
	return call1(ctx, func(ctx context.Context) (storage.UserSettings, error) {
		return s.interactionStore.UpdateUserSettings(ctx, userID, fn)
	})
}

// deadlineDays is the store of the vacations and of a player's games,
// whose calls made for an interaction keep to its deadlines, as
// deadlineStore's do (a type of its own: one type with both would have
// more methods than a type may).
type deadlineDays struct{ daysStore }

func (s deadlineDays) Vacation(ctx context.Context, userID string) (*storage.Vacation, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Vacation, error) {
		return s.daysStore.Vacation(ctx, userID)
	})
}

func (s deadlineDays) UpdateVacation(ctx context.Context, userID string, fn func(v *storage.Vacation, games []*storage.Game) error) (*storage.Vacation, []*storage.Game, error) {
	return call2(ctx, func(ctx context.Context) (*storage.Vacation, []*storage.Game, error) {
		return s.daysStore.UpdateVacation(ctx, userID, fn)
	})
}

func (s deadlineDays) PlayerGames(ctx context.Context, userID string) ([]*storage.Game, error) {
	return call1(ctx, func(ctx context.Context) ([]*storage.Game, error) {
		return s.daysStore.PlayerGames(ctx, userID)
	})
}

func (s deadlineDays) NewestPlayerGames(ctx context.Context, userID string, limit int) ([]*storage.Game, int, error) {
	return call2(ctx, func(ctx context.Context) ([]*storage.Game, int, error) {
		return s.daysStore.NewestPlayerGames(ctx, userID, limit)
	})
}

func (s deadlineDays) UpdatePlayerGames(ctx context.Context, userID string, fn func(games []*storage.Game) error) ([]*storage.Game, error) {
	return call1(ctx, func(ctx context.Context) ([]*storage.Game, error) {
		return s.daysStore.UpdatePlayerGames(ctx, userID, fn)
	})
}
