package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The buckets of the file. Keys are built with key; "guild" is a guild ID,
// "player" a Player.ProfileID.
var (
	bucketMeta       = []byte("meta")       // "schema" → version, 8 bytes big-endian
	bucketGames      = []byte("games")      // channel → Game (active)
	bucketChallenges = []byte("challenges") // channel → Challenge (open)
	bucketWake       = []byte("wake")       // time ‖ kind ‖ channel → nothing
	bucketFinished   = []byte("finished")   // guild ‖ game ID → FinishedGame
	bucketHistory    = []byte("history")    // guild ‖ player ‖ end time ‖ game ID → HistoryEntry
	bucketProfiles   = []byte("profiles")   // guild ‖ ladder ‖ player → Profile
	bucketRanks      = []byte("ranks")      // guild ‖ ladder ‖ rank order ‖ player → player
	bucketGuilds     = []byte("guilds")     // guild → GuildSettings
	bucketUsers      = []byte("users")      // user → UserSettings

	allBuckets = [][]byte{bucketMeta, bucketGames, bucketChallenges, bucketWake, bucketFinished,
		bucketHistory, bucketProfiles, bucketRanks, bucketGuilds, bucketUsers, bucketReviews, bucketPending,
		bucketSeasonProfiles, bucketSeasonRanks, bucketTournaments, bucketVacations,
		bucketLastFinished, bucketGuildGames, bucketHeadToHead, bucketLadderSizes, bucketSeasonSizes,
		bucketPuzzles, bucketPuzzleRatings, bucketPuzzleProfiles, bucketPuzzleRanks, bucketPuzzleSizes,
		bucketPuzzleAttempts, bucketPuzzleTries, bucketDailyPuzzles, bucketDailyPosts,
		bucketRankBands, bucketSeasonRankBands, bucketPlayerGames, bucketGuildGameCounts, bucketRoleLinks}

	keySchema = []byte("schema")
)

// DefaultTimeout is how long Open waits for another process to let go of
// the file when Options.Timeout is zero.
const DefaultTimeout = time.Second

// DefaultRatingPeriod is the time away from the game that counts as one
// Glicko-2 rating period when Options.RatingPeriod is zero: lichess's
// 0.21436 periods a day, which brings an established RD of 60 back to a
// provisional 110 after a year without games.
const DefaultRatingPeriod = 24 * time.Hour * 100000 / 21436

// Options are the settings of Open. The zero value is ready to use.
type Options struct {
	// Timeout is how long Open waits for another process that holds the
	// file; DefaultTimeout if zero.
	Timeout time.Duration
	// RatingPeriod is the time without games after which a player's rating
	// deviation grows by one Glicko-2 period (rating.Decay) before their
	// next game is rated; DefaultRatingPeriod if zero, no growth if
	// negative.
	RatingPeriod time.Duration
	// GuildDefaults are the settings of a guild that has changed none.
	GuildDefaults GuildSettings
	// UserDefaults are the settings of a user who has changed none.
	UserDefaults UserSettings
	// NoSync skips the fsync of every commit: a crash of the machine may
	// then lose or corrupt the file. Only for filling a database in bulk
	// (tests that need thousands of games); kulamibot never sets it.
	NoSync bool
	// Updated, if set, is called after every write transaction with how
	// long it took, commit included, and its error (nil: committed), for
	// monitoring; it must be quick. A hook rather than a metric here:
	// storage knows nothing of how it is monitored.
	Updated func(took time.Duration, err error)
	// Log, if set, receives the progress of the schema upgrades that Open
	// runs in batches (bbolt: the build of the indexes); nothing is
	// logged if it is nil.
	Log *slog.Logger
}

// Store is an open kulami database in a bbolt file: the bbolt backend.
// Its methods other than NoteBoard, Backup and Close are Core's. It is
// safe for concurrent use.
type Store struct {
	*Core
	db     *bolt.DB
	path   string
	opt    Options
	boards boardNotes // board messages noted and not yet written
	leases leases     // claims on the work of wakes (Claim)
	writes groupCommit
}

// Open opens the database file at path, creating it if it does not exist,
// and migrates a file of an older schema. It returns an error wrapping
// ErrLocked if another process holds the file for longer than
// opt.Timeout, ErrSchemaTooNew for a file of a newer kulamibot, and
// ErrNotKulami for a file that is not a kulami database.
func Open(path string, opt Options) (*Store, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.RatingPeriod == 0 {
		opt.RatingPeriod = DefaultRatingPeriod
	}
	if err := checkBoltFile(path); err != nil {
		return nil, fmt.Errorf("open %s: %w; check storage.path, or name a file that does not exist to start a new database", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:      opt.Timeout,
		FreelistType: bolt.FreelistMapType,
		NoSync:       opt.NoSync,
	})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("open %s: %w (waited %v; is another kulamibot running? stop it or use another file)", path, ErrLocked, opt.Timeout)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch):
		return nil, fmt.Errorf("open %s: %w (%v); check the path", path, ErrNotKulami, err)
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := db.Update(prepare); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Store{db: db, path: path, opt: opt}
	upgrading := opt
	upgrading.Updated = nil // not a write of the store's
	if err := NewCore(boltBackend{s}, upgrading).RebuildSeasons(context.Background(), boltSeasonsMark, log); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := buildPendingIndexes(db, log); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s.Core = NewCore(boltBackend{s}, opt)
	return s, nil
}

// Close writes the board notes not yet written (see NoteBoard) in one
// commit, so that a restart finds every board shown and none owed, and
// closes the file. Methods called after Close fail.
func (s *Store) Close() error {
	return errors.Join(s.writeNotes(), s.db.Close())
}

// writeNotes writes the games whose board notes no write stored yet, with
// their notes, in one commit; none if there is no such note.
func (s *Store) writeNotes() error {
	channels := s.boards.pending()
	if len(channels) == 0 {
		return nil
	}
	err := boltBackend{s}.Update(context.Background(), func(tx Tx) error {
		for _, ch := range channels {
			g, wake, err := tx.Game(ch)
			if isNotFound(err) {
				continue // ended: the end wrote the note
			} else if err != nil {
				return err
			}
			if err := tx.PutGame(g, wake); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write the board notes of %s: %w", s.path, err)
	}
	return nil
}

// Path returns the path of the database file.
func (s *Store) Path() string { return s.path }

// Commits returns how many write transactions the file has committed:
// the transaction ID of bbolt's meta page, which every commit raises by
// one (a commit is one fsync'd write of the meta page, the cost a write
// has) and a rollback leaves alone. It is read from the database, not
// counted by the methods, so it counts every write whichever method made
// it (an empty one included); operators and tests compare two readings
// to tell what some work cost on disk. It fails after Close.
func (s *Store) Commits(ctx context.Context) (uint64, error) {
	var id int
	if err := begin(ctx); err != nil {
		return 0, fmt.Errorf("count the commits of %s: %w", s.path, err)
	}
	if err := s.db.View(func(tx *bolt.Tx) error {
		id = tx.ID()
		return nil
	}); err != nil {
		return 0, fmt.Errorf("count the commits of %s: %w", s.path, err)
	}
	return uint64(id), nil
}

// releaseEvery is how many records an export or an import of a bbolt file
// reads or writes between two releases of the file's pages (release):
// a few tens of MiB of the file mapped at most.
const releaseEvery = 10000

// Import is Core.Import that also gives back, every releaseEvery records,
// the pages of the file its batches mapped (release), so that an import
// into a large file keeps little of it mapped.
func (s *Store) Import(ctx context.Context, records func(ctx context.Context, fn func(Record) error) error) (map[string]int, error) {
	return s.Core.Import(ctx, func(ctx context.Context, fn func(Record) error) error {
		n := 0
		return records(ctx, func(r Record) error {
			if n++; n%releaseEvery == 0 {
				if err := s.db.View(func(tx *bolt.Tx) error { release(tx); return nil }); err != nil {
					return err
				}
			}
			return fn(r)
		})
	})
}
