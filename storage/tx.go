package storage

import (
	"context"
	"time"
)

// Tx is one transaction of a backend (bbolt in this package, PostgreSQL
// in storage/postgres): the reads and writes of stored values that the
// shared logic of Core is made of. A Tx holds no rule; Core decides what
// to write and checks it. Every method reads or writes within the
// transaction; a read returns a value the caller owns. Reads return an
// error wrapping ErrNotFound for a value that is not stored.
//
// In a write transaction, a backend that runs several processes (or
// several writers at once) must lock what Game, Challenge and Profile
// read until the transaction ends, so that a read-modify-write is never
// interleaved with another.
type Tx interface {
	// Game returns the active game of channel and the wake time it is
	// indexed under (what PutGame was given as its wake).
	Game(channel string) (*Game, time.Time, error)
	// PutGame stores g, whose stored version is indexed under oldWake
	// (zero for none), as the active game of its channel, indexed under
	// g.Wake().
	PutGame(g *Game, oldWake time.Time) error
	// DeleteGame deletes the active game of channel, indexed under
	// oldWake.
	DeleteGame(channel string, oldWake time.Time) error
	// Games calls fn with every active game and its wake; fn may not
	// write.
	Games(fn func(g *Game, wake time.Time) error) error
	// PlayerGames calls fn with every active game that user plays (a
	// person, not the computer: PlayerUsers), found by an index, and its
	// wake, as Games does; in a write transaction, they are locked as
	// Game locks one.
	PlayerGames(user string, fn func(g *Game, wake time.Time) error) error
	// GamesAfter calls fn with the active games whose channel sorts after
	// after (bytewise), in channel order, up to limit of them (no limit if
	// limit is not positive), and their wakes; fn may not write.
	GamesAfter(after string, limit int, fn func(g *Game, wake time.Time) error) error
	// GamesIn calls fn with the active games of channels (a channel
	// without one is passed by), in channel order, and their wakes, read
	// at once; in a write transaction, they are locked as Game locks one.
	// fn may not write.
	GamesIn(channels []string, fn func(g *Game, wake time.Time) error) error
	// GuildGames returns the first limit active games of the guild,
	// newest first (by ID), and how many it has, reading no other game.
	GuildGames(guild string, limit int) ([]*Game, int, error)
	// NewestPlayerGames returns the first limit active games that user
	// plays (as PlayerGames finds them), newest first (by ID), and how
	// many they are, reading no other game.
	NewestPlayerGames(user string, limit int) ([]*Game, int, error)
	// CountGames returns the number of active games, without reading them.
	CountGames() (int, error)
	// Recomputable tells the backend that what this write transaction
	// writes would be written again if a crash lost it, so that its commit
	// need not wait for the disk. Resume's batches and GiveBack are: a
	// lost batch loses its games' time and the resume's progress together,
	// and the next start gives that time again. A backend may ignore it;
	// it must never lose such a commit without the ones before it, nor
	// keep a later commit that depends on it without it.
	Recomputable()

	// Tournament returns the tournament id of guild and the wake time it
	// is indexed under.
	Tournament(guild string, id uint64) (*Tournament, time.Time, error)
	// PutTournament stores t, whose stored version is indexed under
	// oldWake (zero for none), indexed under t.Wake().
	PutTournament(t *Tournament, oldWake time.Time) error
	// GuildTournaments returns the tournaments of guild, newest first.
	GuildTournaments(guild string) ([]*Tournament, error)

	// NextID returns the next value of the sequence seq, starting at 1.
	NextID(seq Sequence) (uint64, error)

	// Challenge returns the open challenge of channel.
	Challenge(channel string) (*Challenge, error)
	// PutChallenge stores c, whose stored version was indexed under
	// oldWake, indexed under c.Wake().
	PutChallenge(c *Challenge, oldWake time.Time) error
	// DeleteChallenge deletes the challenge of channel, indexed under
	// oldWake.
	DeleteChallenge(channel string, oldWake time.Time) error

	// Finished returns a finished game.
	Finished(guild string, id uint64) (*FinishedGame, error)
	// HasFinished reports whether a finished game is stored.
	HasFinished(guild string, id uint64) (bool, error)
	// PutFinished stores a finished game.
	PutFinished(f *FinishedGame) error
	// IndexFinal moves the wake of the final board owed of the finished
	// game id of guild (WakeFinal) from old to next; a zero time is none.
	IndexFinal(guild string, id uint64, old, next time.Time) error
	// FinishedData calls fn with the stored value of every finished game
	// (as EncodeFinished writes it), for reads that need not replay the
	// games; fn may not write.
	FinishedData(fn func([]byte) error) error
	// LastFinished returns the finished game of the guild with the highest
	// ID played in channel.
	LastFinished(guild, channel string) (*FinishedGame, error)

	// PutHistory stores e in the history of player in guild.
	PutHistory(guild, player string, e *HistoryEntry) error
	// History calls fn with the history entries of player in guild, the
	// latest end first (ties: the higher game ID first), while fn returns
	// true: from the latest if before is zero, else from the entry before
	// the finished game with the ID before (ErrNotFound if there is none).
	History(guild, player string, before uint64, fn func(*HistoryEntry) bool) error
	// HeadToHead returns the tally of the outcomes in the history of
	// player in guild against opponent (both ProfileIDs), reading no
	// history entry.
	HeadToHead(guild, player, opponent string) (Tally, error)

	// Profile returns a profile.
	Profile(guild string, ladder Ladder, player string) (*Profile, error)
	// PutProfile stores p, whose stored version is old (nil for a new
	// profile).
	PutProfile(p, old *Profile) error
	// Leaderboard returns up to limit profiles of a ladder in rank order
	// (Profile.RankKey), skipping offset, and the number of profiles on
	// the ladder.
	Leaderboard(guild string, ladder Ladder, offset, limit int) ([]Profile, int, error)

	// SeasonProfile returns a profile on the ladder of a season.
	SeasonProfile(guild string, season Season, ladder Ladder, player string) (*Profile, error)
	// PutSeasonProfile stores p, a profile of the season p.Season, whose
	// stored version is old (nil for a new profile).
	PutSeasonProfile(p, old *Profile) error
	// SeasonLeaderboard is Leaderboard for the ladder of a season.
	SeasonLeaderboard(guild string, season Season, ladder Ladder, offset, limit int) ([]Profile, int, error)
	// LeaderboardFrom returns up to limit profiles of a ladder of the
	// season (zero: all-time) in rank order after the mark (before it if
	// before is set), and the number of profiles on the ladder; an error
	// wrapping ErrNotFound if the mark's player has no profile there.
	LeaderboardFrom(guild string, season Season, ladder Ladder, from Mark, before bool, limit int) ([]Profile, int, error)
	// EachGuildSettings calls fn with the settings stored for every
	// guild, by guild; fn may not write.
	EachGuildSettings(fn func(*GuildSettingsEntry) error) error

	// GuildSettings returns the settings stored for a guild.
	GuildSettings(guild string) (*GuildSettings, error)
	// PutGuildSettings stores the settings of a guild.
	PutGuildSettings(guild string, v *GuildSettings) error
	// UserSettings returns the settings stored for a user.
	UserSettings(user string) (*UserSettings, error)
	// PutUserSettings stores the settings of a user.
	PutUserSettings(user string, v *UserSettings) error

	// Vacation returns the vacation of user and the wake time it is
	// indexed under (what PutVacation was given as its wake).
	Vacation(user string) (*Vacation, time.Time, error)
	// PutVacation stores v, whose stored version is indexed under oldWake
	// (zero for none), indexed under v.Wake().
	PutVacation(v *Vacation, oldWake time.Time) error
	// OpenVacation stores v, a bank just opened (on no vacation, so
	// indexed under no wake), unless the user has one: then it does
	// nothing.
	OpenVacation(v *Vacation) error

	// Review returns the stored review of a finished game.
	Review(guild string, id uint64) ([]byte, error)
	// PutReview stores the review of a finished game.
	PutReview(guild string, id uint64, data []byte) error
	// PutPendingReview marks a review pending.
	PutPendingReview(p *PendingReview) error
	// DeletePendingReview drops the mark of a pending review, if any.
	DeletePendingReview(guild string, id uint64) error
	// PendingReviews returns the pending reviews, by guild and game.
	PendingReviews() ([]PendingReview, error)

	// Alive returns when the bot was last alive, zero if never.
	Alive() (time.Time, error)
	// PutAlive records that the bot was alive at t.
	PutAlive(t time.Time) error
	// Resuming returns the resume under way (see Core.Resume), nil if
	// none.
	Resuming() (*Resuming, error)
	// PutResuming stores the resume under way, or drops it if r is nil.
	PutResuming(r *Resuming) error

	// NextWake returns the earliest wake of the index, false if none.
	NextWake() (time.Time, bool, error)
	// Due returns the wakes at or before now, by time, then kind, then
	// channel.
	Due(now time.Time) ([]Wake, error)

	// PuzzleSet returns the hash of the puzzle set named name loaded
	// last (LoadPuzzles).
	PuzzleSet(name string) (string, error)
	// PutPuzzleSet records hash as the set named name loaded.
	PutPuzzleSet(name, hash string) error
	// Puzzle returns a stored puzzle.
	Puzzle(id string) (*PuzzleEntry, error)
	// PutPuzzle stores e, whose stored version is old (nil for a new
	// puzzle), indexed by its rating and starting rating.
	PutPuzzle(e, old *PuzzleEntry) error
	// PuzzlesAround returns, among the puzzles that user never finished
	// an attempt at (PuzzleAttempt), or among all if user is empty, in
	// the order of (rating, ID bytewise): the first rated r or more, and
	// the last rated below r; nil for none.
	PuzzlesAround(r float64, user string) (up, down *PuzzleEntry, err error)
	// PuzzlesRated returns the IDs of the puzzles whose starting rating
	// (puzzle.JSON.Rating) is lo to hi, in the order of the IDs
	// (bytewise).
	PuzzlesRated(lo, hi int) ([]string, error)
	// PuzzleProfile returns a player's record at puzzles.
	PuzzleProfile(user string) (*PuzzleProfile, error)
	// PutPuzzleProfile stores p, whose stored version is old (nil for a
	// new one), on the puzzle leaderboard of each of its Guilds.
	PutPuzzleProfile(p, old *PuzzleProfile) error
	// PuzzleLeaderboard returns up to limit players of the guild's
	// puzzle leaderboard in rank order, from the top if from is nil,
	// else after (before) the mark; and the number of its players.
	PuzzleLeaderboard(guild string, from *Mark, before bool, limit int) ([]PuzzleProfile, int, error)
	// PuzzleAttempt returns the ended attempt of user at a puzzle.
	PuzzleAttempt(user, puzzle string) (*PuzzleAttempt, error)
	// PutPuzzleAttempt stores a.
	PutPuzzleAttempt(a *PuzzleAttempt) error
	// PuzzleTry returns the attempt under way of user.
	PuzzleTry(user string) (*PuzzleTry, error)
	// PutPuzzleTry stores t as the attempt under way of user, or drops
	// it if t is nil.
	PutPuzzleTry(user string, t *PuzzleTry) error
	// DailyPuzzle returns the daily puzzle of day.
	DailyPuzzle(day string) (*DailyPuzzle, error)
	// PutDailyPuzzle stores d.
	PutDailyPuzzle(d *DailyPuzzle) error
	// DailyPost returns the record of the daily puzzle of day posted in
	// guild.
	DailyPost(guild, day string) (*DailyPost, error)
	// PutDailyPost stores p. A backend shared by several processes
	// makes two first claims of one post at once conflict (one runs
	// again).
	PutDailyPost(p *DailyPost) error

	// RoleLink returns the role link of user.
	RoleLink(user string) (*RoleLink, error)
	// PutRoleLink stores l.
	PutRoleLink(l *RoleLink) error
	// DeleteRoleLink deletes the role link of user, if any.
	DeleteRoleLink(user string) error

	// Records calls fn with every stored record, made by its kind (the
	// RecordKind table of export.go: GameRecords, …; see Export).
	Records(fn func(Record) error) error
	// SetSequence sets the last value NextID returned for seq (see
	// Import).
	SetSequence(seq Sequence, v uint64) error
}

// Backend runs transactions of a store: View a read-only one, Update a
// read-write one that commits, durably, if fn returns nil, and writes
// nothing if fn returns an error (which Update returns). A backend may
// run fn again, in a new transaction, if its database asks to retry a
// transaction (a serialization failure or a deadlock), so fn must not
// keep what an earlier run left.
//
// Leases runs fn with the leases of the store (see Core.Claim): what fn
// reads is locked until it returns, and what it puts is kept if it
// returns nil, and not if it returns an error (which Leases returns). A
// backend whose leases end with its one process keeps them in memory and
// writes nothing to disk (bbolt); one whose processes share the database
// keeps them there, in a write transaction like Update's, which it may
// run again (PostgreSQL).
//
// ctx bounds the transaction, as each backend can: if ctx is done, the
// transaction is not begun (and, for Update and Leases, nothing is
// written), and the method returns an error wrapping ctx.Err(). PostgreSQL
// runs every statement of the transaction with ctx, so a ctx done while
// it runs cancels the statement under way (pgx cancels it on the server)
// and the transaction rolls back; a retry is not begun then. bbolt cannot
// cancel a transaction that runs: it checks ctx before it begins one (an
// Update also once it holds the write lock it waited for), and a ctx done
// later lets the transaction finish and commit. Leases in memory (bbolt)
// check ctx before they lock.
type Backend interface {
	View(ctx context.Context, fn func(Tx) error) error
	Update(ctx context.Context, fn func(Tx) error) error
	Leases(ctx context.Context, fn func(LeaseTx) error) error
}

// LeaseTx reads and writes the leases of a store, in Backend.Leases.
// Reads return an error wrapping ErrNotFound for a lease not stored.
type LeaseTx interface {
	// Lease returns the lease on the game or challenge of channel (the
	// last one given).
	Lease(kind WakeKind, channel string) (*Lease, error)
	// PutLease stores l, replacing the lease on its game or challenge.
	PutLease(l *Lease) error
}

// Sequence names a sequence of IDs.
type Sequence uint8

// The sequences of IDs.
const (
	GameIDs       Sequence = iota // games (active and finished)
	ChallengeIDs                  // challenges
	TournamentIDs                 // tournaments
)

var sequenceNames = names{"games", "challenges", "tournaments"}

// String returns "games", "challenges" or "tournaments".
func (s Sequence) String() string { return sequenceNames.text("Sequence", uint8(s)) }

// MarshalText writes s's name.
func (s Sequence) MarshalText() ([]byte, error) { return sequenceNames.marshal("Sequence", uint8(s)) }

// UnmarshalText reads a name that MarshalText writes.
func (s *Sequence) UnmarshalText(b []byte) error {
	return unmarshalName(sequenceNames, "sequence", b, s)
}

// inTx runs fn in a transaction begun by run (Backend.View, Update or
// Leases) and returns what fn returns.
func inTx[X, T any](ctx context.Context, run func(context.Context, func(X) error) error, fn func(tx X) (T, error)) (T, error) {
	var v T
	err := run(ctx, func(tx X) error {
		var err error
		v, err = fn(tx)
		return err
	})
	return v, err
}
