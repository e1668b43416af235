package storage

import (
	"context"
	"fmt"
	"time"
)

// CreateGame stores g as the active game of g.ChannelID and sets g.ID to a
// new unique ID, and opens the vacation bank of each of its players who
// has none, in the same transaction (openBanks). It returns an error wrapping ErrChannelBusy if the channel
// already has a game or an open challenge, and ErrInvalid if g may not be
// stored (no game, a bad place or player, a game that is over).
func (s *Core) CreateGame(ctx context.Context, g *Game) error {
	id, err := inTx(ctx, s.b.Update, func(tx Tx) (uint64, error) { return createGame(tx, g) })
	if err != nil {
		return fmt.Errorf("create game in channel %s: %w", g.ChannelID, err)
	}
	g.ID = id
	return nil
}

// createGame stores g with a new ID, which it returns.
func createGame(tx Tx, g *Game) (uint64, error) {
	if err := g.check(); err != nil {
		return 0, err
	}
	if g.Over() {
		return 0, fmt.Errorf("%w: a new game cannot have a result", ErrInvalid)
	}
	if err := checkFree(tx, g.ChannelID); err != nil {
		return 0, err
	}
	id, err := tx.NextID(GameIDs)
	if err != nil {
		return 0, err
	}
	n := *g
	n.ID = id
	if err := tx.PutGame(&n, time.Time{}); err != nil {
		return 0, err
	}
	return id, openBanks(tx, &n)
}

// checkFree returns an error wrapping ErrChannelBusy if channel has an
// active game or an open challenge.
func checkFree(tx Tx, channel string) error {
	if _, _, err := tx.Game(channel); err == nil {
		return fmt.Errorf("%w: a game is going on there", ErrChannelBusy)
	} else if !isNotFound(err) {
		return err
	}
	if _, err := tx.Challenge(channel); err == nil {
		return fmt.Errorf("%w: a challenge is open there", ErrChannelBusy)
	} else if !isNotFound(err) {
		return err
	}
	return nil
}

// ActiveGames returns the number of active games of every guild: one
// read that counts, without decoding a game (for monitoring, which asks
// often).
func (s *Core) ActiveGames(ctx context.Context) (int, error) {
	n, err := inTx(ctx, s.b.View, func(tx Tx) (int, error) { return tx.CountGames() })
	if err != nil {
		return 0, fmt.Errorf("count the active games: %w", err)
	}
	return n, nil
}

// Game returns the active game of the channel, or an error wrapping
// ErrNotFound if there is none (a finished game is no longer active).
func (s *Core) Game(ctx context.Context, channelID string) (*Game, error) {
	g, err := inTx(ctx, s.b.View, func(tx Tx) (*Game, error) {
		g, _, err := tx.Game(channelID)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("channel %s: %w", channelID, err)
	}
	return g, nil
}

// UpdateGame changes the active game of the channel in one transaction:
// it calls fn with the stored game, whose methods fn calls to make the
// change (g.Play, g.Resign, …), and stores what fn leaves, then returns
// it. If fn returns an error, or leaves a game the store refuses (an error
// wrapping ErrInvalid: another ID, place or game), nothing is written and
// the error is returned; ErrNotFound if the channel has no active game.
//
// If the game has a result when fn returns, the same transaction moves it
// to the finished games, adds it to both players' history and, unless it
// was aborted, updates both players' profiles and ratings on the game's
// ladder: one durable commit for the move, the clock, the result and the
// ratings.
//
// Writes to a game are serialized, so fn always sees the latest game: a
// move checked against the board the player saw is safe, since
// game.Game.Play refuses another ply (game.ErrStale).
//
// fn runs inside the write transaction, which blocks other writes to the
// game: it must be quick, must not wait for the network and must not call
// the store. It may keep no reference to g, and may be called again (see
// Backend).
func (s *Core) UpdateGame(ctx context.Context, channelID string, fn func(*Game) error) (*Game, error) {
	g, err := inTx(ctx, s.b.Update, func(tx Tx) (*Game, error) {
		g, wake, err := tx.Game(channelID)
		if err != nil {
			return nil, err
		}
		old := g.record()
		if err := fn(g); err != nil {
			return nil, err
		}
		if err := g.check(); err != nil {
			return nil, err
		}
		if err := g.checkUpdate(old); err != nil {
			return nil, err
		}
		if g.Over() {
			return g, s.finish(tx, g, wake)
		}
		return g, tx.PutGame(g, wake)
	})
	if err != nil {
		return nil, fmt.Errorf("update game in channel %s: %w", channelID, err)
	}
	return g, nil
}
