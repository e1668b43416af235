package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// TestVacationOpensWithTheFirstGame: a bank opens at the start of the
// player's oldest game, and grows a day a week from then, as status says
// it does: after five weeks of play it holds 19 days.
func TestVacationOpensWithTheFirstGame(t *testing.T) {
	t.Parallel()
	first := mustNewAt(t, t0)
	later := mustNewAt(t, t0.Add(30*day))
	now := t0.Add(5*7*day + time.Hour)

	var v game.Vacation
	require.True(t, v.Open([]*game.Game{later, first}, now))
	assert.Equal(t, t0, v.Joined, "from the oldest game")
	assert.Equal(t, 19*day, v.Balance(now, game.VacationCap), "14 days and a day for each of the five weeks")
	assert.Equal(t, t0.Add(6*7*day), v.Grows(now, game.VacationCap), "the next day at the end of the sixth week")
	opened := v
	assert.False(t, v.Open([]*game.Game{mustNewAt(t, t0.Add(-day))}, now), "a bank opens once")
	assert.Equal(t, opened, v)

	var none game.Vacation
	require.True(t, none.Open(nil, now))
	assert.Equal(t, now, none.Joined, "without a game: now")
	assert.Equal(t, 14*day, none.Balance(now, game.VacationCap))

	full := game.NewVacation(t0, game.VacationCap)
	assert.True(t, full.Grows(t0.Add(52*7*day), game.VacationCap).IsZero(), "a full bank grows no more")
	require.NoError(t, full.Start(t0, game.VacationCap))
	assert.True(t, full.Grows(t0.Add(day), game.VacationCap).IsZero(), "nor on vacation")
}

// TestStartVacation: a vacation stops the player's clock in each of their
// games played over days, where it is their move at once and on their
// move in the others, and leaves a live game running, which it returns;
// a refused start changes nothing. EndVacation gives every clock back.
func TestStartVacation(t *testing.T) {
	t.Parallel()
	days := mustNewAt(t, t0)                                             // alice to move
	theirs := mustNewAt(t, t0, func(c *game.Config) { c.First = black }) // bob to move
	live := mustNewAt(t, t0, withClock(t, "5m"))
	other := mustNewAt(t, t0, func(c *game.Config) { c.Players[red] = game.Player{UserID: "1003", Name: "carol"} })
	games := []*game.Game{days, theirs, live, other}
	now := t0.Add(time.Minute)

	var v game.Vacation
	left, err := game.StartVacation(&v, alice.UserID, games, now, game.VacationCap)
	require.NoError(t, err)
	assert.Equal(t, []*game.Game{live}, left, "the live game is not stopped")
	assert.True(t, v.On())
	assert.Equal(t, t0, v.Joined, "the bank opened with her first game")
	_, stopped := days.Stopped()
	assert.True(t, stopped, "her move: stopped at once")
	assert.False(t, theirs.AwaySince(red).IsZero(), "bob's move: hers will be stopped")
	assert.True(t, live.AwaySince(red).IsZero())
	assert.Equal(t, t0.Add(5*time.Minute), live.Deadline(), "the live clock runs on")
	assert.True(t, other.AwaySince(red).IsZero() && other.AwaySince(black).IsZero(), "not her game")

	was := v
	_, err = game.StartVacation(&v, alice.UserID, games, now, game.VacationCap)
	assert.ErrorIs(t, err, game.ErrOnVacation)
	assert.Equal(t, was, v)

	back := now.Add(3 * time.Hour)
	require.NoError(t, game.EndVacation(&v, alice.UserID, games, back, game.VacationCap))
	assert.False(t, v.On())
	assert.Equal(t, back.Add(moveTime-time.Minute), days.Deadline(), "her clock runs again with the time it had")
	assert.True(t, theirs.AwaySince(red).IsZero())
	assert.ErrorIs(t, game.EndVacation(&v, alice.UserID, games, back, game.VacationCap), game.ErrNotOnVacation)
}
