package tournament

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustTournament returns a tournament taking players with players p0, p1,
// … joined, p0 rated highest, after changing the default settings
// (3 rounds of 2 days, starting an hour after t0).
func mustTournament(tb testing.TB, players int, change func(*Settings)) *Tournament {
	tb.Helper()
	s := Settings{Name: "Test cup", Rounds: 3, DaysPerRound: 2, Start: t0.Add(time.Hour)}
	if change != nil {
		change(&s)
	}
	tour, err := New(s, "p0", t0)
	require.NoError(tb, err)
	for i := range players {
		require.NoError(tb, tour.Join(fmt.Sprintf("p%d", i), 2000-10*i, t0))
	}
	return tour
}

// playRound records a win for the player moving first in every game of
// the current round still pending.
func playRound(tb testing.TB, tour *Tournament, now time.Time) {
	tb.Helper()
	_, k := tour.State()
	for _, p := range tour.Rounds()[k-1].Pairings {
		for g, game := range p.Games {
			if game.Result == Pending {
				require.NoError(tb, tour.Record(GameRef{Round: k, Board: p.Board, Game: g + 1}, FirstWon, now))
			}
		}
	}
}

func TestNewRefusesBadSettings(t *testing.T) {
	_, err := New(Settings{Name: "x", Rounds: 0, DaysPerRound: 1}, "p0", t0)
	assert.ErrorIs(t, err, ErrRounds)
}

func TestJoin(t *testing.T) {
	start := t0.Add(time.Hour)
	tests := []struct {
		name  string
		setup func(t *testing.T) *Tournament
		id    string
		want  error
	}{
		{"before the start", func(t *testing.T) *Tournament { return mustTournament(t, 3, nil) }, "new", nil},
		{"twice", func(t *testing.T) *Tournament { return mustTournament(t, 3, nil) }, "p1", ErrAlreadyJoined},
		{"full", func(t *testing.T) *Tournament {
			return mustTournament(t, 4, func(s *Settings) { s.MaxPlayers, s.Rounds = 4, 3 })
		}, "new", ErrFull},
		{"late, before half the rounds", func(t *testing.T) *Tournament {
			tour := mustTournament(t, 4, nil)
			require.NoError(t, tour.Start(start))
			return tour
		}, "new", nil},
		{"late, after half the rounds", func(t *testing.T) *Tournament {
			tour := mustTournament(t, 4, nil)
			require.NoError(t, tour.Start(start))
			playRound(t, tour, start)
			require.NoError(t, tour.PairNext(start))
			return tour
		}, "new", ErrLateJoinClosed},
		{"finished", func(t *testing.T) *Tournament {
			tour := mustTournament(t, 4, func(s *Settings) { s.Rounds = 1 })
			require.NoError(t, tour.Start(start))
			playRound(t, tour, start)
			return tour
		}, "new", ErrFinished},
		{"cancelled", func(t *testing.T) *Tournament {
			tour := mustTournament(t, 4, nil)
			require.NoError(t, tour.Cancel(start))
			return tour
		}, "new", ErrCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := tt.setup(t)
			err := tour.Join(tt.id, 1500, start)
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.id, tour.Players()[len(tour.Players())-1].ID)
		})
	}
}

func TestLeaveAndWithdraw(t *testing.T) {
	tour := mustTournament(t, 5, nil)
	assert.ErrorIs(t, tour.Leave("nobody"), ErrNotJoined)
	assert.ErrorIs(t, tour.Withdraw("p1"), ErrNotStarted, "before the start a player leaves")
	require.NoError(t, tour.Leave("p4"))
	assert.Equal(t, 4, tour.Active())

	start := t0.Add(time.Hour)
	require.NoError(t, tour.Start(start))
	assert.ErrorIs(t, tour.Leave("p1"), ErrStarted, "after the start a player withdraws")
	assert.ErrorIs(t, tour.Withdraw("nobody"), ErrNotJoined)
	require.NoError(t, tour.Withdraw("p1"))
	assert.ErrorIs(t, tour.Withdraw("p1"), ErrWithdrawn)

	playRound(t, tour, start)
	require.NoError(t, tour.PairNext(start))
	r := tour.Rounds()[1]
	assert.Len(t, r.Pairings, 1)
	assert.NotEmpty(t, r.Bye)
	for _, p := range r.Pairings {
		assert.NotContains(t, []string{p.First, p.Second}, "p1", "a withdrawn player is not paired")
	}
	assert.NotEqual(t, "p1", r.Bye)
}

func TestStart(t *testing.T) {
	start := t0.Add(time.Hour)
	t.Run("too few players", func(t *testing.T) {
		assert.ErrorIs(t, mustTournament(t, 2, nil).Start(start), ErrTooFewPlayers)
	})
	t.Run("too many rounds for the players", func(t *testing.T) {
		err := mustTournament(t, 4, func(s *Settings) { s.Rounds = 4 }).Start(start)
		var re *RoundsError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, 3, re.Max)
	})
	t.Run("twice", func(t *testing.T) {
		tour := mustTournament(t, 5, nil)
		require.NoError(t, tour.Start(start))
		assert.ErrorIs(t, tour.Start(start), ErrStarted)
	})
}

func TestDue(t *testing.T) {
	timed := mustTournament(t, 3, nil)
	assert.False(t, timed.Due(t0.Add(time.Hour-time.Second)))
	assert.True(t, timed.Due(t0.Add(time.Hour)))

	full := mustTournament(t, 3, func(s *Settings) { s.Start, s.MaxPlayers, s.Rounds = time.Time{}, 4, 3 })
	assert.False(t, full.Due(t0))
	require.NoError(t, full.Join("last", 1500, t0))
	assert.True(t, full.Due(t0))
	require.NoError(t, full.Start(t0))
	assert.False(t, full.Due(t0), "a started tournament is not due")
}

func TestRoundStateMachine(t *testing.T) {
	tour := mustTournament(t, 4, func(s *Settings) { s.Rounds = 2 })
	start := t0.Add(time.Hour)
	assert.ErrorIs(t, tour.PairNext(start), ErrNotStarted)
	assert.ErrorIs(t, tour.Record(GameRef{1, 1, 1}, FirstWon, start), ErrNotStarted)
	phase, k := tour.State()
	assert.Equal(t, []any{Registration, 0}, []any{phase, k})

	require.NoError(t, tour.Start(start))
	phase, k = tour.State()
	assert.Equal(t, []any{Playing, 1}, []any{phase, k})
	assert.Equal(t, start, tour.Started())
	r := tour.Rounds()[0]
	assert.Equal(t, start.Add(48*time.Hour), r.Deadline)
	assert.ErrorIs(t, tour.PairNext(start), ErrRoundNotComplete)

	assert.ErrorIs(t, tour.Record(GameRef{1, 1, 1}, Pending, start), ErrResult)
	assert.ErrorIs(t, tour.Record(GameRef{1, 3, 1}, FirstWon, start), ErrNoSuchGame)
	assert.ErrorIs(t, tour.Record(GameRef{1, 1, 2}, FirstWon, start), ErrNoSuchGame)
	assert.ErrorIs(t, tour.Record(GameRef{2, 1, 1}, FirstWon, start), ErrNoSuchGame)
	require.NoError(t, tour.Record(GameRef{1, 1, 1}, Drawn, start))
	assert.ErrorIs(t, tour.Record(GameRef{1, 1, 1}, FirstWon, start), ErrResultRecorded)

	assert.Empty(t, tour.Overdue(r.Deadline.Add(-time.Second)))
	assert.Equal(t, []GameRef{{1, 2, 1}}, tour.Overdue(r.Deadline))
	require.NoError(t, tour.Adjudicate(GameRef{1, 2, 1}, SecondWon, "exact solver", r.Deadline))
	g, err := tour.Game(GameRef{1, 2, 1})
	require.NoError(t, err)
	assert.Equal(t, Game{First: g.First, Second: g.Second, Result: SecondWon, Adjudicated: true,
		Reason: "exact solver", Ended: r.Deadline}, g)

	phase, k = tour.State()
	assert.Equal(t, []any{Between, 1}, []any{phase, k})
	assert.Equal(t, r.Deadline, tour.Rounds()[0].Completed)
	assert.Empty(t, tour.Overdue(r.Deadline.Add(time.Hour)), "nothing is overdue between rounds")
	assert.ErrorIs(t, tour.Record(GameRef{1, 1, 1}, FirstWon, start), ErrResultRecorded, "a complete round takes no result")

	next := r.Deadline.Add(time.Minute)
	require.NoError(t, tour.PairNext(next))
	playRound(t, tour, next)
	phase, k = tour.State()
	assert.Equal(t, []any{Finished, 2}, []any{phase, k})
	assert.Equal(t, next, tour.Ended())
	assert.ErrorIs(t, tour.PairNext(next), ErrFinished)
	assert.ErrorIs(t, tour.Cancel(next), ErrFinished)
	assert.ErrorIs(t, tour.Withdraw("p1"), ErrFinished)
}

func TestCancel(t *testing.T) {
	tour := mustTournament(t, 4, nil)
	require.NoError(t, tour.Cancel(t0))
	phase, _ := tour.State()
	assert.Equal(t, Cancelled, phase)
	assert.Equal(t, t0, tour.Ended())
	assert.ErrorIs(t, tour.Cancel(t0), ErrCancelled)
	assert.ErrorIs(t, tour.Start(t0), ErrCancelled)
	assert.ErrorIs(t, tour.Leave("p1"), ErrCancelled)
}

func TestForfeit(t *testing.T) {
	tour := mustTournament(t, 6, func(s *Settings) { s.Rounds = 5 })
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	playRound(t, tour, now)
	require.NoError(t, tour.PairNext(now))
	playRound(t, tour, now)
	require.NoError(t, tour.PairNext(now))

	// Round 3: late joins are closed (3 of 5 rounds paired); two no-shows.
	r := tour.Rounds()[2]
	x, y := r.Pairings[0].First, r.Pairings[1].Second
	assert.ErrorIs(t, tour.Forfeit(GameRef{3, 1, 1}, "nobody", now), ErrNotInGame)
	require.NoError(t, tour.Forfeit(GameRef{3, 1, 1}, x, now))
	require.NoError(t, tour.Forfeit(GameRef{3, 2, 1}, y, now))
	g, err := tour.Game(GameRef{3, 1, 1})
	require.NoError(t, err)
	assert.Equal(t, SecondWon, g.Result, "the no-show loses")
	assert.Equal(t, x, g.NoShow)
	g, err = tour.Game(GameRef{3, 2, 1})
	require.NoError(t, err)
	assert.Equal(t, FirstWon, g.Result)
	assert.Equal(t, 4, tour.Active())
	assert.Equal(t, x, tour.WithdrawnBy(GameRef{3, 1, 1}), "the forfeit withdrew x: x is told there")
	assert.Empty(t, tour.WithdrawnBy(GameRef{3, 3, 1}), "no forfeit")
	assert.ErrorIs(t, tour.Join("late", 1500, now), ErrLateJoinClosed)

	assert.Equal(t, ComebackThisRound, tour.Comeback(x, now), "while the round is played")
	require.NoError(t, tour.Join(x, 1900, now), "a no-show may come back while the round is played")
	assert.Empty(t, tour.WithdrawnBy(GameRef{3, 1, 1}), "x is back")
	require.NoError(t, tour.Record(GameRef{3, 3, 1}, Drawn, now))
	assert.Equal(t, NoComeback, tour.Comeback(y, now), "the round is complete: the next is paired at once, and late joins close")
	assert.ErrorIs(t, tour.Join(y, 1500, now), ErrRejoinClosed, "too late to come back, not too late to join")
	require.NoError(t, tour.PairNext(now))
	assert.ErrorIs(t, tour.Join(y, 1500, now), ErrRejoinClosed)
	paired := map[string]bool{}
	for _, p := range tour.Rounds()[3].Pairings {
		paired[p.First], paired[p.Second] = true, true
	}
	assert.True(t, paired[x])
	assert.False(t, paired[y])
}

func TestByes(t *testing.T) {
	for _, duplicate := range []bool{false, true} {
		t.Run(fmt.Sprint("duplicate ", duplicate), func(t *testing.T) {
			tour := mustTournament(t, 3, func(s *Settings) { s.Rounds, s.Duplicate = 3, duplicate })
			now := t0.Add(time.Hour)
			require.NoError(t, tour.Start(now))
			byes := map[string]bool{}
			for k := 1; k <= 3; k++ {
				r := tour.Rounds()[k-1]
				require.NotEmpty(t, r.Bye)
				assert.False(t, byes[r.Bye], "round %d: %s has a second bye", k, r.Bye)
				byes[r.Bye] = true
				require.Len(t, r.Pairings, 1)
				playRound(t, tour, now)
				if k < 3 {
					require.NoError(t, tour.PairNext(now))
				}
			}
			var total Points
			for _, s := range tour.Standings() {
				total += s.Points
			}
			perRound := Points(4) // a game's point and the bye's, in half points
			if duplicate {
				perRound = 8
			}
			assert.Equal(t, 3*perRound, total)
		})
	}
}

func TestDuplicateRounds(t *testing.T) {
	tour := mustTournament(t, 4, func(s *Settings) { s.Rounds, s.Duplicate = 3, true })
	require.NoError(t, tour.Start(t0.Add(time.Hour)))
	for _, p := range tour.Rounds()[0].Pairings {
		require.Len(t, p.Games, 2)
		assert.Equal(t, [2]string{p.First, p.Second}, [2]string{p.Games[0].First, p.Games[0].Second})
		assert.Equal(t, [2]string{p.Second, p.First}, [2]string{p.Games[1].First, p.Games[1].Second}, "first move swapped")
	}
	require.NoError(t, tour.Record(GameRef{1, 1, 1}, FirstWon, t0))
	require.NoError(t, tour.Record(GameRef{1, 1, 2}, Drawn, t0))
	p := tour.Rounds()[0].Pairings[0]
	assert.Equal(t, Points(3), p.Points(p.First), "1 + ½")
	assert.Equal(t, Points(1), p.Points(p.Second))
}

func TestFinishesWhenTooFewPlayersAreLeft(t *testing.T) {
	tour := mustTournament(t, 3, func(s *Settings) { s.Rounds = 3 })
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	playRound(t, tour, now)
	require.NoError(t, tour.Withdraw("p0"))
	require.NoError(t, tour.Withdraw("p1"))
	require.NoError(t, tour.PairNext(now))
	phase, k := tour.State()
	assert.Equal(t, []any{Finished, 1}, []any{phase, k})
}

func TestForfeitInDuplicateRounds(t *testing.T) {
	tour := mustTournament(t, 4, func(s *Settings) { s.Rounds, s.Duplicate = 2, true })
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	one, two := tour.Rounds()[0].Pairings[0], tour.Rounds()[0].Pairings[1]

	// Board 1: its first player misses both games, the second plays: one
	// withdrawal, told once, in the first game forfeited.
	require.NoError(t, tour.Forfeit(GameRef{1, 1, 2}, one.First, now))
	require.NoError(t, tour.Forfeit(GameRef{1, 1, 1}, one.First, now.Add(time.Minute)))
	assert.Equal(t, one.First, tour.WithdrawnBy(GameRef{1, 1, 2}))
	assert.Empty(t, tour.WithdrawnBy(GameRef{1, 1, 1}), "told once")
	p := tour.Rounds()[0].Pairings[0]
	assert.False(t, p.DoubleForfeit())
	assert.Equal(t, Points(4), p.Points(one.Second), "two wins by forfeit")
	assert.Equal(t, Points(0), p.Points(one.First))

	// Board 2: neither plays: each forfeits the game they move first in.
	require.NoError(t, tour.Forfeit(GameRef{1, 2, 1}, two.First, now))
	require.NoError(t, tour.Forfeit(GameRef{1, 2, 2}, two.Second, now))
	p = tour.Rounds()[0].Pairings[1]
	assert.True(t, p.DoubleForfeit())
	assert.Equal(t, [2]Points{0, 0}, [2]Points{p.Points(two.First), p.Points(two.Second)}, "a double forfeit: both lose")
	assert.Equal(t, 1, tour.Completed())
	for _, s := range tour.Standings() {
		if s.Player == two.First || s.Player == two.Second || s.Player == one.First {
			assert.Zero(t, s.Points, s.Player)
			assert.True(t, s.Withdrawn, s.Player)
		}
	}
	require.NoError(t, tour.PairNext(now))
	assert.Equal(t, 1, tour.Active())
	phase, _ := tour.State()
	assert.Equal(t, Finished, phase, "one player left")
}

func TestForfeitInTheLastRoundWithdrawsNobody(t *testing.T) {
	tour := mustTournament(t, 4, func(s *Settings) { s.Rounds = 1 })
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	p := tour.Rounds()[0].Pairings
	require.NoError(t, tour.Record(GameRef{1, 1, 1}, Drawn, now))
	require.NoError(t, tour.Forfeit(GameRef{1, 2, 1}, p[1].Second, now))
	phase, _ := tour.State()
	require.Equal(t, Finished, phase)
	assert.Equal(t, 4, tour.Active(), "no round is left to withdraw from")
	assert.Empty(t, tour.WithdrawnBy(GameRef{1, 2, 1}))
}

func TestComeback(t *testing.T) {
	tour := mustTournament(t, 6, func(s *Settings) { s.Rounds = 5 })
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	p := tour.Rounds()[0].Pairings
	require.NoError(t, tour.Forfeit(GameRef{1, 1, 1}, p[0].First, now))
	assert.Equal(t, ComebackThisRound, tour.Comeback(p[0].First, now))
	deadline := tour.Rounds()[0].Deadline
	assert.Equal(t, ComebackLater, tour.Comeback(p[0].First, deadline), "the deadline closes the round: back only as a late joiner")
	assert.Equal(t, NoComeback, tour.Comeback(p[0].Second, now), "not withdrawn")
	require.NoError(t, tour.Record(GameRef{1, 2, 1}, Drawn, now))
	require.NoError(t, tour.Forfeit(GameRef{1, 3, 1}, p[2].Second, now))
	assert.Equal(t, ComebackLater, tour.Comeback(p[2].Second, now), "round 2 is paired at once, and late joins stay open (2 of 5 rounds)")
	assert.Equal(t, ComebackLater, tour.Comeback(p[0].First, now))
	require.NoError(t, tour.PairNext(now))
	require.NoError(t, tour.Join(p[2].Second, 1500, now), "a late joiner again")
	require.NoError(t, tour.Cancel(now))
	assert.Equal(t, NoComeback, tour.Comeback(p[0].First, now), "cancelled")
}

func TestRejoinClosesAtTheDeadline(t *testing.T) {
	tour := mustTournament(t, 4, func(s *Settings) { s.Rounds = 2 }) // late joins close with round 1
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	x := tour.Rounds()[0].Pairings[0].First
	require.NoError(t, tour.Forfeit(GameRef{1, 1, 1}, x, now))
	deadline := tour.Rounds()[0].Deadline
	assert.Equal(t, ComebackThisRound, tour.Comeback(x, deadline.Add(-time.Second)))
	assert.Equal(t, NoComeback, tour.Comeback(x, deadline), "the deadline closes the round: no invitation then")
	assert.ErrorIs(t, tour.Join(x, 1500, deadline), ErrRejoinClosed)
	require.NoError(t, tour.Join(x, 1500, deadline.Add(-time.Second)))
}
