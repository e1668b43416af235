package bot

import (
	"context"
	"time"

	"github.com/kulami/kulami/storage"
)

// Store is what the bot keeps in storage, one value for Options: every
// interface below. *storage.Store (bbolt) and *postgres.Store (package
// storage/postgres) implement it (cmd/kulamibot checks that at compile
// time).
//
// Games are storage.Game values: a game.Game (the rules of the game
// between two players, which the bot calls inside UpdateGame) and where
// it is played. Every method returns the storage package's sentinel
// errors wrapped with context, so compare with errors.Is; each method
// below names the ones it returns for a reason the bot answers. Any
// method may also return storage.ErrCorrupt (a stored value that cannot
// be read) or an error of the database, which the bot logs and answers
// with its generic message. An update method returns its function's
// error, wrapped, and writes nothing then. Every value returned is the
// caller's own copy.
//
// Every method takes first the context of the work that calls it: an
// interaction's, the scheduler's or a job's. A context done before the
// call makes it fail with an error wrapping ctx.Err() and write nothing;
// what one done during the call does depends on the backend (see
// storage.Backend).
type Store interface {
	interactionStore
	daysStore
	ScheduleStore
	TournamentStore
	PuzzleStore
}

// interactionStore is what the handlers and the parts they call use: all
// of Store but the scheduler's own bookkeeping (ScheduleStore) and the
// players' vacations and games (daysStore), so that their calls can keep
// to an interaction's deadlines (deadlineStore).
type interactionStore interface {
	GameStore
	ChallengeStore
	FinishedStore
	LadderStore
	SettingsStore
}

// daysStore is what the handlers of days played over use beside
// interactionStore: a player's vacation bank and all their games. Their
// calls keep to an interaction's deadlines as well (deadlineDays).
type daysStore interface {
	VacationStore
	PlayerGamesStore
}

// GameStore keeps the active game of each channel (a channel or thread
// has at most one game or one challenge).
type GameStore interface {
	// CreateGame stores g as the active game of g.ChannelID and sets
	// g.ID. Errors: storage.ErrChannelBusy if the channel already has a
	// game or an open challenge; storage.ErrInvalid if g may not be stored.
	CreateGame(ctx context.Context, g *storage.Game) error
	// Game returns the active game of the channel. Errors:
	// storage.ErrNotFound if there is none (a finished game is no longer
	// active).
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	// UpdateGame changes the active game of the channel in one
	// transaction: fn changes it, and what fn leaves is stored (a game
	// with a result is moved to the finished games, with the history and
	// ratings it changes). fn must be quick and must not call the store.
	// Errors: fn's error (game.ErrStale, …); storage.ErrNotFound if the
	// channel has no active game; storage.ErrInvalid if fn changed what
	// may not change (the ID, place, players, layout, rules).
	UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error)
	// NoteBoard records that the message messageID shows the board of the
	// game gameID of the channel at ply (the game's BoardMessageID from
	// then on). Errors: storage.ErrNotFound if the channel's game is
	// another or over, or has moved past ply: the board is then out of
	// date already.
	NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error
	// GuildGames returns the first limit active games of the guild,
	// newest first, and how many it has. Errors: none but those of every
	// method.
	GuildGames(ctx context.Context, guildID string, limit int) ([]*storage.Game, int, error)
}

// ChallengeStore keeps the open challenge of each channel.
type ChallengeStore interface {
	// CreateChallenge stores c as the open challenge of c.ChannelID and
	// sets c.ID (and c.Layout to its canonical form). Errors:
	// storage.ErrChannelBusy if the channel already has a game or an open
	// challenge; storage.ErrInvalid if c may not be stored.
	CreateChallenge(ctx context.Context, c *storage.Challenge) error
	// Challenge returns the open challenge of the channel. Errors:
	// storage.ErrNotFound if there is none.
	Challenge(ctx context.Context, channelID string) (*storage.Challenge, error)
	// UpdateChallenge changes the open challenge of the channel in one
	// transaction, as UpdateGame does a game. Errors: fn's error;
	// storage.ErrNotFound if the channel has no open challenge;
	// storage.ErrInvalid if fn changed what may not change (the ID,
	// place, players, creation time).
	UpdateChallenge(ctx context.Context, channelID string, fn func(*storage.Challenge) error) (*storage.Challenge, error)
	// DeleteChallenge removes the challenge with the ID id from the
	// channel (withdrawn, declined, expired). Errors: storage.ErrNotFound
	// if the channel's open challenge is not that one (an old button or a
	// late expiry never removes a newer challenge).
	DeleteChallenge(ctx context.Context, channelID string, id uint64) error
	// AcceptChallenge closes the challenge challengeID of the channel and
	// creates the game g in one transaction, and sets g.ID. Errors: storage.ErrNotFound if the
	// challenge is no longer open; storage.ErrChannelBusy if g's channel
	// is taken; storage.ErrInvalid if g may not be stored or is not
	// between the challenge's players. On any error nothing changes.
	AcceptChallenge(ctx context.Context, channelID string, challengeID uint64, g *storage.Game) error
	// MoveIntoThread moves the active game gameID of the channel into
	// threadID, a thread opened for it once AcceptChallenge committed,
	// and returns the game as now stored. Errors: storage.ErrNotFound if
	// the channel's active game is another (or none);
	// storage.ErrChannelBusy if the thread has a game or a challenge;
	// storage.ErrInvalid if threadID is not a valid ID. On any error
	// nothing changes.
	MoveIntoThread(ctx context.Context, channelID string, gameID uint64, threadID string) (*storage.Game, error)
}

// FinishedStore reads the finished games of a guild, and keeps their
// reviews.
type FinishedStore interface {
	// FinishedGame returns the finished game id of the guild. Errors:
	// storage.ErrNotFound if there is none (of another guild, or still
	// going on).
	FinishedGame(ctx context.Context, guildID string, id uint64) (*storage.FinishedGame, error)
	// LastFinishedGame returns the finished game of the guild played last
	// (the highest ID) in the channel. Errors: storage.ErrNotFound if the
	// channel has none.
	LastFinishedGame(ctx context.Context, guildID, channelID string) (*storage.FinishedGame, error)
	// SaveReview stores data, the analysis of the finished game gameID of
	// the guild, replacing any earlier one. Errors: storage.ErrNotFound if
	// there is no such finished game; storage.ErrInvalid if data is not a
	// JSON value.
	SaveReview(ctx context.Context, guildID string, gameID uint64, data []byte) error
	// Review returns what SaveReview stored for the finished game gameID
	// of the guild. Errors: storage.ErrNotFound if there is none yet.
	Review(ctx context.Context, guildID string, gameID uint64) ([]byte, error)
	// QueueReview marks the review p pending until SaveReview stores it
	// or DropReview drops the mark. Errors: storage.ErrNotFound if there
	// is no such finished game.
	QueueReview(ctx context.Context, p storage.PendingReview) error
	// DropReview drops the mark of the pending review of the finished
	// game gameID of the guild, if any.
	DropReview(ctx context.Context, guildID string, gameID uint64) error
	// PendingReviews returns the reviews marked pending.
	PendingReviews(ctx context.Context) ([]storage.PendingReview, error)
	// SetFinalBoard records that the final board of the finished game id
	// of the guild is owed at due (Discord failed it: the scheduler posts
	// it then), or, with due zero, that messageID shows it. Errors:
	// storage.ErrNotFound if there is no such finished game.
	SetFinalBoard(ctx context.Context, guildID string, id uint64, messageID string, due time.Time) error
}

// LadderStore reads the players' history, profiles and ratings in a
// guild; userID, a and b are storage.ProfileID values.
type LadderStore interface {
	// History returns up to limit finished games of the player, latest
	// first, from the one before the finished game before if it is not
	// zero. Errors: storage.ErrNotFound if the game before is not in the
	// player's history; storage.ErrInvalid if limit is not positive.
	History(ctx context.Context, guildID, userID string, limit int, before uint64) ([]storage.HistoryEntry, error)
	// HeadToHead returns the results of a against b, from a's side, on
	// both ladders. Errors: none but those of every method.
	HeadToHead(ctx context.Context, guildID, a, b string) (storage.Tally, error)
	// RatingTrend returns the player's ratings on the ladder after each
	// of their last n rated games, oldest first. Errors:
	// storage.ErrInvalid if n is not positive.
	RatingTrend(ctx context.Context, guildID, userID string, ladder storage.Ladder, n int) ([]storage.RatingPoint, error)
	// Profile returns the player's profile on the ladder. Errors:
	// storage.ErrNotFound if no game of theirs has counted there.
	Profile(ctx context.Context, guildID, userID string, ladder storage.Ladder) (*storage.Profile, error)
	// Leaderboard returns up to limit profiles of the ladder in rank
	// order, skipping offset, and how many the ladder has. Errors:
	// storage.ErrInvalid if limit is not positive or offset negative.
	Leaderboard(ctx context.Context, guildID string, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)
	// SeasonLeaderboard is Leaderboard for the ladder of a season (its
	// games only, each player from a fresh start). Errors:
	// storage.ErrInvalid also if the season is not valid.
	SeasonLeaderboard(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)
	// LeaderboardFrom returns up to limit profiles of the ladder of the
	// season (zero: all-time) in rank order after the mark (before it if
	// before is set), and how many the ladder has. Errors:
	// storage.ErrNotFound if the mark's player is not on the ladder;
	// storage.ErrInvalid as for SeasonLeaderboard.
	LeaderboardFrom(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, from storage.Mark, before bool, limit int) ([]storage.Profile, int, error)
}

// SettingsStore keeps the settings of guilds and users: the defaults of
// the store's options until they are changed.
type SettingsStore interface {
	// GuildSettings returns the settings of the guild. Errors: none but
	// those of every method.
	GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error)
	// UpdateGuildSettings changes the settings of the guild in one
	// transaction. Errors: fn's error; storage.ErrInvalid for a negative
	// move time or an unusable guild ID.
	UpdateGuildSettings(ctx context.Context, guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error)
	// UserSettings returns the settings of the user. Errors: none but
	// those of every method.
	UserSettings(ctx context.Context, userID string) (storage.UserSettings, error)
	// UpdateUserSettings changes the settings of the user in one
	// transaction. Errors: fn's error; storage.ErrInvalid for an unusable
	// user ID.
	UpdateUserSettings(ctx context.Context, userID string, fn func(*storage.UserSettings) error) (storage.UserSettings, error)
}

// VacationStore keeps the players' vacation banks (storage.Vacation).
type VacationStore interface {
	// Vacation returns the vacation bank of the user. Errors:
	// storage.ErrNotFound if none was opened.
	Vacation(ctx context.Context, userID string) (*storage.Vacation, error)
	// UpdateVacation changes the vacation bank of the user and their
	// active games in one transaction: fn gets the bank (only its UserID
	// if none was opened) and the games, and what it leaves is stored.
	// fn must be quick and must not call the store. Errors: fn's error;
	// storage.ErrInvalid if fn left no bank opened, or ended or changed a
	// game as it may not.
	UpdateVacation(ctx context.Context, userID string, fn func(v *storage.Vacation, games []*storage.Game) error) (*storage.Vacation, []*storage.Game, error)
}

// PlayerGamesStore reads and changes every game of a player at once.
type PlayerGamesStore interface {
	// PlayerGames returns the active games the user plays, in every
	// guild.
	PlayerGames(ctx context.Context, userID string) ([]*storage.Game, error)
	// NewestPlayerGames returns the first limit active games the user
	// plays, in every guild, newest first, and how many they are,
	// reading no other game. Errors: none but those of every method.
	NewestPlayerGames(ctx context.Context, userID string, limit int) ([]*storage.Game, int, error)
	// UpdatePlayerGames changes every active game the user plays in one
	// transaction: fn changes them, and what it leaves is stored. fn
	// must be quick and must not call the store. Errors: fn's error;
	// storage.ErrInvalid if fn ended or changed a game as it may not.
	UpdatePlayerGames(ctx context.Context, userID string, fn func(games []*storage.Game) error) ([]*storage.Game, error)
}

// TournamentStore keeps the tournaments of guilds (storage.Tournament: a
// tournament.Tournament and what the bot posted of it).
type TournamentStore interface {
	// CreateTournament stores t as a new tournament and sets t.ID.
	// Errors: storage.ErrInvalid if t may not be stored.
	CreateTournament(ctx context.Context, t *storage.Tournament) error
	// Tournament returns the tournament id of the guild. Errors:
	// storage.ErrNotFound if there is none.
	Tournament(ctx context.Context, guildID string, id uint64) (*storage.Tournament, error)
	// GuildTournaments returns the tournaments of the guild, newest
	// first. Errors: none but those of every method.
	GuildTournaments(ctx context.Context, guildID string) ([]*storage.Tournament, error)
	// UpdateTournament changes the tournament id of the guild in one
	// transaction, as UpdateGame does a game, and records now as its last
	// change. Errors: fn's error (a sentinel of engine/tournament);
	// storage.ErrNotFound if there is no such tournament.
	UpdateTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(*storage.Tournament) error) (*storage.Tournament, error)
	// OpenTournamentGame stores g, a game of a tournament
	// (g.Tournament), and marks it opened in the tournament, in one
	// transaction. Errors: storage.ErrOpened if it is open already;
	// storage.ErrChannelBusy if its channel is taken.
	OpenTournamentGame(ctx context.Context, g *storage.Game, now time.Time) error
	// CancelTournament cancels the tournament id of the guild at now and
	// lets its games in progress go on as casual games, in one
	// transaction in which fn (if not nil) changes the games released
	// (the bot's bookkeeping of their boards); it returns the tournament
	// and the games it released.
	// Errors: the tournament's refusal (tournament.ErrFinished,
	// ErrCancelled); storage.ErrNotFound if there is no such tournament.
	CancelTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(released []*storage.Game)) (*storage.Tournament, []*storage.Game, error)
}

// ScheduleStore is what the scheduler and a restart read and write: the
// index of wake times of games and challenges, leases on them, and when
// the bot was last alive.
type ScheduleStore interface {
	// NextWake returns the earliest wake time of every game and
	// challenge, or false if none has one. Errors: none but those of
	// every method.
	NextWake(ctx context.Context) (time.Time, bool, error)
	// Due returns every wake at or before now, earliest first; a wake
	// stays due until an update sets the next one. Errors: none but those
	// of every method.
	Due(ctx context.Context, now time.Time) ([]storage.Wake, error)
	// Claim takes the lease on w's work for owner until now+d, and
	// reports whether it did (false: another owner's lease runs). Errors:
	// storage.ErrInvalid if owner is not a usable ID or d not positive.
	Claim(ctx context.Context, w storage.Wake, owner string, now time.Time, d time.Duration) (bool, error)
	// SetAlive records that the bot runs at t, for Resume. Errors: none
	// but those of every method.
	SetAlive(ctx context.Context, t time.Time) error
	// SeasonChannels returns the settings of the guilds that chose a
	// channel for the seasons' top three, by guild. Errors: none but
	// those of every method.
	SeasonChannels(ctx context.Context) ([]storage.GuildSettingsEntry, error)
	// BeginResume reads how long the bot was down and, if for at least
	// minDown until now, stores a resume under way that gives it back to
	// every active game, with a reminder each, perSecond a second; else it
	// records now as alive. A resume a crash cut short is kept, with the
	// new outage added. It returns how long the bot was down and whether a
	// resume is under way. Errors: storage.ErrInvalid if perSecond is
	// negative.
	BeginResume(ctx context.Context, now time.Time, minDown time.Duration, perSecond int) (time.Duration, bool, error)
	// Resuming returns the resume under way, nil if none. Errors: none
	// but those of every method.
	Resuming(ctx context.Context) (*storage.Resuming, error)
	// Resume gives the time of the resume under way back to the games,
	// calling fn with each game owed some and how much, in transactions
	// of storage.ResumeBatch games that go on after a crash where they
	// stopped, never giving a game an outage twice, and records the bot
	// alive at the end; it returns how many games fn changed. fn must be
	// quick and must not call the store. Errors: fn's error;
	// storage.ErrInvalid if fn ended a game. On an error, the batch of the
	// game is not written (the ones before it are, and the next Resume
	// goes on after them).
	Resume(ctx context.Context, fn func(g *storage.Game, down time.Duration) (bool, error)) (int, error)
	// GiveBack gives each game of channels the time the resume under way
	// owes it, if any, as Resume would, storage.ResumeBatch games a
	// transaction, and returns the channels of the games fn changed.
	// Errors: fn's error; storage.ErrInvalid if fn ended a game.
	GiveBack(ctx context.Context, channels []string, fn func(g *storage.Game, down time.Duration) (bool, error)) ([]string, error)
}
