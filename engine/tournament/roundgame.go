package tournament

import (
	"errors"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// GameConfig returns what the game ref of the current round is played
// with: base, the caller's part (the move clock, the tournament's or the
// server's; weekends and timeouts; where the players live), with the
// tournament's: the pairing's players, the game's First moving first as
// red (names gives their names, the ID where it has none), the board of
// Settings.Layout (the classic square, or a random square or irregular
// board drawn from seed and the pairing, so that both games of a
// duplicate pairing share it; seed makes each tournament's boards its
// own), its rules (Settings.Rules, basic by default), and the round's
// deadline as the game's cutoff: every deadline of the game comes by it
// (game.Config.Cutoff). It returns ErrNoSuchGame for a game not of the
// current round, and an error for rules that do not parse.
func (t *Tournament) GameConfig(ref GameRef, seed uint64, names map[string]string, base game.Config) (game.Config, error) {
	g, err := t.Game(ref)
	if err != nil {
		return game.Config{}, err
	}
	if ref.Round != len(t.s.Rounds) {
		return game.Config{}, ErrNoSuchGame
	}
	rules := engine.Basic
	if s := t.s.Settings.Rules; s != "" {
		if rules, err = engine.ParseRules(s); err != nil {
			return game.Config{}, fmt.Errorf("tournament rules %q: %w", s, err)
		}
	}
	player := func(id string) game.Player {
		if n := names[id]; n != "" {
			return game.Player{UserID: id, Name: n}
		}
		return game.Player{UserID: id, Name: id}
	}
	cfg := base
	cfg.Layout, cfg.Rules, cfg.First = t.board(ref, seed), rules, engine.Red
	cfg.Players = [2]game.Player{engine.Red: player(g.First), engine.Black: player(g.Second)}
	cfg.Cutoff = t.s.Rounds[ref.Round-1].Deadline
	return cfg, nil
}

// board returns the board of the pairing of ref: a random one is drawn
// from seed, the round and the board number, the same for its games.
func (t *Tournament) board(ref GameRef, seed uint64) *engine.Layout {
	draw := seed<<32 ^ uint64(ref.Round)<<16 ^ uint64(ref.Board)
	switch t.s.Settings.Layout {
	case "random":
		return engine.RandomSquare(draw)
	case "irregular":
		return engine.RandomIrregular(draw)
	}
	return engine.Square()
}

// GameEnded records in the tournament the end of g, its game ref, and
// reports whether the tournament changed. A game played to a result
// (the board, a resignation, a loss on time, a draw) records it; one
// forfeited (game.Unstarted: a clock that ran out before its player's
// first move) records the Forfeit of the player who did not move; one
// called off (aborted, abandoned) records nothing and is left to the
// round's deadline. Nothing is recorded either, without an error, when
// the game has a result already (an adjudication, recorded before the
// game ends: EndAsJudged), or the tournament has moved on from its round
// (finished, cancelled). It returns ErrNotInGame for a game whose players
// are not the tournament game's, and ErrResult for a game not over.
func (t *Tournament) GameEnded(ref GameRef, g *game.Game) (bool, error) {
	res := g.Result()
	if res == nil {
		return false, ErrResult
	}
	tg, err := t.Game(ref)
	if err != nil {
		return false, moved(err)
	}
	first, second := g.Player(g.First()).UserID, g.Player(g.First().Other()).UserID
	if first != tg.First || second != tg.Second {
		return false, ErrNotInGame
	}
	switch {
	case res.Ending == game.Unstarted:
		err = t.Forfeit(ref, g.Player(res.Winner.Other()).UserID, res.At)
	case !res.Rated():
		return false, nil
	case res.Draw:
		err = t.Record(ref, Drawn, res.At)
	case g.Player(res.Winner).UserID == first:
		err = t.Record(ref, FirstWon, res.At)
	default:
		err = t.Record(ref, SecondWon, res.At)
	}
	if err != nil {
		return false, moved(err)
	}
	return true, nil
}

// moved returns nil for the refusals that mean the tournament has moved
// on from a game (its result recorded, its round over, the tournament
// over), err otherwise.
func moved(err error) error {
	for _, e := range []error{ErrResultRecorded, ErrNoSuchGame, ErrFinished, ErrCancelled} {
		if errors.Is(err, e) {
			return nil
		}
	}
	return err
}

// EndAsJudged ends g, the game ref, with the verdict the tournament
// recorded for it (Adjudicate): a win for the player it names, or a draw
// (game.Adjudicated, rated as any result), so that the game and the
// round agree whoever judged first. It returns ErrNotAdjudicable if the
// tournament did not adjudicate the game, ErrNotInGame for a game of
// other players, and the game's errors (engine.ErrGameOver).
func (t *Tournament) EndAsJudged(ref GameRef, g *game.Game, now time.Time) error {
	tg, err := t.Game(ref)
	if err != nil {
		return err
	}
	if !tg.Adjudicated {
		return ErrNotAdjudicable
	}
	if tg.Result == Drawn {
		return g.Adjudicate(engine.Red, true, now)
	}
	winner := tg.First
	if tg.Result == SecondWon {
		winner = tg.Second
	}
	c, err := g.Seat(winner)
	if err != nil {
		return ErrNotInGame
	}
	return g.Adjudicate(c, false, now)
}

// Release lets g, a game of a tournament cancelled while it was played
// (InProgress), go on as a casual game: its round's deadline no longer
// bounds it (game.Lift), it is played out under its own move clock, and
// it counts as any casual game (rated, unless it is called off). It
// returns the game's errors (engine.ErrGameOver).
func Release(g *game.Game) error { return g.Lift() }
