package storage

import (
	"bytes"
	"fmt"
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
	bolt "go.etcd.io/bbolt"
)

// FinishedGame is a game that has ended, kept for good: the game as it
// ended (with its Result), its record and, unless it was aborted, the
// rating changes of both players (indexed by engine.Color; zero for an
// aborted game).
type FinishedGame struct {
	Game
	Record  string          `json:"record"` // RECORD.md text, as Game.Record writes it
	Ratings [2]RatingChange `json:"ratings,omitzero"`
}

// HistoryEntry is one finished game in a player's history.
type HistoryEntry struct {
	GameID   uint64       `json:"game"`
	At       time.Time    `json:"at"` // when the game ended
	Ladder   Ladder       `json:"ladder"`
	Color    engine.Color `json:"color"` // the player's colour
	Opponent Player       `json:"opponent"`
	Ending   Ending       `json:"ending"`
	Outcome  Outcome      `json:"outcome"`
	Score    engine.Score `json:"score"`           // by colour
	Rating   RatingChange `json:"rating,omitzero"` // zero for an aborted game
}

// finishedKey returns the key of a finished game in bucketFinished.
func finishedKey(guild string, id uint64) []byte { return key(nil).str(guild).u64(id) }

// historyKey returns the key of an entry of the history of player in
// bucketHistory: by time of the end, then game ID.
func historyKey(guild, player string, at time.Time, id uint64) []byte {
	return key(nil).str(guild).str(player).time(at).u64(id)
}

// finish moves the active game g, which has a Result and had the wake
// time oldWake, to the finished games, rates it and adds it to both
// players' history.
func (s *Store) finish(tx *bolt.Tx, g *Game, oldWake time.Time) error {
	if err := tx.Bucket(bucketGames).Delete([]byte(g.ChannelID)); err != nil {
		return err
	}
	g.WakeAt = time.Time{}
	if err := setWake(tx, WakeGame, g.ChannelID, oldWake, g.WakeAt); err != nil {
		return err
	}
	rec, err := g.Record()
	if err != nil {
		return err
	}
	f := &FinishedGame{Game: *g, Record: rec.String()}
	if g.Result.Ending != Aborted {
		if f.Ratings, err = s.rate(tx, g); err != nil {
			return err
		}
	}
	if err := put(tx.Bucket(bucketFinished), finishedKey(g.GuildID, g.ID), f); err != nil {
		return err
	}
	history := tx.Bucket(bucketHistory)
	for c, p := range g.Players {
		c := engine.Color(c)
		e := &HistoryEntry{
			GameID: g.ID, At: g.Result.At, Ladder: g.Ladder(), Color: c, Opponent: g.Players[c.Other()],
			Ending: g.Result.Ending, Outcome: g.Result.Outcome(c), Score: g.Result.Score, Rating: f.Ratings[c],
		}
		if err := put(history, historyKey(g.GuildID, p.ProfileID(), e.At, g.ID), e); err != nil {
			return err
		}
	}
	return nil
}

// getFinished reads a finished game.
func getFinished(tx *bolt.Tx, guild string, id uint64) (*FinishedGame, error) {
	return get[FinishedGame](tx.Bucket(bucketFinished), finishedKey(guild, id), fmt.Sprintf("finished game %d", id))
}

// FinishedGame returns the finished game with the ID id played in the
// guild, or an error wrapping ErrNotFound (also for a game of another
// guild, or one still going on).
func (s *Store) FinishedGame(guildID string, id uint64) (*FinishedGame, error) {
	f, err := inTx(s.db.View, func(tx *bolt.Tx) (*FinishedGame, error) { return getFinished(tx, guildID, id) })
	if err != nil {
		return nil, fmt.Errorf("guild %s: %w", guildID, err)
	}
	return f, nil
}

// History returns up to limit finished games of the player with
// Player.ProfileID userID in the guild, most recently ended first,
// aborted games included. With before zero it starts at the latest game;
// otherwise at the game that ended before the finished game with the ID
// before (the last GameID of the previous page), or an error wrapping
// ErrNotFound if there is no such game. limit must be positive
// (ErrInvalid).
func (s *Store) History(guildID, userID string, limit int, before uint64) ([]HistoryEntry, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("history: %w: the limit %d must be positive", ErrInvalid, limit)
	}
	var out []HistoryEntry
	err := s.history(guildID, userID, before, func(e *HistoryEntry) bool {
		out = append(out, *e)
		return len(out) < limit
	})
	return out, err
}

// HeadToHead returns the results of the player with Player.ProfileID a
// against the one with Player.ProfileID b in the guild, from a's side, on
// both ladders; aborted games do not count.
func (s *Store) HeadToHead(guildID, a, b string) (Tally, error) {
	var t Tally
	err := s.history(guildID, a, 0, func(e *HistoryEntry) bool {
		if e.Opponent.ProfileID() == b {
			t.add(e.Outcome)
		}
		return true
	})
	return t, err
}

// RatingTrend returns the ratings of the player with Player.ProfileID
// userID on a ladder of the guild after each of their last n rated games,
// oldest first. n must be positive (ErrInvalid).
func (s *Store) RatingTrend(guildID, userID string, ladder Ladder, n int) ([]RatingPoint, error) {
	if n <= 0 {
		return nil, fmt.Errorf("rating trend: %w: the number of games %d must be positive", ErrInvalid, n)
	}
	var out []RatingPoint
	err := s.history(guildID, userID, 0, func(e *HistoryEntry) bool {
		if e.Ladder == ladder && e.Outcome != NoContest {
			out = append(out, RatingPoint{GameID: e.GameID, At: e.At, Rating: e.Rating.After})
		}
		return len(out) < n
	})
	slices.Reverse(out)
	return out, err
}

// history calls fn with the history entries of player in guild, latest
// first, while fn returns true: from the latest entry if before is zero,
// else from the entry before the end of the finished game with the ID
// before.
func (s *Store) history(guild, player string, before uint64, fn func(*HistoryEntry) bool) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		prefix := key(nil).str(guild).str(player)
		from := prefix.end()
		if before != 0 {
			f, err := getFinished(tx, guild, before)
			if err != nil {
				return err
			}
			from = historyKey(guild, player, f.Result.At, before)
		}
		c := tx.Bucket(bucketHistory).Cursor()
		k, _ := c.Seek(from)
		var v []byte
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			e := new(HistoryEntry)
			if err := decode(v, e); err != nil {
				return fmt.Errorf("history entry %q: %w", k, err)
			}
			if !fn(e) {
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("history of %s in guild %s: %w", player, guild, err)
	}
	return nil
}
