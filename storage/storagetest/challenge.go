package storagetest

import (
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newChallenge returns a challenge in channel from one player to another,
// not yet stored.
func newChallenge(channel string, from, to game.Player) *storage.Challenge {
	return &storage.Challenge{GuildID: guild, ChannelID: channel, Challenge: challenge.Challenge{
		From: from, To: to, Layout: engine.SquareString, Rules: engine.Basic, Created: t0, Expires: t0.Add(time.Hour),
	}}
}

func testChallengeLifecycle(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	c := newChallenge("c", alice, bob)
	c.Layout = engine.RandomIrregular(4).String()
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	assert.Equal(t, uint64(1), c.ID)

	got, err := s.Challenge(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, c.ID, got.ID)
	assert.Equal(t, c.Layout, got.Layout)
	assert.Equal(t, bob, got.To)

	got, err = s.UpdateChallenge(t.Context(), "c", func(c *storage.Challenge) error {
		c.MessageID = "777"
		c.Rules = engine.Full
		c.MoveTime, c.Increment, c.Kind, c.Timeouts = 72*time.Hour, 24*time.Hour, game.WholeGame, game.Claim
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "777", got.MessageID)
	got, err = s.Challenge(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, engine.Full, got.Rules)
	assert.Equal(t, game.MoveTime{Start: 72 * time.Hour, Increment: 24 * time.Hour, Kind: game.WholeGame}, got.Clock(), "the clock, its increment and kind are kept")
	assert.Equal(t, game.Claim, got.Timeouts)

	err = s.DeleteChallenge(t.Context(), "c", c.ID+1)
	assert.ErrorIs(t, err, storage.ErrNotFound)
	assert.ErrorContains(t, err, "challenge 2 is no longer open (challenge 1 is)")
	require.NoError(t, s.DeleteChallenge(t.Context(), "c", c.ID))
	_, err = s.Challenge(t.Context(), "c")
	assert.ErrorIs(t, err, storage.ErrNotFound)
	assert.ErrorIs(t, s.DeleteChallenge(t.Context(), "c", c.ID), storage.ErrNotFound)
}

func testChallengeLayoutIsStoredCanonical(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	c := newChallenge("c", alice, bob)
	c.Layout = "zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmkk/oojiimkk/oojiimkk"
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	assert.Equal(t, engine.SquareString, c.Layout)
	got, err := s.Challenge(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, engine.SquareString, got.Layout)
}

func testCreateChallengeRefuses(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "game", alice, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), newChallenge("open", alice, game.Player{})))

	tests := []struct {
		name   string
		c      *storage.Challenge
		change func(*storage.Challenge)
		want   error
		msg    string
	}{
		{"channel with a game", newChallenge("game", carol, bob), nil, storage.ErrChannelBusy, "a game is going on there"},
		{"channel with a challenge", newChallenge("open", carol, bob), nil, storage.ErrChannelBusy, "a challenge is open there"},
		{"oneself", newChallenge("free", alice, alice), nil, storage.ErrInvalid, "100 cannot challenge themself"},
		{"no challenger", newChallenge("free", game.Player{}, bob), nil, storage.ErrInvalid, "challenger user ID is empty"},
		{"bad layout", newChallenge("free", alice, bob), func(c *storage.Challenge) { c.Layout = "" }, storage.ErrInvalid, "the layout string is empty"},
		{"bad first", newChallenge("free", alice, bob), func(c *storage.Challenge) { c.First = 3 }, storage.ErrInvalid, "unknown choice of first player FirstChoice(3)"},
		{"no time", newChallenge("free", alice, bob), func(c *storage.Challenge) { c.Created = time.Time{} }, storage.ErrInvalid, "the challenge has no creation time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.change != nil {
				tt.change(tt.c)
			}
			err := s.CreateChallenge(t.Context(), tt.c)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			assert.Zero(t, tt.c.ID)
		})
	}
	_, err := s.Challenge(t.Context(), "free")
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

func testUpdateChallengeRefuses(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	require.NoError(t, s.CreateChallenge(t.Context(), newChallenge("c", alice, bob)))
	tests := []struct {
		name string
		fn   func(*storage.Challenge) error
		msg  string
	}{
		{"new opponent", func(c *storage.Challenge) error { c.To = carol; return nil }, "the ID, place, players and creation time may not change"},
		{"negative move time", func(c *storage.Challenge) error { c.MoveTime = -1; return nil }, "is negative"},
		{"fn fails", func(c *storage.Challenge) error { c.MessageID = "1"; return game.ErrStale }, "the game has moved on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateChallenge(t.Context(), "c", tt.fn)
			assert.ErrorContains(t, err, tt.msg)
			c, err := s.Challenge(t.Context(), "c")
			require.NoError(t, err)
			assert.Equal(t, bob, c.To)
			assert.Zero(t, c.MoveTime)
			assert.Empty(t, c.MessageID)
		})
	}
	_, err := s.UpdateChallenge(t.Context(), "none", func(*storage.Challenge) error { return nil })
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

func testAcceptChallenge(t *testing.T, open Open) {
	tests := []struct {
		name, channel string // where the game is played
	}{
		{"in the channel", "c"},
		{"in a thread", "thread"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t, storage.Options{})
			c := newChallenge("c", alice, game.Player{}) // open to anyone
			require.NoError(t, s.CreateChallenge(t.Context(), c))

			g := newGame(t, tt.channel, carol, alice)
			if tt.channel != "c" {
				g.ParentChannelID = "c"
			}
			require.NoError(t, s.AcceptChallenge(t.Context(), "c", c.ID, g))
			assert.NotZero(t, g.ID)
			_, err := s.Challenge(t.Context(), "c")
			assert.ErrorIs(t, err, storage.ErrNotFound)
			stored, err := s.Game(t.Context(), tt.channel)
			require.NoError(t, err)
			assert.Equal(t, g.ID, stored.ID)

			// A second click on the same button.
			err = s.AcceptChallenge(t.Context(), "c", c.ID, newGame(t, "other", bob, alice))
			assert.ErrorIs(t, err, storage.ErrNotFound)
			_, err = s.Game(t.Context(), "other")
			assert.ErrorIs(t, err, storage.ErrNotFound)
		})
	}
}

func testAcceptChallengeRefuses(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "busy", carol, bob)
	c := newChallenge("c", alice, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), c))

	tests := []struct {
		name string
		id   uint64
		g    *storage.Game
		want error
		msg  string
	}{
		{"another challenge", c.ID + 1, newGame(t, "t", bob, alice), storage.ErrNotFound, "challenge 2 is no longer open"},
		{"busy thread", c.ID, newGame(t, "busy", bob, alice), storage.ErrChannelBusy, "a game is going on there"},
		{"another opponent", c.ID, newGame(t, "t", carol, alice), storage.ErrInvalid, "200 of the challenge does not play in the game"},
		{"another guild", c.ID, func() *storage.Game { g := newGame(t, "t", bob, alice); g.GuildID = "9"; return g }(), storage.ErrInvalid, `the game is in guild "9", the challenge in guild "1000"`},
		{"no game", c.ID, &storage.Game{GuildID: guild, ChannelID: "t"}, storage.ErrInvalid, "no game"},
		{"invalid place", c.ID, func() *storage.Game { g := newGame(t, "t", bob, alice); g.ParentChannelID = "a\x00b"; return g }(), storage.ErrInvalid, "parent channel ID \"a\\x00b\" holds a zero byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.AcceptChallenge(t.Context(), "c", tt.id, tt.g)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			assert.Zero(t, tt.g.ID)
			got, err := s.Challenge(t.Context(), "c")
			require.NoError(t, err, "the challenge stays open")
			assert.Equal(t, c.ID, got.ID)
			wakes, err := s.Due(t.Context(), t0.Add(time.Hour))
			require.NoError(t, err)
			assert.Len(t, wakes, 1, "and so does its wake")
		})
	}
}

func testMoveIntoThread(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	c := newChallenge("c", alice, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	cfg := squareConfig(bob, alice)
	cfg.MoveTime = time.Hour
	g := mustNewGame(t, "c", cfg)
	require.NoError(t, s.AcceptChallenge(t.Context(), "c", c.ID, g))
	require.False(t, g.Wake().IsZero(), "the game wakes for its first reminder")
	mustCreate(t, s, "busy", carol, bob) // no move time: no wake

	for _, tt := range []struct {
		name, channel, thread string
		id                    uint64
		want                  error
		msg                   string
	}{
		{"another game", "c", "t", g.ID + 100, storage.ErrNotFound, "is no longer active"},
		{"no game", "none", "t", g.ID, storage.ErrNotFound, "game"},
		{"busy thread", "c", "busy", g.ID, storage.ErrChannelBusy, "a game is going on there"},
		{"invalid thread", "c", "a\x00b", g.ID, storage.ErrInvalid, "holds a zero byte"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.MoveIntoThread(t.Context(), tt.channel, tt.id, tt.thread)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			_, err = s.Game(t.Context(), "c")
			assert.NoError(t, err, "the game stays where it was")
		})
	}

	moved, err := s.MoveIntoThread(t.Context(), "c", g.ID, "t")
	require.NoError(t, err)
	assert.Equal(t, "t", moved.ChannelID)
	assert.Equal(t, "c", moved.ParentChannelID)
	_, err = s.Game(t.Context(), "c")
	assert.ErrorIs(t, err, storage.ErrNotFound, "the channel is free again")
	stored, err := s.Game(t.Context(), "t")
	require.NoError(t, err)
	assert.Equal(t, g.ID, stored.ID)
	assert.Equal(t, "c", stored.ParentChannelID)
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "t", At: g.Wake()}},
		utc(mustWakes(t, s)), "the game wakes in its thread")
}
