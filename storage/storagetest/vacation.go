package storagetest

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// testVacation stores a player's vacation bank with the games it stops,
// in one transaction: the bank is read back as written, the player's games
// (and no other) are given to the update and stored with it, the wake
// index holds the vacation's notice, then its end, then nothing, and a
// refused update writes nothing.
func testVacation(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	_, err := s.Vacation(ctx, bob.UserID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no bank opened yet")

	require.NoError(t, s.CreateGame(ctx, newClockGame(t, "mine", 72*time.Hour)))
	mustPlay(t, s, "mine", "D4") // bob to move
	mustCreate(t, s, "others", alice, carol)
	start := t0.Add(2 * time.Hour)
	opened, err := s.Vacation(ctx, bob.UserID)
	require.NoError(t, err, "bob's first game opened his bank")

	boom := errors.New("boom")
	_, _, err = s.UpdateVacation(ctx, bob.UserID, func(v *storage.Vacation, games []*storage.Game) error {
		require.NoError(t, v.Start(start, game.VacationCap))
		require.NoError(t, games[0].Away(engine.Black, start))
		return boom
	})
	assert.ErrorIs(t, err, boom)
	v, err := s.Vacation(ctx, bob.UserID)
	require.NoError(t, err)
	assert.Equal(t, opened, v, "a refused update writes no bank")
	g, err := s.Game(ctx, "mine")
	require.NoError(t, err)
	assert.True(t, g.AwaySince(engine.Black).IsZero(), "nor a game")

	_, _, err = s.UpdateVacation(ctx, "999", func(*storage.Vacation, []*storage.Game) error { return nil })
	assert.ErrorIs(t, err, storage.ErrInvalid, "a bank must be opened")

	var games []*storage.Game
	v, games, err = s.UpdateVacation(ctx, bob.UserID, func(v *storage.Vacation, games []*storage.Game) error {
		assert.Equal(t, bob.UserID, v.UserID)
		require.Len(t, games, 1, "bob's games only")
		if err := v.Start(start, game.VacationCap); err != nil {
			return err
		}
		return games[0].Away(engine.Black, start)
	})
	require.NoError(t, err)
	require.Len(t, games, 1)
	notice := start.Add(14*24*time.Hour - game.VacationNotice)
	assert.Equal(t, notice, v.Wake())
	got, err := s.Vacation(ctx, bob.UserID)
	require.NoError(t, err)
	assert.Equal(t, v.Vacation.Bank, got.Vacation.Bank)
	assert.True(t, got.Since.Equal(start))
	g, err = s.Game(ctx, "mine")
	require.NoError(t, err)
	_, stopped := g.Stopped()
	assert.True(t, stopped, "bob's clock is stopped with the bank's commit")
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeVacation, ChannelID: bob.UserID, At: notice}}, utc(mustWakes(t, s)))
	next, ok, err := s.NextWake(ctx)
	require.NoError(t, err)
	assert.True(t, ok && next.Equal(notice), "the vacation's notice is the next wake")

	later := notice.Add(5 * time.Hour)
	_, _, err = s.UpdateVacation(ctx, bob.UserID, func(v *storage.Vacation, _ []*storage.Game) error {
		v.NoticeAt = later
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeVacation, ChannelID: bob.UserID, At: later}}, utc(mustWakes(t, s)),
		"a notice held back (out of quiet hours) moves the wake")

	_, _, err = s.UpdateVacation(ctx, bob.UserID, func(v *storage.Vacation, _ []*storage.Game) error {
		v.Warned = true
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeVacation, ChannelID: bob.UserID, At: start.Add(14 * 24 * time.Hour)}},
		utc(mustWakes(t, s)), "once warned, the vacation wakes at its end")

	_, _, err = s.UpdateVacation(ctx, bob.UserID, func(v *storage.Vacation, games []*storage.Game) error {
		return games[0].Resign(engine.Black, start)
	})
	assert.ErrorIs(t, err, storage.ErrInvalid, "a vacation ends no game")

	end := start.Add(3 * 24 * time.Hour)
	v, _, err = s.UpdateVacation(ctx, bob.UserID, func(v *storage.Vacation, games []*storage.Game) error {
		if err := v.End(end, game.VacationCap); err != nil {
			return err
		}
		return games[0].Back(engine.Black, end)
	})
	require.NoError(t, err)
	assert.False(t, v.On())
	g, err = s.Game(ctx, "mine")
	require.NoError(t, err)
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "mine", At: g.Wake()}}, utc(mustWakes(t, s)),
		"a vacation over has no wake; bob's clock runs again")
}

// testVacationOpensWithTheFirstGame: a player's bank opens with their
// first game, in the transaction that stores it, whichever way it is
// stored (a game created, a challenge accepted, a tournament's game
// opened), counting its weeks from the game's start; a later game leaves
// it alone, and the computer gets none. Refused, nothing opens.
func testVacationOpensWithTheFirstGame(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	opened := func(p game.Player) *storage.Vacation {
		t.Helper()
		v, err := s.Vacation(ctx, p.UserID)
		require.NoError(t, err, "%s's bank", p.Name)
		return v
	}
	vs := mustCreate(t, s, "first", alice, hardAI)
	v := opened(alice)
	assert.True(t, v.Joined.Equal(vs.Created()), "from the start of her first game")
	assert.Equal(t, game.VacationStart, v.Bank)
	assert.False(t, v.On())
	later := t0.Add(5 * 7 * 24 * time.Hour)
	assert.Equal(t, game.VacationStart+5*game.VacationAccrual, v.Balance(later, game.VacationCap), "five weeks later: five days more")
	_, err := s.Vacation(ctx, hardAI.UserID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "the computer has no bank")
	for _, w := range mustWakes(t, s) {
		assert.NotEqual(t, storage.WakeVacation, w.Kind, "a bank opened is due to nobody")
	}

	require.NoError(t, s.CreateChallenge(ctx, newChallenge("chal", alice, bob)))
	second, err := game.New(squareConfig(bob, alice), t0.Add(24*time.Hour))
	require.NoError(t, err)
	require.NoError(t, s.AcceptChallenge(ctx, "chal", 1, &storage.Game{GuildID: guild, ChannelID: "chal", Game: second}))
	assert.Equal(t, v, opened(alice), "a later game leaves her bank alone")
	assert.True(t, opened(bob).Joined.Equal(second.Created()), "bob's first game, by a challenge accepted")

	err = s.CreateGame(ctx, newGame(t, "first", carol, bob))
	require.ErrorIs(t, err, storage.ErrChannelBusy)
	_, err = s.Vacation(ctx, carol.UserID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "a game refused opens no bank")
}

// testUpdatePlayerGames changes every game of a player in one transaction,
// and no other game: the player's time zone and quiet hours, set with
// game.Game.SetLocal, are read back with each of their games; a refused
// change writes nothing.
func testUpdatePlayerGames(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	mustCreate(t, s, "one", alice, bob)
	mustCreate(t, s, "two", carol, bob)
	mustCreate(t, s, "other", alice, carol)
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	quiet := game.Quiet{From: 22, To: 8}
	set := func(games []*storage.Game) error {
		for _, g := range games {
			c, err := g.Seat(bob.UserID)
			if err != nil {
				return err
			}
			if err := g.SetLocal(c, paris, quiet); err != nil {
				return err
			}
		}
		return nil
	}

	boom := errors.New("boom")
	_, err = s.UpdatePlayerGames(ctx, bob.UserID, func(games []*storage.Game) error {
		require.NoError(t, set(games))
		return boom
	})
	assert.ErrorIs(t, err, boom)
	g, err := s.Game(ctx, "one")
	require.NoError(t, err)
	_, q := g.Local(engine.Black)
	assert.Equal(t, game.Quiet{}, q, "a refused change writes nothing")

	games, err := s.UpdatePlayerGames(ctx, bob.UserID, set)
	require.NoError(t, err)
	assert.Len(t, games, 2, "bob's games, and no other")
	for _, ch := range []string{"one", "two"} {
		g, err := s.Game(ctx, ch)
		require.NoError(t, err)
		z, q := g.Local(engine.Black)
		assert.Equal(t, "Europe/Paris", z.String(), ch)
		assert.Equal(t, quiet, q, ch)
	}
	g, err = s.Game(ctx, "other")
	require.NoError(t, err)
	z, _ := g.Local(engine.Black)
	assert.Equal(t, time.UTC, z, "carol's zone is unchanged")
}
