package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
)

// Challenge is the open challenge of a channel: a challenge.Challenge
// (package engine/challenge: who offers what to whom, and the rules of
// answering it) and where it is offered. The store fills in ID. A
// Challenge is a plain value, not safe for concurrent use.
//
// It is stored as the JSON of its fields, the challenge's inline. Values
// of older versions also hold "wake_at", the wake time the bot set: it
// always equalled the expiry, and the store now indexes every challenge
// under challenge.Challenge.Wake instead.
type Challenge struct {
	ID        uint64 `json:"id"` // unique, set by CreateChallenge
	GuildID   string `json:"guild,omitempty"`
	ChannelID string `json:"channel"`
	MessageID string `json:"message,omitempty"` // the message that shows the challenge
	challenge.Challenge
}

// check returns an error wrapping ErrInvalid if c may not be stored: a bad
// place or player ID, or a value the challenge's own checks refuse
// (challenge.Challenge.Check).
func (c *Challenge) check() error {
	if err := checkGuildID(c.GuildID); err != nil {
		return err
	}
	if err := checkID("channel ID", c.ChannelID); err != nil {
		return err
	}
	if err := checkPlayer(c.From, "challenger"); err != nil {
		return err
	}
	if c.To != (game.Player{}) {
		if err := checkPlayer(c.To, "challenged player"); err != nil {
			return err
		}
	}
	if err := c.Check(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// CreateChallenge stores c as the open challenge of c.ChannelID. It sets
// c.ID to a new unique ID and c.Layout to its canonical form. It returns
// an error wrapping ErrChannelBusy if the channel already has a game or an
// open challenge, and ErrInvalid if c may not be stored.
func (s *Core) CreateChallenge(ctx context.Context, c *Challenge) error {
	id, err := inTx(ctx, s.b.Update, func(tx Tx) (uint64, error) {
		id, err := tx.NextID(ChallengeIDs)
		if err != nil {
			return 0, err
		}
		n := *c
		n.ID, n.Layout = id, canonicalLayout(c.Layout)
		if err := n.check(); err != nil {
			return 0, err
		}
		if err := checkFree(tx, n.ChannelID); err != nil {
			return 0, err
		}
		return id, tx.PutChallenge(&n, time.Time{})
	})
	if err != nil {
		return fmt.Errorf("create challenge in channel %s: %w", c.ChannelID, err)
	}
	c.ID, c.Layout = id, canonicalLayout(c.Layout)
	return nil
}

// Challenge returns the open challenge of the channel, or an error
// wrapping ErrNotFound.
func (s *Core) Challenge(ctx context.Context, channelID string) (*Challenge, error) {
	c, err := inTx(ctx, s.b.View, func(tx Tx) (*Challenge, error) { return tx.Challenge(channelID) })
	if err != nil {
		return nil, fmt.Errorf("channel %s: %w", channelID, err)
	}
	return c, nil
}

// UpdateChallenge changes the open challenge of the channel in one
// transaction, as UpdateGame does for games: fn changes the stored
// challenge, and nothing is written if it returns an error. The ID, the
// place, the players' IDs and the creation time may not change
// (ErrInvalid). fn runs inside the write transaction: it must be quick and
// must not call the Store.
func (s *Core) UpdateChallenge(ctx context.Context, channelID string, fn func(*Challenge) error) (*Challenge, error) {
	c, err := inTx(ctx, s.b.Update, func(tx Tx) (*Challenge, error) {
		c, err := tx.Challenge(channelID)
		if err != nil {
			return nil, err
		}
		old := *c
		if err := fn(c); err != nil {
			return nil, err
		}
		if c.ID != old.ID || c.GuildID != old.GuildID || c.ChannelID != old.ChannelID ||
			ProfileID(c.From) != ProfileID(old.From) || ProfileID(c.To) != ProfileID(old.To) || !c.Created.Equal(old.Created) {
			return nil, fmt.Errorf("%w: challenge %d: the ID, place, players and creation time may not change", ErrInvalid, old.ID)
		}
		c.Layout = canonicalLayout(c.Layout)
		if err := c.check(); err != nil {
			return nil, err
		}
		return c, tx.PutChallenge(c, old.Wake())
	})
	if err != nil {
		return nil, fmt.Errorf("update challenge in channel %s: %w", channelID, err)
	}
	return c, nil
}

// takeChallenge deletes the challenge with the ID id from channel and
// returns it, or returns an error wrapping ErrNotFound if the channel's
// open challenge (if any) is another.
func takeChallenge(tx Tx, channel string, id uint64) (*Challenge, error) {
	c, err := tx.Challenge(channel)
	if err != nil {
		return nil, err
	}
	if c.ID != id {
		return nil, fmt.Errorf("challenge %d is no longer open (challenge %d is): %w", id, c.ID, ErrNotFound)
	}
	return c, tx.DeleteChallenge(channel, c.Wake())
}

// DeleteChallenge withdraws the challenge with the ID id from the channel
// (it was withdrawn, declined or expired). It returns an error wrapping
// ErrNotFound if the channel's open challenge is not that one, so that an
// old button or a late expiry never removes a newer challenge.
func (s *Core) DeleteChallenge(ctx context.Context, channelID string, id uint64) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		_, err := takeChallenge(tx, channelID, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete challenge in channel %s: %w", channelID, err)
	}
	return nil
}

// AcceptChallenge closes the challenge with the ID challengeID of the
// channel and creates the game g in one transaction; g may be played in
// the same channel or in another (a thread). It returns an error wrapping
// ErrNotFound if the challenge is no longer open (already accepted,
// withdrawn, expired), ErrChannelBusy if g's channel is taken, and
// ErrInvalid if g may not be stored or is not between the challenge's
// players in its guild; on any error nothing changes. Like CreateGame, it
// sets g.ID.
func (s *Core) AcceptChallenge(ctx context.Context, channelID string, challengeID uint64, g *Game) error {
	id, err := inTx(ctx, s.b.Update, func(tx Tx) (uint64, error) {
		c, err := takeChallenge(tx, channelID, challengeID)
		if err != nil {
			return 0, err
		}
		if err := g.check(); err != nil {
			return 0, err
		}
		if err := c.matches(g); err != nil {
			return 0, err
		}
		return createGame(tx, g)
	})
	if err != nil {
		return fmt.Errorf("accept challenge %d in channel %s: %w", challengeID, channelID, err)
	}
	g.ID = id
	return nil
}

// MoveIntoThread moves the active game with the ID gameID from channelID
// into threadID, a thread opened from channelID for it, in one
// transaction, and returns the game as it is now stored. The bot opens a
// game's thread only once AcceptChallenge has committed the game in the
// challenge's channel, so that an acceptance that loses its race leaves no
// thread behind; this notes the thread then. It returns an error wrapping
// ErrNotFound if the channel's active game (if any) is another,
// ErrChannelBusy if the thread has a game or a challenge, and ErrInvalid
// if threadID is not a valid ID; on any error nothing changes.
func (s *Core) MoveIntoThread(ctx context.Context, channelID string, gameID uint64, threadID string) (*Game, error) {
	g, err := inTx(ctx, s.b.Update, func(tx Tx) (*Game, error) {
		g, wake, err := tx.Game(channelID)
		if err != nil {
			return nil, err
		}
		if g.ID != gameID {
			return nil, fmt.Errorf("game %d is no longer active (game %d is): %w", gameID, g.ID, ErrNotFound)
		}
		g.ChannelID, g.ParentChannelID = threadID, channelID
		if err := g.check(); err != nil {
			return nil, err
		}
		if err := checkFree(tx, threadID); err != nil {
			return nil, err
		}
		if err := tx.DeleteGame(channelID, wake); err != nil {
			return nil, err
		}
		return g, tx.PutGame(g, time.Time{})
	})
	if err != nil {
		return nil, fmt.Errorf("move game %d from channel %s into thread %s: %w", gameID, channelID, threadID, err)
	}
	return g, nil
}

// matches returns an error wrapping ErrInvalid unless g is a game of c's
// guild that c may start (challenge.Challenge.CheckGame).
func (c *Challenge) matches(g *Game) error {
	if g.GuildID != c.GuildID {
		return fmt.Errorf("%w: the game is in guild %q, the challenge in guild %q", ErrInvalid, g.GuildID, c.GuildID)
	}
	if err := c.CheckGame(g.Game); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}
