package rating_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

var (
	t0      = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	players = [2]game.Player{{UserID: "1", Name: "alice"}, {UserID: "2", Name: "bob"}}
	ids     = [2]string{"1", "2"}
)

// played returns game id between alice (red) and bob, ended as e at at;
// winner wins unless draw.
func played(id uint64, e game.Ending, winner engine.Color, draw bool, at time.Time) rating.Played {
	return rating.Played{ID: id, Players: players, IDs: ids, Result: &game.Result{Ending: e, Winner: winner, Draw: draw, At: at}}
}

func TestCountFirstGame(t *testing.T) {
	var none [2]rating.Standing
	after, change, counted := rating.Count(none, played(7, game.Normal, engine.Red, false, t0), 24*time.Hour)
	require.True(t, counted)
	wantRed, wantBlack := rating.Rate(rating.New(), rating.New(), rating.Win)
	assert.Equal(t, [2]rating.Change{{Before: rating.New(), After: wantRed}, {Before: rating.New(), After: wantBlack}}, change,
		"new players start at rating.New, with nothing to decay")
	assert.Equal(t, rating.Standing{Name: "alice", Rating: wantRed, Tally: rating.Tally{Wins: 1}, Streak: 1,
		BestWin: &rating.BestWin{GameID: 7, OpponentID: "2", OpponentName: "bob", OpponentRating: 1500}, LastPlayed: t0}, after[engine.Red])
	assert.Equal(t, rating.Standing{Name: "bob", Rating: wantBlack, Tally: rating.Tally{Losses: 1}, Streak: -1, LastPlayed: t0}, after[engine.Black])
}

func TestCountNotRated(t *testing.T) {
	before := [2]rating.Standing{{Name: "alice", Rating: rating.New(), Streak: 2}, {Name: "bob", Rating: rating.New(), Streak: -1}}
	for _, e := range []game.Ending{game.Aborted, game.Unstarted, game.Abandoned} {
		t.Run(e.String(), func(t *testing.T) {
			after, change, counted := rating.Count(before, played(1, e, engine.Red, false, t0), 24*time.Hour)
			assert.False(t, counted, "an aborted game is not rated")
			assert.Equal(t, before, after)
			assert.Zero(t, change)
		})
	}
}

// TestCountSeries plays a series between alice and bob and checks the
// streaks, tallies and best wins after each game.
func TestCountSeries(t *testing.T) {
	type want struct {
		tally  [2]rating.Tally
		streak [2]int
		best   [2]uint64 // the game of the best win, 0 for none
	}
	series := []struct {
		name   string
		ending game.Ending
		winner engine.Color
		draw   bool
		want   want
	}{
		{"red wins", game.Normal, engine.Red, false, want{[2]rating.Tally{{Wins: 1}, {Losses: 1}}, [2]int{1, -1}, [2]uint64{1, 0}}},
		{"red wins again", game.Resigned, engine.Red, false, want{[2]rating.Tally{{Wins: 2}, {Losses: 2}}, [2]int{2, -2}, [2]uint64{1, 0}}},
		{"black wins on time", game.TimedOut, engine.Black, false, want{[2]rating.Tally{{Wins: 2, Losses: 1}, {Wins: 1, Losses: 2}}, [2]int{-1, 1}, [2]uint64{1, 3}}},
		{"aborted", game.Aborted, engine.Red, false, want{[2]rating.Tally{{Wins: 2, Losses: 1}, {Wins: 1, Losses: 2}}, [2]int{-1, 1}, [2]uint64{1, 3}}},
		{"draw", game.DrawAgreed, engine.Red, true, want{[2]rating.Tally{{Wins: 2, Losses: 1, Draws: 1}, {Wins: 1, Losses: 2, Draws: 1}}, [2]int{0, 0}, [2]uint64{1, 3}}},
	}
	var s [2]rating.Standing
	for i, g := range series {
		id := uint64(i + 1)
		s, _, _ = rating.Count(s, played(id, g.ending, g.winner, g.draw, t0.Add(time.Duration(i)*time.Hour)), 24*time.Hour)
		t.Run(g.name, func(t *testing.T) {
			for c := range s {
				assert.Equal(t, g.want.tally[c], s[c].Tally, "tally of %v", engine.Color(c))
				assert.Equal(t, g.want.streak[c], s[c].Streak, "streak of %v", engine.Color(c))
				if g.want.best[c] == 0 {
					assert.Nil(t, s[c].BestWin)
					continue
				}
				require.NotNil(t, s[c].BestWin)
				assert.Equal(t, g.want.best[c], s[c].BestWin.GameID, "best win of %v", engine.Color(c))
			}
		})
	}
}

// TestCountBestWin: only a win against an opponent rated higher than the
// best win so far replaces it.
func TestCountBestWin(t *testing.T) {
	best := &rating.BestWin{GameID: 1, OpponentID: "9", OpponentName: "carol", OpponentRating: 1600}
	for _, tt := range []struct {
		name     string
		opponent float64
		want     uint64
	}{
		{"weaker opponent", 1550, 1},
		{"as strong", 1600, 1},
		{"stronger opponent", 1650, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := [2]rating.Standing{
				{Rating: rating.New(), BestWin: best},
				{Rating: rating.Rating{Rating: tt.opponent, RD: 100, Volatility: 0.06}},
			}
			after, _, _ := rating.Count(s, played(5, game.Normal, engine.Red, false, t0), 24*time.Hour)
			assert.Equal(t, tt.want, after[engine.Red].BestWin.GameID)
		})
	}
}

// TestCountDecay: the rating deviation grows with the periods since the
// player's last game before the game is rated, and not at all with a
// period that is not positive.
func TestCountDecay(t *testing.T) {
	settled := rating.Rating{Rating: 1600, RD: 60, Volatility: 0.06}
	s := [2]rating.Standing{{Rating: settled, LastPlayed: t0}, {Rating: settled, LastPlayed: t0.Add(10 * 24 * time.Hour)}}
	at := t0.Add(10 * 24 * time.Hour)
	for _, tt := range []struct {
		name   string
		period time.Duration
		want   [2]rating.Rating
	}{
		{"a day", 24 * time.Hour, [2]rating.Rating{rating.Decay(settled, 10), settled}},
		{"no decay", -1, [2]rating.Rating{settled, settled}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, change, _ := rating.Count(s, played(1, game.Normal, engine.Red, false, at), tt.period)
			assert.Equal(t, tt.want[engine.Red], change[engine.Red].Before, "ten days away")
			assert.Equal(t, tt.want[engine.Black], change[engine.Black].Before, "played just now")
		})
	}
}

// TestCountZeroSum checks a property of every rated game: the winner's
// rating rises, the loser's falls, and both tallies grow by one game.
func TestCountZeroSum(t *testing.T) {
	endings := []game.Ending{game.Normal, game.Resigned, game.TimedOut}
	for i := range 60 {
		winner := engine.Color(i % 2)
		s := [2]rating.Standing{
			{Rating: rating.Rating{Rating: 1200 + float64(i*13%700), RD: 50 + float64(i*7%300), Volatility: 0.06}},
			{Rating: rating.Rating{Rating: 1300 + float64(i*29%600), RD: 60 + float64(i*11%280), Volatility: 0.06}},
		}
		after, change, counted := rating.Count(s, played(uint64(i), endings[i%3], winner, false, t0), 24*time.Hour)
		require.True(t, counted)
		assert.Greater(t, change[winner].After.Rating, change[winner].Before.Rating, "game %d: the winner gains", i)
		assert.Less(t, change[winner.Other()].After.Rating, change[winner.Other()].Before.Rating, "game %d: the loser loses", i)
		for c := range after {
			assert.Equal(t, s[c].Games()+1, after[c].Games())
			assert.Equal(t, change[c].After, after[c].Rating)
		}
	}
}
