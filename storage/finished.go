package storage

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
)

// FinishedGame is a game that has ended, kept for good: the game as it
// ended (with its Result), its record and, unless it was aborted, the
// rating changes of both players (indexed by engine.Color; zero for an
// aborted game).
type FinishedGame struct {
	Game
	RecordText string // RECORD.md text, as game.Game.Record writes it (a tournament's forfeit says so: tournament.ForfeitResult)
	Ratings    [2]RatingChange
}

// finishedRecord is how a FinishedGame is stored.
type finishedRecord struct {
	gameRecord
	Record  string          `json:"record"`
	Ratings [2]RatingChange `json:"ratings,omitzero"`
}

// stored returns how f is stored.
func (f *FinishedGame) stored() *finishedRecord {
	return &finishedRecord{gameRecord: *f.record(), Record: f.RecordText, Ratings: f.Ratings}
}

// SetFinalBoard records that the final board of the finished game id of
// guild is owed at due (a board Discord failed to post), or, with due
// zero, that messageID shows it: a finished game whose final board is
// owed is due to the scheduler then (a Wake of kind WakeFinal, named
// FinishedWake), which posts it. It costs a commit, made only when a final
// board failed. Errors: ErrNotFound if there is no such finished game.
func (s *Core) SetFinalBoard(ctx context.Context, guild string, id uint64, messageID string, due time.Time) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		f, err := tx.Finished(guild, id)
		if err != nil {
			return err
		}
		old := f.BoardDue
		f.BoardDue = due
		if messageID != "" {
			f.BoardMessageID = messageID
		}
		if err := tx.PutFinished(f); err != nil {
			return err
		}
		return tx.IndexFinal(guild, id, old, f.stored().BoardDue)
	})
	if err != nil {
		return fmt.Errorf("final board of game %d: %w", id, err)
	}
	return nil
}

// HistoryEntry is one finished game in a player's history.
type HistoryEntry struct {
	GameID   uint64        `json:"game"`
	At       time.Time     `json:"at"` // when the game ended
	Ladder   Ladder        `json:"ladder"`
	Color    engine.Color  `json:"color"` // the player's colour
	Opponent game.Player   `json:"opponent"`
	Ending   game.Ending   `json:"ending"`
	Claimed  bool          `json:"claimed,omitempty"` // a win on time the winner claimed (game.Result.Claimed)
	Clock    game.MoveTime `json:"clock,omitzero"`    // the game's move clock; zero in entries of earlier releases
	Outcome  game.Outcome  `json:"outcome"`
	Score    engine.Score  `json:"score"`           // by colour
	Rating   RatingChange  `json:"rating,omitzero"` // zero for an aborted game
	// Forfeit: a tournament game that ended before a player's first move,
	// won or lost by forfeit (tournament.ForfeitSide); its Outcome is
	// NoContest, for no game was played and no rating changed.
	Forfeit tournament.Side `json:"forfeit,omitempty"`
}

// finish moves the active game g, which has a Result and had the wake
// time oldWake, to the finished games, rates it and adds it to both
// players' history.
func (s *Core) finish(tx Tx, g *Game, oldWake time.Time) error {
	if err := tx.DeleteGame(g.ChannelID, oldWake); err != nil {
		return err
	}
	res := g.Result()
	if g.Tournament != nil {
		if err := recordTournamentGame(tx, g); err != nil {
			return err
		}
	}
	rec := g.Record()
	var double bool
	if g.Tournament != nil {
		double = g.Tournament.Double
		if tag := tournament.ForfeitResult(res, double); tag != "" {
			rec.SetTag("Result", tag)
		}
	}
	f := &FinishedGame{Game: *g, RecordText: rec.String()}
	var err error
	if f.Ratings, err = s.rate(tx, g); err != nil {
		return err
	}
	if err := tx.PutFinished(f); err != nil {
		return err
	}
	players := g.Players()
	for c, p := range players {
		c := engine.Color(c)
		e := &HistoryEntry{
			GameID: g.ID, At: res.At, Ladder: g.Ladder(), Color: c, Opponent: players[c.Other()],
			Ending: res.Ending, Claimed: res.Claimed, Clock: g.Clock(), Outcome: res.Outcome(c), Score: res.Score, Rating: f.Ratings[c],
		}
		if g.Tournament != nil {
			e.Forfeit = tournament.ForfeitSide(res, c, double)
		}
		if err := tx.PutHistory(g.GuildID, ProfileID(p), e); err != nil {
			return err
		}
	}
	return nil
}

// FinishedGame returns the finished game with the ID id played in the
// guild, or an error wrapping ErrNotFound (also for a game of another
// guild, or one still going on).
func (s *Core) FinishedGame(ctx context.Context, guildID string, id uint64) (*FinishedGame, error) {
	f, err := inTx(ctx, s.b.View, func(tx Tx) (*FinishedGame, error) { return tx.Finished(guildID, id) })
	if err != nil {
		return nil, fmt.Errorf("guild %s: %w", guildID, err)
	}
	return f, nil
}

// History returns up to limit finished games of the player with
// ProfileID userID in the guild, most recently ended first,
// aborted games included. With before zero it starts at the latest game;
// otherwise at the game that ended before the finished game with the ID
// before (the last GameID of the previous page), or an error wrapping
// ErrNotFound if there is no such game. limit must be positive
// (ErrInvalid).
func (s *Core) History(ctx context.Context, guildID, userID string, limit int, before uint64) ([]HistoryEntry, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("history: %w: the limit %d must be positive", ErrInvalid, limit)
	}
	var out []HistoryEntry
	err := s.history(ctx, guildID, userID, before, func(e *HistoryEntry) bool {
		out = append(out, *e)
		return len(out) < limit
	})
	return out, err
}

// HeadToHead returns the results of the player with ProfileID a
// against the one with ProfileID b in the guild, from a's side, on
// both ladders; aborted games do not count. It reads a tally that every
// game's end keeps, not the history.
func (s *Core) HeadToHead(ctx context.Context, guildID, a, b string) (Tally, error) {
	t, err := inTx(ctx, s.b.View, func(tx Tx) (Tally, error) { return tx.HeadToHead(guildID, a, b) })
	if err != nil {
		return Tally{}, fmt.Errorf("head-to-head of %s and %s in guild %s: %w", a, b, guildID, err)
	}
	return t, nil
}

// RatingTrend returns the ratings of the player with ProfileID
// userID on a ladder of the guild after each of their last n rated games,
// oldest first. n must be positive (ErrInvalid).
func (s *Core) RatingTrend(ctx context.Context, guildID, userID string, ladder Ladder, n int) ([]RatingPoint, error) {
	if n <= 0 {
		return nil, fmt.Errorf("rating trend: %w: the number of games %d must be positive", ErrInvalid, n)
	}
	var out []RatingPoint
	err := s.history(ctx, guildID, userID, 0, func(e *HistoryEntry) bool {
		if e.Ladder == ladder && e.Outcome != game.NoContest {
			out = append(out, RatingPoint{GameID: e.GameID, At: e.At, Rating: e.Rating.After})
		}
		return len(out) < n
	})
	slices.Reverse(out)
	return out, err
}

// history calls fn with the history entries of player in guild, latest
// first, while fn returns true (see Tx.History).
func (s *Core) history(ctx context.Context, guild, player string, before uint64, fn func(*HistoryEntry) bool) error {
	err := s.b.View(ctx, func(tx Tx) error { return tx.History(guild, player, before, fn) })
	if err != nil {
		return fmt.Errorf("history of %s in guild %s: %w", player, guild, err)
	}
	return nil
}
