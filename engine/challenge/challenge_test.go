package challenge_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
)

var (
	t0    = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	alice = game.Player{UserID: "100", Name: "alice"}
	bob   = game.Player{UserID: "200", Name: "bob"}
	carol = game.Player{UserID: "300", Name: "carol"}
	easy  = game.Player{Name: "Computer", AI: "easy"}
)

// mustNew returns a challenge of alice to to, open for an hour from t0.
func mustNew(tb testing.TB, to game.Player, first challenge.FirstChoice) *challenge.Challenge {
	tb.Helper()
	c, err := challenge.New(challenge.Config{From: alice, To: to, Layout: engine.Square(), Rules: engine.Full,
		First: first, MoveTime: time.Hour, Open: time.Hour}, t0)
	require.NoError(tb, err)
	return c
}

func TestNew(t *testing.T) {
	c := mustNew(t, bob, challenge.FirstRandom)
	assert.Equal(t, engine.SquareString, c.Layout)
	assert.Equal(t, t0, c.Created)
	assert.Equal(t, t0.Add(time.Hour), c.Expires)
	assert.Equal(t, c.Expires, c.Wake(), "a challenge wakes when it expires")

	never, err := challenge.New(challenge.Config{From: alice, To: bob, Layout: engine.Square()}, t0)
	require.NoError(t, err)
	assert.True(t, never.Wake().IsZero(), "a challenge without expiry never wakes")
	assert.False(t, never.Expired(t0.Add(1000*time.Hour)))

	for _, tt := range []struct {
		name string
		cfg  challenge.Config
		err  error
		msg  string
	}{
		{"oneself", challenge.Config{From: alice, To: game.Player{UserID: "100", Name: "Alice B."}, Layout: engine.Square()}, challenge.ErrSelfChallenge, "100 cannot challenge themself"},
		{"no board", challenge.Config{From: alice, To: bob}, challenge.ErrInvalid, "no board"},
		{"bad first", challenge.Config{From: alice, To: bob, Layout: engine.Square(), First: 3}, challenge.ErrInvalid, "unknown choice of first player FirstChoice(3)"},
		{"bad rules", challenge.Config{From: alice, To: bob, Layout: engine.Square(), Rules: engine.Full + 1}, challenge.ErrInvalid, "unknown rule set"},
		{"negative move time", challenge.Config{From: alice, To: bob, Layout: engine.Square(), MoveTime: -1}, challenge.ErrInvalid, "is negative"},
		{"increment longer than the move time", challenge.Config{From: alice, To: bob, Layout: engine.Square(), MoveTime: time.Hour, Increment: 2 * time.Hour}, challenge.ErrInvalid, "increment"},
		{"bad timeouts", challenge.Config{From: alice, To: bob, Layout: engine.Square(), Timeouts: game.Claim + 1}, challenge.ErrInvalid, "unknown timeouts"},
		{"negative time open", challenge.Config{From: alice, To: bob, Layout: engine.Square(), Open: -1}, challenge.ErrInvalid, "is negative"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := challenge.New(tt.cfg, t0)
			assert.ErrorIs(t, err, tt.err)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*challenge.Challenge)
		msg    string
	}{
		{"no creation time", func(c *challenge.Challenge) { c.Created = time.Time{} }, "the challenge has no creation time"},
		{"empty layout", func(c *challenge.Challenge) { c.Layout = "" }, "the layout string is empty"},
		{"layout not canonical", func(c *challenge.Challenge) { c.Layout = strings.ReplaceAll(c.Layout, "a", "z") }, "not canonical"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := mustNew(t, bob, challenge.FirstRandom)
			tt.change(c)
			err := c.Check()
			assert.ErrorIs(t, err, challenge.ErrInvalid)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
	open := mustNew(t, game.Player{}, challenge.FirstRandom)
	assert.NoError(t, open.Check(), "a challenge to anyone")
}

func TestExpired(t *testing.T) {
	c := mustNew(t, bob, challenge.FirstRandom)
	assert.False(t, c.Expired(t0))
	assert.False(t, c.Expired(c.Expires.Add(-1)))
	assert.True(t, c.Expired(c.Expires), "a challenge expires at its expiry")
	assert.True(t, c.Expired(c.Expires.Add(time.Hour)))
}

func TestAnswers(t *testing.T) {
	toBob, toAnyone := mustNew(t, bob, challenge.FirstRandom), mustNew(t, game.Player{}, challenge.FirstRandom)
	renamed := func(p game.Player) game.Player { p.Name = "someone else"; return p }
	for _, tt := range []struct {
		name                      string
		c                         *challenge.Challenge
		by                        game.Player
		accept, decline, withdraw error
	}{
		{"the challenged player", toBob, renamed(bob), nil, nil, challenge.ErrNotChallenger},
		{"the challenger", toBob, renamed(alice), challenge.ErrOwnChallenge, challenge.ErrOwnChallenge, nil},
		{"a third player", toBob, carol, challenge.ErrNotChallenged, challenge.ErrNotChallenged, challenge.ErrNotChallenger},
		{"the computer", toBob, easy, challenge.ErrNotChallenged, challenge.ErrNotChallenged, challenge.ErrNotChallenger},
		{"anyone, to anyone", toAnyone, carol, nil, challenge.ErrNotChallenged, challenge.ErrNotChallenger},
		{"the challenger, to anyone", toAnyone, alice, challenge.ErrOwnChallenge, challenge.ErrOwnChallenge, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.c == toAnyone, tt.c.ForAnyone(), "for anyone")
			_, err := tt.c.Accept(tt.by, t0, true, nil)
			assertErr(t, tt.accept, err, "accept")
			assertErr(t, tt.decline, tt.c.CanDecline(tt.by), "decline")
			assertErr(t, tt.withdraw, tt.c.CanWithdraw(tt.by), "withdraw")
		})
	}
}

// assertErr checks that err is want, or nil if want is.
func assertErr(t *testing.T, want, err error, what string) {
	t.Helper()
	if want == nil {
		assert.NoError(t, err, what)
		return
	}
	assert.ErrorIs(t, err, want, what)
}

func TestAccept(t *testing.T) {
	for _, tt := range []struct {
		first           challenge.FirstChoice
		challengerFirst bool // the lot
		red             game.Player
	}{
		{challenge.FirstRandom, true, alice},
		{challenge.FirstRandom, false, bob},
		{challenge.FirstChallenger, false, alice},
		{challenge.FirstOpponent, true, bob},
	} {
		t.Run(tt.first.String(), func(t *testing.T) {
			c := mustNew(t, bob, tt.first)
			bobNow := game.Player{UserID: bob.UserID, Name: "Bobby"}
			g, err := c.Accept(bobNow, t0.Add(time.Minute), tt.challengerFirst, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.red.UserID, g.Player(engine.Red).UserID, "the first mover plays red")
			assert.Equal(t, engine.Red, g.First())
			assert.Equal(t, engine.Full, g.Rules())
			assert.Equal(t, time.Hour, g.MoveTime())
			assert.Equal(t, t0.Add(time.Minute), g.Created())
			seat, err := g.Seat(bob.UserID)
			require.NoError(t, err)
			assert.Equal(t, "Bobby", g.Player(seat).Name, "the challenged player's name as they accept")
		})
	}
	_, err := mustNew(t, bob, challenge.FirstRandom).Accept(bob, t0.Add(time.Hour), true, nil)
	assert.ErrorIs(t, err, challenge.ErrExpired)
}

// TestAcceptProperty checks, for every choice and lot, that the game is
// between the challenge's players and red is who the choice names.
func TestAcceptProperty(t *testing.T) {
	for first := range challenge.FirstChoice(3) {
		for _, lot := range []bool{false, true} {
			g, err := mustNew(t, bob, first).Accept(bob, t0, lot, nil)
			require.NoError(t, err)
			players := g.Players()
			assert.ElementsMatch(t, []game.Player{alice, bob}, players[:])
			challengerRed := players[engine.Red] == alice
			switch first {
			case challenge.FirstChallenger:
				assert.True(t, challengerRed)
			case challenge.FirstOpponent:
				assert.False(t, challengerRed)
			default:
				assert.Equal(t, lot, challengerRed)
			}
		}
	}
}

func TestFirstChoiceText(t *testing.T) {
	for first := range challenge.FirstChoice(3) {
		b, err := first.MarshalText()
		require.NoError(t, err)
		var back challenge.FirstChoice
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, first, back)
	}
	_, err := challenge.FirstChoice(3).MarshalText()
	assert.ErrorIs(t, err, challenge.ErrInvalid)
	var f challenge.FirstChoice
	err = f.UnmarshalText([]byte("Random"))
	assert.ErrorIs(t, err, challenge.ErrInvalid)
	assert.ErrorContains(t, err, "is not one of random, challenger, opponent")
}

// TestJSON checks the stored form: the field names storage has always
// written, which older databases hold.
func TestJSON(t *testing.T) {
	c := mustNew(t, bob, challenge.FirstOpponent)
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.JSONEq(t, `{"from":{"user":"100","name":"alice"},"to":{"user":"200","name":"bob"},`+
		`"layout":"`+engine.SquareString+`","rules":"full","first":"opponent","move_time":3600000000000,"clock":"move",`+
		`"created":"2026-11-22T20:00:00Z","expires":"2026-11-22T21:00:00Z"}`, string(b))
	var back challenge.Challenge
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, *c, back)
}

func TestCheckGame(t *testing.T) {
	toBob, toAnyone := mustNew(t, bob, challenge.FirstRandom), mustNew(t, game.Player{}, challenge.FirstRandom)
	for _, tt := range []struct {
		name    string
		c       *challenge.Challenge
		players [2]game.Player
		msg     string // "" if the game matches
	}{
		{"its players", toBob, [2]game.Player{bob, alice}, ""},
		{"renamed", toBob, [2]game.Player{{UserID: "100", Name: "Al"}, {UserID: "200", Name: "Bo"}}, ""},
		{"another opponent", toBob, [2]game.Player{alice, carol}, "200 of the challenge does not play in the game"},
		{"without the challenger", toBob, [2]game.Player{carol, bob}, "100 of the challenge does not play in the game"},
		{"anyone", toAnyone, [2]game.Player{carol, alice}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := game.New(game.Config{Layout: engine.Square(), Players: tt.players}, t0)
			require.NoError(t, err)
			err = tt.c.CheckGame(g)
			if tt.msg == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, challenge.ErrInvalid)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

// TestAcceptClock: the game of a challenge has its increment clock and
// its timeouts.
func TestAcceptClock(t *testing.T) {
	c, err := challenge.New(challenge.Config{From: alice, To: bob, Layout: engine.Square(), MoveTime: 72 * time.Hour,
		Increment: 24 * time.Hour, Timeouts: game.Claim, Open: time.Hour}, t0)
	require.NoError(t, err)
	g, err := c.Accept(bob, t0, true, nil)
	require.NoError(t, err)
	assert.Equal(t, game.MoveTime{Start: 72 * time.Hour, Increment: 24 * time.Hour, Kind: game.WholeGame}, g.Clock())
	assert.Equal(t, game.Claim, g.Timeouts())
	r, err := challenge.Rematch(g, bob, engine.Square(), t0.Add(time.Hour), time.Hour)
	require.NoError(t, err)
	assert.Equal(t, g.Clock(), r.Clock(), "a rematch keeps the clock")
	assert.Equal(t, game.Claim, r.Timeouts)
}

// TestClockKinds: a challenge's clock keeps its kind into the game and
// its rematch; a challenge stored by an earlier release, without a kind,
// keeps the meaning it had: 5 minutes per move.
func TestClockKinds(t *testing.T) {
	old := `{"from":{"user":"100","name":"alice"},"to":{"user":"200","name":"bob"},"layout":"` + engine.SquareString +
		`","rules":"full","first":"opponent","move_time":300000000000,"created":"2026-11-22T20:00:00Z"}`
	var stored challenge.Challenge
	require.NoError(t, json.Unmarshal([]byte(old), &stored))
	require.NoError(t, stored.Check())
	perMove := game.MoveTime{Start: 5 * time.Minute, Kind: game.PerMove}
	whole := game.MoveTime{Start: 5 * time.Minute, Kind: game.WholeGame}
	fresh, err := challenge.New(challenge.Config{From: alice, To: bob, Layout: engine.Square(), MoveTime: whole.Start, Kind: whole.Kind}, t0)
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		c    *challenge.Challenge
		want game.MoveTime
	}{
		{"stored by an earlier release", &stored, perMove},
		{"for the whole game", fresh, whole},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := tt.c.Accept(bob, t0, true, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, g.Clock())
			r, err := challenge.Rematch(g, bob, engine.Square(), t0.Add(time.Hour), time.Hour)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r.Clock(), "a rematch keeps the kind")
		})
	}
	bad := *fresh
	bad.Kind, bad.Increment = game.PerMove, time.Second
	assert.ErrorIs(t, bad.Check(), challenge.ErrInvalid, "no increment per move")
}
