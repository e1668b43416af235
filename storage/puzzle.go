package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/engine/rating"
)

// PuzzleEntry is a puzzle of the set the bot serves (engine/puzzle), as
// stored: the puzzle as its file holds it, the hash of that content, and
// the puzzle's Glicko-2 rating, which the players' attempts move (see
// engine/puzzle's doc). Every PuzzleEntry the store returns is the
// caller's own copy.
type PuzzleEntry struct {
	Puzzle puzzle.JSON `json:"puzzle"`
	// Hash is PuzzleHash of Puzzle: the version of its content, so that a
	// set loaded again changes only the puzzles that changed.
	Hash     string        `json:"hash"`
	Rating   rating.Rating `json:"rating"`
	Attempts int           `json:"attempts"` // attempts that counted
	Solved   int           `json:"solved"`   // of them, solved
}

// ID returns the puzzle's ID.
func (e *PuzzleEntry) ID() string { return e.Puzzle.ID }

// PuzzleHash returns the hash of a puzzle's content, as PuzzleEntry.Hash
// keeps it: 16 hex digits of the SHA-256 of its JSON.
func PuzzleHash(j puzzle.JSON) string {
	b, _ := json.Marshal(j) // a struct of strings, ints and a slice of strings
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// PuzzleProfile is a player's record at puzzles: the same in every guild,
// since the puzzles are. It is a plain value.
type PuzzleProfile struct {
	UserID string        `json:"user"`
	Name   string        `json:"name"` // as at the player's latest attempt
	Rating rating.Rating `json:"rating"`
	// Attempts counts the attempts that counted (a player's first at each
	// puzzle), Solved those solved.
	Attempts int `json:"attempts"`
	Solved   int `json:"solved"`
	// Streak is the current run of puzzles solved; BestStreak the longest.
	Streak     int `json:"streak"`
	BestStreak int `json:"best_streak"`
	// Guilds are the guilds the player did puzzles in: the puzzle
	// leaderboards that show them (a guild's shows its own players only,
	// never the names of another server's); "" is the leaderboard of
	// everywhere outside the servers.
	Guilds []string `json:"guilds,omitempty"`
}

// MarkOfPuzzles returns the mark of p on the puzzle leaderboards.
func MarkOfPuzzles(p *PuzzleProfile) Mark {
	return Mark{Player: p.UserID, rating: orderedFloat(p.Rating.Rating), games: uint64(p.Attempts)}
}

// RankKey returns the key that orders the puzzle leaderboards: by
// rating (higher first), attempts (more first), name (ignoring case) and
// ID, as Profile.RankKey orders a ladder.
func (p *PuzzleProfile) RankKey() []byte { return MarkOfPuzzles(p).rankKey(p.Name, p.UserID) }

// PuzzleAttempt is a player's attempt at a puzzle that ended: the record
// that keeps NextPuzzle from giving it to them again.
type PuzzleAttempt struct {
	UserID   string    `json:"user"`
	PuzzleID string    `json:"puzzle"`
	At       time.Time `json:"at"`
	Solved   bool      `json:"solved"`
}

// PuzzleTry is a player's attempt under way, kept so that it survives a
// restart: the puzzle and the moves played since its position (the
// player's and the defence's), and, for the daily puzzle, its day. A
// player has at most one.
type PuzzleTry struct {
	UserID   string    `json:"user"`
	PuzzleID string    `json:"puzzle"`
	Daily    string    `json:"daily,omitempty"` // the day (puzzle.Day) if it is the daily puzzle
	Moves    []string  `json:"moves,omitempty"`
	Started  time.Time `json:"started"`
}

// Step is how many moves were played in t: what a stale click is told
// by.
func (t *PuzzleTry) Step() int { return len(t.Moves) }

// DailyPuzzle is the daily puzzle of a UTC day and who solved it.
type DailyPuzzle struct {
	Day      string `json:"day"` // puzzle.Day
	PuzzleID string `json:"puzzle"`
	Solved   int    `json:"solved"` // how many players solved it
	// First are the first players to solve it, up to DailyFirst.
	First []PuzzleSolver `json:"first,omitempty"`
}

// DailyFirst is how many of the first solvers of a daily puzzle are kept.
const DailyFirst = 3

// PuzzleSolver names a player who solved a daily puzzle.
type PuzzleSolver struct {
	UserID string `json:"user"`
	Name   string `json:"name"`
}

// DailyPost records the daily puzzle of Day posted in a guild: claimed
// (MessageID empty) before the post, so that it goes out once.
type DailyPost struct {
	GuildID   string `json:"guild"`
	Day       string `json:"day"`
	ChannelID string `json:"channel"`
	MessageID string `json:"message,omitempty"`
}

// PuzzleResult is the end of a player's attempt under way (FinishPuzzle).
type PuzzleResult struct {
	UserID, Name, GuildID string
	PuzzleID              string
	Step                  int // the attempt's Step when it ended
	Solved                bool
	At                    time.Time
}

// PuzzleOutcome is what an attempt that ended did: the player's rating
// before and after (equal if it did not count: the player had tried the
// puzzle before), the profile as stored, and the daily puzzle as stored
// if it was the daily's.
type PuzzleOutcome struct {
	Counted       bool
	Before, After rating.Rating
	Profile       PuzzleProfile
	Daily         *DailyPuzzle
}

// puzzleSetName names the puzzle set a store serves, in the record of
// the set loaded last.
const puzzleSetName = "shipped"

// LoadPuzzles stores the puzzle set ps, whose puzzles are checked
// already (engine/puzzle reads them so): a puzzle not stored is added
// with its starting rating, one stored with other content (another
// PuzzleHash) takes the new content and keeps its rating. It reports how
// many it added or changed. A set loaded before, the same (a restart, a
// second process), changes nothing and costs one read; two processes
// loading at once load it once (on PostgreSQL, the second's transaction
// conflicts, runs again and finds the set loaded).
func (s *Core) LoadPuzzles(ctx context.Context, ps []puzzle.JSON) (int, error) {
	hashes := make([]string, len(ps))
	all := sha256.New()
	for i, p := range ps {
		hashes[i] = PuzzleHash(p)
		all.Write([]byte(p.ID + hashes[i]))
	}
	set := hex.EncodeToString(all.Sum(nil)[:8])
	n, err := inTx(ctx, s.b.Update, func(tx Tx) (int, error) {
		if have, err := tx.PuzzleSet(puzzleSetName); err == nil && have == set {
			return 0, nil
		} else if err != nil && !isNotFound(err) {
			return 0, err
		}
		n := 0
		for i, p := range ps {
			old, err := tx.Puzzle(p.ID)
			switch {
			case isNotFound(err):
				err = tx.PutPuzzle(&PuzzleEntry{Puzzle: p, Hash: hashes[i], Rating: puzzle.StartRating(p.Rating)}, nil)
			case err == nil && old.Hash != hashes[i]:
				e := *old
				e.Puzzle, e.Hash = p, hashes[i]
				err = tx.PutPuzzle(&e, old)
			case err == nil:
				continue
			}
			if err != nil {
				return 0, fmt.Errorf("puzzle %s: %w", p.ID, err)
			}
			n++
		}
		return n, tx.PutPuzzleSet(puzzleSetName, set)
	})
	if err != nil {
		return 0, fmt.Errorf("load the puzzles: %w", err)
	}
	return n, nil
}

// Puzzle returns the stored puzzle id (ErrNotFound if none).
func (s *Core) Puzzle(ctx context.Context, id string) (*PuzzleEntry, error) {
	e, err := inTx(ctx, s.b.View, func(tx Tx) (*PuzzleEntry, error) { return tx.Puzzle(id) })
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, err)
	}
	return e, nil
}

// NextPuzzle returns the puzzle for the user's next attempt: the one
// whose rating is nearest the user's puzzle rating (a new player's,
// 1500, if none) among those they never tried; if they tried them all,
// the nearest of all. Ties go to the higher rating, then the lower ID.
// It reads the puzzles from the user's rating outwards, skipping those
// tried: O(log n) plus the puzzles tried near it. ErrNotFound if no
// puzzle is stored.
func (s *Core) NextPuzzle(ctx context.Context, userID string) (*PuzzleEntry, error) {
	e, err := inTx(ctx, s.b.View, func(tx Tx) (*PuzzleEntry, error) {
		r := rating.New().Rating
		if p, err := tx.PuzzleProfile(userID); err == nil {
			r = p.Rating.Rating
		} else if !isNotFound(err) {
			return nil, err
		}
		for _, skip := range []string{userID, ""} {
			up, down, err := tx.PuzzlesAround(r, skip)
			if err != nil {
				return nil, err
			}
			if e := nearer(r, up, down); e != nil {
				return e, nil
			}
		}
		return nil, fmt.Errorf("no puzzle: %w", ErrNotFound)
	})
	if err != nil {
		return nil, fmt.Errorf("next puzzle of %s: %w", userID, err)
	}
	return e, nil
}

// DailyPuzzle returns the daily puzzle of day (puzzle.Day): the one
// chosen for it before, or, the first time it is asked for, the one
// engine/puzzle's rule picks among the puzzles stored (puzzle.DailyIndex
// over those in the daily band), recorded so that it stays the day's.
// ErrNotFound if no stored puzzle is in the band.
func (s *Core) DailyPuzzle(ctx context.Context, day string) (*DailyPuzzle, error) {
	d, err := inTx(ctx, s.b.View, func(tx Tx) (*DailyPuzzle, error) { return tx.DailyPuzzle(day) })
	if err == nil || !isNotFound(err) {
		return d, wrapDaily(day, err)
	}
	d, err = inTx(ctx, s.b.Update, func(tx Tx) (*DailyPuzzle, error) {
		if d, err := tx.DailyPuzzle(day); !isNotFound(err) {
			return d, err
		}
		ids, err := tx.PuzzlesRated(puzzle.DailyLow, puzzle.DailyHigh)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("no puzzle rated %d to %d: %w", puzzle.DailyLow, puzzle.DailyHigh, ErrNotFound)
		}
		d := &DailyPuzzle{Day: day, PuzzleID: ids[puzzle.DailyIndex(day, len(ids))]}
		return d, tx.PutDailyPuzzle(d)
	})
	return d, wrapDaily(day, err)
}

// wrapDaily wraps err, if any, as about the daily puzzle of day.
func wrapDaily(day string, err error) error {
	if err != nil {
		return fmt.Errorf("daily puzzle of %s: %w", day, err)
	}
	return nil
}

// PuzzleProfile returns the user's record at puzzles (ErrNotFound if no
// attempt of theirs counted yet).
func (s *Core) PuzzleProfile(ctx context.Context, userID string) (*PuzzleProfile, error) {
	p, err := inTx(ctx, s.b.View, func(tx Tx) (*PuzzleProfile, error) { return tx.PuzzleProfile(userID) })
	if err != nil {
		return nil, fmt.Errorf("puzzle profile of %s: %w", userID, err)
	}
	return p, nil
}

// PuzzleLeaderboard returns up to limit players of the guild's puzzle
// leaderboard in rank order (PuzzleProfile.RankKey): from the top if from
// is nil, else after the mark (before it if before is set); and how many
// players it has. Read from the rank index in O(page). ErrNotFound if the
// mark's player is not on it; ErrInvalid if limit is not positive.
func (s *Core) PuzzleLeaderboard(ctx context.Context, guildID string, from *Mark, before bool, limit int) ([]PuzzleProfile, int, error) {
	if limit <= 0 {
		return nil, 0, fmt.Errorf("%w: a page of %d players", ErrInvalid, limit)
	}
	type page struct {
		ps    []PuzzleProfile
		total int
	}
	p, err := inTx(ctx, s.b.View, func(tx Tx) (page, error) {
		ps, total, err := tx.PuzzleLeaderboard(guildID, from, before, limit)
		return page{ps, total}, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("puzzle leaderboard of guild %s: %w", guildID, err)
	}
	return p.ps, p.total, nil
}

// PuzzleAttempt returns the user's attempt at the puzzle, if it ended
// (ErrNotFound if they never finished one).
func (s *Core) PuzzleAttempt(ctx context.Context, userID, puzzleID string) (*PuzzleAttempt, error) {
	a, err := inTx(ctx, s.b.View, func(tx Tx) (*PuzzleAttempt, error) { return tx.PuzzleAttempt(userID, puzzleID) })
	if err != nil {
		return nil, fmt.Errorf("attempt of %s at puzzle %s: %w", userID, puzzleID, err)
	}
	return a, nil
}

// PuzzleTry returns the user's attempt under way (ErrNotFound if none).
func (s *Core) PuzzleTry(ctx context.Context, userID string) (*PuzzleTry, error) {
	t, err := inTx(ctx, s.b.View, func(tx Tx) (*PuzzleTry, error) { return tx.PuzzleTry(userID) })
	if err != nil {
		return nil, fmt.Errorf("puzzle under way of %s: %w", userID, err)
	}
	return t, nil
}

// StartPuzzle stores t as the user's attempt under way, in place of any
// other. ErrNotFound if its puzzle is not stored; ErrInvalid for a try
// without a user.
func (s *Core) StartPuzzle(ctx context.Context, t *PuzzleTry) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		if err := checkID("user ID", t.UserID); err != nil {
			return err
		}
		if _, err := tx.Puzzle(t.PuzzleID); err != nil {
			return err
		}
		return tx.PutPuzzleTry(t.UserID, t)
	})
	if err != nil {
		return fmt.Errorf("start puzzle %s for %s: %w", t.PuzzleID, t.UserID, err)
	}
	return nil
}

// AdvancePuzzle stores next as the user's attempt under way if the one
// stored is at the same puzzle and at step: a click of a step that is
// not the attempt's (a second click on the same menu, an old message)
// changes nothing and returns ErrNotFound, as does an attempt that is
// not there.
func (s *Core) AdvancePuzzle(ctx context.Context, step int, next *PuzzleTry) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		if _, err := currentTry(tx, next.UserID, next.PuzzleID, step); err != nil {
			return err
		}
		return tx.PutPuzzleTry(next.UserID, next)
	})
	if err != nil {
		return fmt.Errorf("advance puzzle %s for %s: %w", next.PuzzleID, next.UserID, err)
	}
	return nil
}

// currentTry returns the user's attempt under way if it is at the puzzle
// and at step, else an error wrapping ErrNotFound.
func currentTry(tx Tx, userID, puzzleID string, step int) (*PuzzleTry, error) {
	t, err := tx.PuzzleTry(userID)
	if err != nil {
		return nil, err
	}
	if t.PuzzleID != puzzleID || t.Step() != step {
		return nil, fmt.Errorf("the attempt under way is at puzzle %s, step %d: %w", t.PuzzleID, t.Step(), ErrNotFound)
	}
	return t, nil
}

// FinishPuzzle ends the user's attempt under way, if it is at r.PuzzleID
// and r.Step (else ErrNotFound, as AdvancePuzzle), in one transaction: the
// attempt is recorded, and, if it is the user's first at the puzzle, it
// counts: both ratings change (puzzle.Rate), the streak grows or ends,
// the player joins the leaderboard of r.GuildID ("" outside the servers:
// the leaderboard of everywhere), and a daily puzzle
// solved counts its solver.
func (s *Core) FinishPuzzle(ctx context.Context, r PuzzleResult) (*PuzzleOutcome, error) {
	o, err := inTx(ctx, s.b.Update, func(tx Tx) (*PuzzleOutcome, error) {
		try, err := currentTry(tx, r.UserID, r.PuzzleID, r.Step)
		if err != nil {
			return nil, err
		}
		if err := checkGuildID(r.GuildID); err != nil {
			return nil, err
		}
		if err := tx.PutPuzzleTry(r.UserID, nil); err != nil {
			return nil, err
		}
		old, err := tx.PuzzleProfile(r.UserID)
		p := &PuzzleProfile{UserID: r.UserID, Rating: rating.New()}
		switch {
		case err == nil:
			*p = *old
			p.Guilds = slices.Clone(old.Guilds)
		case !isNotFound(err):
			return nil, err
		default:
			old = nil
		}
		o := &PuzzleOutcome{Before: p.Rating, After: p.Rating}
		if _, err := tx.PuzzleAttempt(r.UserID, r.PuzzleID); err == nil {
			o.Profile = *p
			return o, nil // tried before: it does not count again
		} else if !isNotFound(err) {
			return nil, err
		}
		e, err := tx.Puzzle(r.PuzzleID)
		if err != nil {
			return nil, err
		}
		ne := *e
		p.Rating, ne.Rating = puzzle.Rate(p.Rating, e.Rating, r.Solved)
		ne.Attempts++
		p.Attempts++
		p.Name = r.Name
		if r.Solved {
			ne.Solved++
			p.Solved++
			p.Streak++
			p.BestStreak = max(p.BestStreak, p.Streak)
		} else {
			p.Streak = 0
		}
		if !slices.Contains(p.Guilds, r.GuildID) {
			p.Guilds = append(p.Guilds, r.GuildID)
		}
		if err := tx.PutPuzzle(&ne, e); err != nil {
			return nil, err
		}
		if err := tx.PutPuzzleProfile(p, old); err != nil {
			return nil, err
		}
		if err := tx.PutPuzzleAttempt(&PuzzleAttempt{UserID: r.UserID, PuzzleID: r.PuzzleID, At: r.At, Solved: r.Solved}); err != nil {
			return nil, err
		}
		o.Counted, o.After, o.Profile = true, p.Rating, *p
		if try.Daily == "" || !r.Solved {
			return o, nil
		}
		d, err := tx.DailyPuzzle(try.Daily)
		if err != nil || d.PuzzleID != r.PuzzleID {
			return o, err
		}
		d.Solved++
		if len(d.First) < DailyFirst {
			d.First = append(d.First, PuzzleSolver{UserID: r.UserID, Name: r.Name})
		}
		o.Daily = d
		return o, tx.PutDailyPuzzle(d)
	})
	if err != nil {
		return nil, fmt.Errorf("finish puzzle %s for %s: %w", r.PuzzleID, r.UserID, err)
	}
	return o, nil
}

// ClaimDailyPost claims the post of the daily puzzle of day in the
// guild's channel, in one transaction: true if this call claimed it,
// false if it was claimed before (by this process or another sharing the
// store, before a restart or not). The post goes out once: a post that
// fails after its claim is not posted again.
func (s *Core) ClaimDailyPost(ctx context.Context, guildID, day, channelID string) (bool, error) {
	got, err := inTx(ctx, s.b.Update, func(tx Tx) (bool, error) {
		if err := checkID("guild ID", guildID); err != nil {
			return false, err
		}
		if err := checkID("channel ID", channelID); err != nil {
			return false, err
		}
		if _, err := tx.DailyPost(guildID, day); err == nil {
			return false, nil
		} else if !isNotFound(err) {
			return false, err
		}
		return true, tx.PutDailyPost(&DailyPost{GuildID: guildID, Day: day, ChannelID: channelID})
	})
	if err != nil {
		return false, fmt.Errorf("claim the daily puzzle of %s in guild %s: %w", day, guildID, err)
	}
	return got, nil
}

// NoteDailyPost records the message that posted the daily puzzle of day
// in the guild, claimed by ClaimDailyPost (ErrNotFound if not claimed).
func (s *Core) NoteDailyPost(ctx context.Context, guildID, day, messageID string) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		p, err := tx.DailyPost(guildID, day)
		if err != nil {
			return err
		}
		p.MessageID = messageID
		return tx.PutDailyPost(p)
	})
	if err != nil {
		return fmt.Errorf("note the daily puzzle of %s in guild %s: %w", day, guildID, err)
	}
	return nil
}

// DailyPost returns the record of the daily puzzle of day posted in the
// guild (ErrNotFound if none was claimed).
func (s *Core) DailyPost(ctx context.Context, guildID, day string) (*DailyPost, error) {
	p, err := inTx(ctx, s.b.View, func(tx Tx) (*DailyPost, error) { return tx.DailyPost(guildID, day) })
	if err != nil {
		return nil, fmt.Errorf("daily puzzle of %s in guild %s: %w", day, guildID, err)
	}
	return p, nil
}

// nearer returns whichever of up (rated r or more) and down (below r)
// is nearer r, up if they are as near; nil if both are.
func nearer(r float64, up, down *PuzzleEntry) *PuzzleEntry {
	if up == nil || (down != nil && r-down.Rating.Rating < up.Rating.Rating-r) {
		return down
	}
	return up
}
