package tournament

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/engine/game"
)

// moveTime is the move clock of the round games of the tests: longer than
// their rounds (2 days).
const moveTime = 3 * 24 * time.Hour

// started returns a tournament of 4 players, 3 rounds of 2 days (with
// change), started at t0+1h, and the time it started.
func started(t *testing.T, change func(*Settings)) (*Tournament, time.Time) {
	t.Helper()
	tour := mustTournament(t, 4, change)
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	return tour, now
}

// mustGame opens the game ref of tour at now as the bot does: a clock of
// moveTime, named players.
func mustGame(t *testing.T, tour *Tournament, ref GameRef, now time.Time) *game.Game {
	t.Helper()
	cfg, err := tour.GameConfig(ref, 7, map[string]string{"p0": "Ann"}, game.Config{MoveTime: moveTime, Timeouts: game.Claim})
	require.NoError(t, err)
	g, err := game.New(cfg, now)
	require.NoError(t, err)
	return g
}

// playFirst plays the first legal hole for the player to move at now.
func playFirst(t *testing.T, g *game.Game, now time.Time) {
	t.Helper()
	p := g.Position()
	require.NoError(t, g.Play(g.ToMove(), g.Ply(), p.Legal().Cells(p.Layout())[0], now))
}

func TestGameConfig(t *testing.T) {
	tour, now := started(t, func(s *Settings) { s.Duplicate, s.Layout, s.Rules = true, "random", "full" })
	deadline := tour.Rounds()[0].Deadline
	p := tour.Rounds()[0].Pairings[0]
	one, two := mustGame(t, tour, GameRef{1, 1, 1}, now), mustGame(t, tour, GameRef{1, 1, 2}, now)
	named := func(id string) game.Player { // p0 is named Ann; the others have no name but their ID
		if id == "p0" {
			return game.Player{UserID: id, Name: "Ann"}
		}
		return game.Player{UserID: id, Name: id}
	}
	assert.Equal(t, [2]game.Player{named(p.First), named(p.Second)}, one.Players(), "the first player is red")
	assert.Equal(t, p.First, one.Player(one.First()).UserID, "the pairing's first player moves first in game 1")
	assert.Equal(t, p.Second, two.Player(two.First()).UserID, "and second in game 2")
	assert.Equal(t, engine.Full, one.Rules())
	assert.Equal(t, one.Layout().String(), two.Layout().String(), "both games of a duplicate pairing share the board")
	assert.NotEqual(t, engine.Square().String(), one.Layout().String(), "a random board")
	other := mustGame(t, tour, GameRef{1, 2, 1}, now)
	assert.NotEqual(t, one.Layout().String(), other.Layout().String(), "each pairing its own board")
	assert.Equal(t, deadline, one.Cutoff(), "the round's deadline bounds the game")
	assert.Equal(t, deadline.Add(-game.MaxReplyShare), one.Deadline(), "the first move is due a day before it, before the 3-day clock, so that the reply has a day")
	assert.Equal(t, moveTime, one.MoveTime(), "the caller's clock")

	_, err := tour.GameConfig(GameRef{2, 1, 1}, 7, nil, game.Config{})
	assert.ErrorIs(t, err, ErrNoSuchGame)
	bad, _ := started(t, func(s *Settings) { s.Rules = "chess" })
	_, err = bad.GameConfig(GameRef{1, 1, 1}, 7, nil, game.Config{})
	assert.Error(t, err)
}

func TestGameEnded(t *testing.T) {
	tests := []struct {
		name    string
		end     func(t *testing.T, g *game.Game, now time.Time)
		changed bool
		want    Game // Result and NoShow; First and Second are the pairing's
	}{
		{"first resigns", func(t *testing.T, g *game.Game, now time.Time) {
			require.NoError(t, g.Resign(g.First(), now))
		}, true, Game{Result: SecondWon}},
		{"second resigns", func(t *testing.T, g *game.Game, now time.Time) {
			require.NoError(t, g.Resign(g.First().Other(), now))
		}, true, Game{Result: FirstWon}},
		{"a draw", func(t *testing.T, g *game.Game, now time.Time) {
			playFirst(t, g, now)
			require.NoError(t, g.OfferDraw(g.ToMove(), now))
			require.NoError(t, g.AnswerDraw(g.ToMove().Other(), g.Ply(), true, now))
		}, true, Game{Result: Drawn}},
		{"the first never moves: a forfeit", func(t *testing.T, g *game.Game, now time.Time) {
			require.NoError(t, g.Timeout(g.Cutoff()))
		}, true, Game{Result: SecondWon, NoShow: "first"}},
		{"the second never moves: a forfeit", func(t *testing.T, g *game.Game, now time.Time) {
			playFirst(t, g, now)
			require.NoError(t, g.Timeout(g.Cutoff()))
		}, true, Game{Result: FirstWon, NoShow: "second"}},
		{"abandoned: left to the deadline", func(t *testing.T, g *game.Game, now time.Time) {
			require.NoError(t, g.Abandon(now))
		}, false, Game{Result: Pending}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, now := started(t, nil)
			ref := GameRef{1, 1, 1}
			g := mustGame(t, tour, ref, now)
			tt.end(t, g, now.Add(time.Hour))
			changed, err := tour.GameEnded(ref, g)
			require.NoError(t, err)
			assert.Equal(t, tt.changed, changed)
			tg, err := tour.Game(ref)
			require.NoError(t, err)
			assert.Equal(t, tt.want.Result, tg.Result)
			assert.Equal(t, map[string]string{"": "", "first": tg.First, "second": tg.Second}[tt.want.NoShow], tg.NoShow)
			changed, err = tour.GameEnded(ref, g)
			require.NoError(t, err)
			assert.False(t, changed, "recorded once")
		})
	}
}

func TestGameEndedRefuses(t *testing.T) {
	tour, now := started(t, nil)
	g := mustGame(t, tour, GameRef{1, 1, 1}, now)
	_, err := tour.GameEnded(GameRef{1, 1, 1}, g)
	assert.ErrorIs(t, err, ErrResult, "the game goes on")
	require.NoError(t, g.Resign(engine.Red, now))
	_, err = tour.GameEnded(GameRef{1, 2, 1}, g)
	assert.ErrorIs(t, err, ErrNotInGame, "another pairing's game")
	require.NoError(t, tour.Cancel(now))
	changed, err := tour.GameEnded(GameRef{1, 1, 1}, g)
	require.NoError(t, err)
	assert.False(t, changed, "a cancelled tournament records nothing")
}

func TestEndAsJudged(t *testing.T) {
	for _, res := range []Result{FirstWon, Drawn, SecondWon} {
		t.Run(res.String(), func(t *testing.T) {
			tour, now := started(t, nil)
			ref := GameRef{1, 1, 1}
			g := mustGame(t, tour, ref, now)
			assert.ErrorIs(t, tour.EndAsJudged(ref, g, now), ErrNotAdjudicable)
			deadline := tour.Rounds()[0].Deadline
			require.NoError(t, tour.Adjudicate(ref, res, ReasonSolver, deadline))
			require.NoError(t, tour.EndAsJudged(ref, g, deadline))
			r := g.Result()
			require.NotNil(t, r)
			assert.Equal(t, game.Adjudicated, r.Ending)
			assert.Equal(t, res == Drawn, r.Draw)
			if res != Drawn {
				assert.Equal(t, res == FirstWon, g.Player(r.Winner).UserID == g.Player(g.First()).UserID)
			}
			changed, err := tour.GameEnded(ref, g)
			require.NoError(t, err)
			assert.False(t, changed, "the adjudication is kept")
		})
	}
}

func TestEndOnTime(t *testing.T) {
	tests := []struct {
		name  string
		moves int
		ended bool
	}{
		{"no move: the first player forfeits", 0, true},
		{"one move: the second forfeits", 1, true},
		{"both moved: the judge's", 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, now := started(t, nil)
			ref := GameRef{1, 1, 1}
			g := mustGame(t, tour, ref, now)
			for range tt.moves {
				playFirst(t, g, now.Add(time.Hour))
			}
			deadline := tour.Rounds()[0].Deadline
			_, err := tour.EndOnTime(ref, g, deadline.Add(-time.Second))
			assert.ErrorIs(t, err, ErrRoundNotComplete)
			ended, err := tour.EndOnTime(ref, g, deadline)
			require.NoError(t, err)
			assert.Equal(t, tt.ended, ended)
			if !ended {
				_, err := tour.Judge(t.Context(), ref, g, 50*time.Millisecond)
				require.NoError(t, err)
				return
			}
			assert.Equal(t, game.Unstarted, g.Result().Ending)
			_, err = tour.GameEnded(ref, g)
			require.NoError(t, err)
			tg, err := tour.Game(ref)
			require.NoError(t, err)
			assert.Equal(t, []string{tg.First, tg.Second}[tt.moves], tg.NoShow)
			assert.False(t, tg.Adjudicated, "a player who never moved never wins by an evaluation")
		})
	}
}

func TestEndOnTimeCutsAGameWithoutACutoff(t *testing.T) {
	tour, now := started(t, nil)
	ref := GameRef{1, 1, 1}
	cfg, err := tour.GameConfig(ref, 7, nil, game.Config{MoveTime: moveTime})
	require.NoError(t, err)
	cfg.Cutoff = time.Time{} // a game opened before games had cutoffs
	g, err := game.New(cfg, now)
	require.NoError(t, err)
	ended, err := tour.EndOnTime(ref, g, tour.Rounds()[0].Deadline)
	require.NoError(t, err)
	assert.True(t, ended)
	assert.Equal(t, game.Unstarted, g.Result().Ending)
}

// playedTo returns the game ref of tour opened at now, with random moves
// played until left holes are left to fill: the first random game (seeds
// 1, 2, …) that does not end before.
func playedTo(t *testing.T, tour *Tournament, ref GameRef, left int, now time.Time) *game.Game {
	t.Helper()
	for seed := uint64(1); seed < 100; seed++ {
		g, r := mustGame(t, tour, ref, now), engine.NewRand(seed)
		for engine.MaxPly-g.Ply() > left && !g.Over() {
			p := g.Position()
			require.NoError(t, g.Play(g.ToMove(), g.Ply(), p.Layout().Cell(r.Pick(p.Legal())), now))
		}
		if !g.Over() {
			return g
		}
	}
	require.FailNow(t, "no random game reaches its end", "%d holes left", left)
	return nil
}

// TestJudge: a game with 20 holes or fewer left is adjudicated by the
// exact solver, whose result is the game's best play; with more, by the
// hard level's evaluation, which says its chance; a game a player has
// not moved in is not adjudicated.
func TestJudge(t *testing.T) {
	tour, now := started(t, nil)
	ref := GameRef{1, 1, 1}
	g := mustGame(t, tour, ref, now)
	playFirst(t, g, now)
	_, err := tour.Judge(t.Context(), ref, g, 50*time.Millisecond)
	assert.ErrorIs(t, err, ErrNotAdjudicable, "the second player never moved")
	other := mustGame(t, tour, GameRef{1, 2, 1}, now)
	_, err = tour.Judge(t.Context(), ref, other, time.Second)
	assert.ErrorIs(t, err, ErrNotInGame)

	g = playedTo(t, tour, ref, 14, now)
	v, err := tour.Judge(t.Context(), ref, g, time.Second)
	require.NoError(t, err)
	assert.Equal(t, ReasonSolver, v.Reason)
	// The solver's result is the best play's: playing on with the solver
	// for both sides ends the game with that result.
	cfg := ai.Hard.Config()
	cfg.Time, cfg.SolveAlongside = time.Second, false
	for !g.Over() {
		m, err := cfg.Move(t.Context(), g.Position(), g.Rules())
		require.NoError(t, err)
		require.True(t, m.Proven, "every move of the end is proven")
		require.NoError(t, g.Play(g.ToMove(), g.Ply(), m.Cell, now))
	}
	want := Drawn
	if w := g.Result(); !w.Draw {
		want = map[bool]Result{true: FirstWon, false: SecondWon}[g.Player(w.Winner).UserID == g.Player(g.First()).UserID]
	}
	assert.Equal(t, want, v.Result, "the adjudication is the result of best play")

	g = playedTo(t, tour, ref, 40, now)
	v, err = tour.Judge(t.Context(), ref, g, 300*time.Millisecond)
	require.NoError(t, err)
	assert.Regexp(t, `^hard evaluation \d+%$`, v.Reason)
	assert.NotEqual(t, Pending, v.Result)
}

func TestRelease(t *testing.T) {
	tour, now := started(t, nil)
	g := mustGame(t, tour, GameRef{1, 1, 1}, now)
	require.NoError(t, tour.Cancel(now))
	assert.Equal(t, []GameRef{{1, 1, 1}, {1, 2, 1}}, tour.InProgress())
	require.NoError(t, Release(g))
	assert.Zero(t, g.Cutoff())
	assert.Equal(t, now.Add(moveTime), g.Deadline(), "the game's own clock")
}
