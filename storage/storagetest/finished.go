package storagetest

import (
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testFinishMovesTheGame(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := mustCreate(t, s, "c", alice, bob)
	f := mustPlayOut(t, s, "c", 11)

	_, err := s.Game(t.Context(), "c")
	assert.ErrorIs(t, err, storage.ErrNotFound, "a finished game is no longer active")
	assert.Equal(t, g.ID, f.ID)
	assert.Equal(t, game.Normal, f.Result().Ending)
	rec, err := engine.ParseRecord(f.RecordText)
	require.NoError(t, err)
	p, err := rec.Replay()
	require.NoError(t, err)
	assert.True(t, p.IsOver(), "the stored record replays to the end")
	assert.Equal(t, p.Score(engine.Full), f.Result().Score)

	_, err = s.FinishedGame(t.Context(), "another guild", g.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "finished games are per guild")

	// The channel is free again.
	mustCreate(t, s, "c", alice, bob)
}

func testRatedGameUpdatesProfiles(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	f := mustGame(t, s, alice, bob, false, t0) // bob (black) resigns

	wantA, wantB := rating.Rate(rating.New(), rating.New(), rating.Win)
	assert.Equal(t, [2]storage.RatingChange{{Before: rating.New(), After: wantA}, {Before: rating.New(), After: wantB}}, f.Ratings)

	a, err := s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, wantA, a.Rating)
	assert.Equal(t, storage.Tally{Wins: 1}, a.Tally)
	assert.Equal(t, 1, a.Streak)
	assert.Equal(t, &storage.BestWin{GameID: f.ID, OpponentID: bob.UserID, OpponentName: "bob", OpponentRating: 1500}, a.BestWin)
	assert.True(t, a.LastPlayed.Equal(t0))

	b, err := s.Profile(t.Context(), guild, bob.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, wantB, b.Rating)
	assert.Equal(t, storage.Tally{Losses: 1}, b.Tally)
	assert.Equal(t, -1, b.Streak)
	assert.Nil(t, b.BestWin)

	_, err = s.Profile(t.Context(), guild, alice.UserID, storage.AI)
	assert.ErrorIs(t, err, storage.ErrNotFound, "a human game is not on the AI ladder")
	_, err = s.Profile(t.Context(), "another guild", alice.UserID, storage.Human)
	assert.ErrorIs(t, err, storage.ErrNotFound, "profiles are per guild")
}

func testDirectMessageGame(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := newGame(t, "dm", alice, hardAI)
	g.GuildID = ""
	require.NoError(t, s.CreateGame(t.Context(), g))
	mustFinish(t, s, "dm", game.Resigned, engine.Red, t0)

	f, err := s.FinishedGame(t.Context(), "", g.ID)
	require.NoError(t, err)
	assert.Equal(t, "Black wins, Red resigned", f.Result().String())
	p, err := s.Profile(t.Context(), "", "ai:hard", storage.AI)
	require.NoError(t, err, "games in direct messages count on a ladder of their own")
	assert.Equal(t, storage.Tally{Wins: 1}, p.Tally)
	_, err = s.FinishedGame(t.Context(), guild, g.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

// testEverywhereLadder checks the games outside the servers that added
// the bot (the bot's "everywhere"): kept under the guild key "" with the
// server they are played in (ServerID, which no update changes), they
// rate their players on the ladder of the key "", apart from any guild's.
func testEverywhereLadder(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := newGame(t, "groupdm", alice, bob)
	g.GuildID, g.ServerID = "", "777"
	require.NoError(t, s.CreateGame(t.Context(), g))
	got, err := s.Game(t.Context(), "groupdm")
	require.NoError(t, err)
	assert.Equal(t, "777", got.ServerID, "the server is stored")
	_, err = s.UpdateGame(t.Context(), "groupdm", func(g *storage.Game) error { g.ServerID = "778"; return nil })
	assert.ErrorIs(t, err, storage.ErrInvalid, "the server may not change")
	mine, err := s.PlayerGames(t.Context(), bob.UserID)
	require.NoError(t, err)
	require.Len(t, mine, 1, "a player's games include those outside the servers")
	assert.Equal(t, "777", mine[0].ServerID)
	mustFinish(t, s, "groupdm", game.Resigned, engine.Red, t0)

	f, err := s.FinishedGame(t.Context(), "", g.ID)
	require.NoError(t, err)
	assert.Equal(t, "777", f.ServerID)
	top, total, err := s.Leaderboard(t.Context(), "", storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	require.Len(t, top, 2)
	assert.Equal(t, bob.UserID, top[0].UserID, "the winner leads")
	_, total, err = s.Leaderboard(t.Context(), guild, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total, "no guild's ladder counts it")
}

func testEndingsCount(t *testing.T, open Open) {
	tests := []struct {
		ending game.Ending
		loser  engine.Color
		red    storage.Tally // alice's profile afterwards
		black  storage.Tally
		rated  bool
	}{
		{game.Resigned, engine.Red, storage.Tally{Losses: 1}, storage.Tally{Wins: 1}, true},
		{game.TimedOut, engine.Black, storage.Tally{Wins: 1}, storage.Tally{Losses: 1}, true},
		{game.DrawAgreed, engine.Red, storage.Tally{Draws: 1}, storage.Tally{Draws: 1}, true},
		{game.Aborted, engine.Red, storage.Tally{}, storage.Tally{}, false},
		{game.Abandoned, engine.Red, storage.Tally{}, storage.Tally{}, false},
		{game.Adjudicated, engine.Black, storage.Tally{Wins: 1}, storage.Tally{Losses: 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.ending.String(), func(t *testing.T) {
			s := open(t, storage.Options{})
			cfg := squareConfig(alice, bob)
			cfg.MoveTime = time.Hour // black's time runs out at t0+1h3m
			g := mustNewGame(t, "c", cfg)
			require.NoError(t, s.CreateGame(t.Context(), g))
			mustPlay(t, s, "c", "D4", "D7", "F7")
			mustFinish(t, s, "c", tt.ending, tt.loser, t0.Add(2*time.Hour))

			f, err := s.FinishedGame(t.Context(), guild, g.ID)
			require.NoError(t, err)
			assert.Equal(t, tt.rated, f.Ratings != [2]storage.RatingChange{})
			for c, want := range [2]storage.Tally{tt.red, tt.black} {
				p, err := s.Profile(t.Context(), guild, f.Player(engine.Color(c)).UserID, storage.Human)
				if !tt.rated {
					assert.ErrorIs(t, err, storage.ErrNotFound, "a game that counts for nobody changes no profile")
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, want, p.Tally)
			}
			h, err := s.History(t.Context(), guild, alice.UserID, 10, 0)
			require.NoError(t, err)
			require.Len(t, h, 1, "every finished game is in the history")
			assert.Equal(t, tt.ending, h[0].Ending)
		})
	}
}

func testStreaksAndBestWin(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	at := t0
	next := func() time.Time { at = at.Add(time.Hour); return at }

	// carol becomes strong by beating bob; alice then loses twice, beats
	// bob, draws, and beats carol: her best win.
	for range 3 {
		mustGame(t, s, carol, bob, false, next())
	}
	mustGame(t, s, alice, bob, true, next())
	mustGame(t, s, alice, carol, true, next())
	a, err := s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, -2, a.Streak)
	assert.Nil(t, a.BestWin)

	mustGame(t, s, alice, bob, false, next())
	a, err = s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, 1, a.Streak)
	require.NotNil(t, a.BestWin)
	assert.Equal(t, bob.UserID, a.BestWin.OpponentID)

	g := mustCreate(t, s, "draw", alice, bob)
	mustFinish(t, s, "draw", game.DrawAgreed, engine.Red, next())
	a, err = s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Zero(t, a.Streak, "a draw ends a streak")

	c, err := s.Profile(t.Context(), guild, carol.UserID, storage.Human)
	require.NoError(t, err)
	f := mustGame(t, s, carol, alice, true, next())
	a, err = s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, &storage.BestWin{GameID: f.ID, OpponentID: carol.UserID, OpponentName: "Carol", OpponentRating: c.Rating.Rating}, a.BestWin,
		"the best win is the highest-rated opponent beaten, at the time")
	assert.Equal(t, storage.Tally{Wins: 2, Losses: 2, Draws: 1}, a.Tally)
	assert.NotEqual(t, g.ID, f.ID)
}

func testAILadder(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustGame(t, s, alice, easyAI, false, t0)
	mustGame(t, s, hardAI, alice, false, t0.Add(time.Hour))

	_, err := s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	assert.ErrorIs(t, err, storage.ErrNotFound, "games against the computer never count on the human ladder")
	a, err := s.Profile(t.Context(), guild, alice.UserID, storage.AI)
	require.NoError(t, err)
	assert.Equal(t, storage.Tally{Wins: 1, Losses: 1}, a.Tally)

	for _, level := range []string{"easy", "hard"} {
		p, err := s.Profile(t.Context(), guild, "ai:"+level, storage.AI)
		require.NoError(t, err, "each level of the computer opponent has a profile")
		assert.Equal(t, 1, p.Games())
	}
	top, total, err := s.Leaderboard(t.Context(), guild, storage.AI, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 3, total)
	assert.Equal(t, "ai:hard", top[0].UserID)
	_, total, err = s.Leaderboard(t.Context(), guild, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total)
}

func testRatingDecay(t *testing.T, open Open) {
	tests := []struct {
		name   string
		period time.Duration
		grows  bool
	}{
		{"default period", 0, true},
		{"off", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t, storage.Options{RatingPeriod: tt.period})
			mustGame(t, s, alice, bob, false, t0)
			a, err := s.Profile(t.Context(), guild, alice.UserID, storage.Human)
			require.NoError(t, err)

			later := t0.Add(365 * 24 * time.Hour)
			f := mustGame(t, s, alice, bob, false, later)
			before := f.Ratings[engine.Red].Before
			assert.Equal(t, a.Rating.Rating, before.Rating, "time away changes no rating")
			if tt.grows {
				want := rating.Decay(a.Rating, float64(later.Sub(t0))/float64(storage.DefaultRatingPeriod))
				assert.Equal(t, want, before)
				assert.Greater(t, before.RD, a.Rating.RD)
			} else {
				assert.Equal(t, a.Rating, before)
			}
		})
	}
}

func testLeaderboard(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	dave := game.Player{UserID: "400", Name: "dave"}
	erin := game.Player{UserID: "500", Name: "Erin"}
	// carol and alice win once against bob and dave: equal ratings and
	// games, ranked by name (ignoring case); erin wins twice.
	mustGame(t, s, carol, bob, false, t0)
	mustGame(t, s, alice, dave, false, t0.Add(time.Hour))
	mustGame(t, s, erin, bob, false, t0.Add(2*time.Hour))
	mustGame(t, s, erin, dave, false, t0.Add(3*time.Hour))

	all, total, err := s.Leaderboard(t.Context(), guild, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 5, total)
	var order []string
	for i, p := range all {
		order = append(order, p.Name)
		if i > 0 {
			assert.GreaterOrEqual(t, all[i-1].Rating.Rating, p.Rating.Rating)
		}
	}
	require.Len(t, order, 5)
	assert.Equal(t, "Erin", order[0])
	assert.Equal(t, []string{"alice", "Carol"}, order[1:3], "ties by games, then by name")
	assert.Equal(t, all[1].Rating, all[2].Rating)

	page, total, err := s.Leaderboard(t.Context(), guild, storage.Human, 2, 2)
	require.NoError(t, err)
	assert.Equal(t, 5, total)
	assert.Equal(t, all[2:4], page)
	page, total, err = s.Leaderboard(t.Context(), guild, storage.Human, 5, 2)
	require.NoError(t, err)
	assert.Equal(t, 5, total)
	assert.Empty(t, page)

	// A rename moves the entry, leaving no trace of the old name.
	g := mustCreate(t, s, "rename", game.Player{UserID: alice.UserID, Name: "Zoe"}, carol)
	mustFinish(t, s, "rename", game.DrawAgreed, engine.Red, t0.Add(4*time.Hour))
	all, total, err = s.Leaderboard(t.Context(), guild, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 5, total)
	names := map[string]bool{}
	for _, p := range all {
		names[p.Name] = true
	}
	assert.True(t, names["Zoe"])
	assert.False(t, names["alice"])
	assert.NotZero(t, g.ID)

	for _, bad := range [][2]int{{-1, 10}, {0, 0}} {
		_, _, err := s.Leaderboard(t.Context(), guild, storage.Human, bad[0], bad[1])
		assert.ErrorIs(t, err, storage.ErrInvalid)
		assert.ErrorContains(t, err, "the offset may not be negative and the limit must be positive")
	}
}

func testHistory(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	var ids []uint64
	for i := range 5 {
		f := mustGame(t, s, alice, bob, i%2 == 0, t0.Add(time.Duration(i)*time.Hour))
		ids = append(ids, f.ID)
	}
	// A game created first but ended last comes first.
	late := mustCreate(t, s, "late", carol, alice)
	mustFinish(t, s, "late", game.Aborted, engine.Red, t0.Add(10*time.Hour))
	mustGame(t, s, carol, bob, false, t0.Add(11*time.Hour)) // not alice's

	page, err := s.History(t.Context(), guild, alice.UserID, 3, 0)
	require.NoError(t, err)
	require.Len(t, page, 3)
	assert.Equal(t, []uint64{late.ID, ids[4], ids[3]}, []uint64{page[0].GameID, page[1].GameID, page[2].GameID})
	assert.Equal(t, carol, page[0].Opponent)
	assert.Equal(t, game.NoContest, page[0].Outcome)
	assert.Equal(t, engine.Black, page[0].Color)
	assert.Equal(t, game.Lost, page[1].Outcome)
	assert.Equal(t, game.Won, page[2].Outcome)
	assert.Equal(t, bob, page[1].Opponent)
	assert.NotZero(t, page[1].Rating.After)

	page, err = s.History(t.Context(), guild, alice.UserID, 3, page[2].GameID)
	require.NoError(t, err)
	require.Len(t, page, 3)
	assert.Equal(t, []uint64{ids[2], ids[1], ids[0]}, []uint64{page[0].GameID, page[1].GameID, page[2].GameID})
	page, err = s.History(t.Context(), guild, alice.UserID, 3, ids[0])
	require.NoError(t, err)
	assert.Empty(t, page)

	_, err = s.History(t.Context(), guild, alice.UserID, 3, 999)
	assert.ErrorIs(t, err, storage.ErrNotFound)
	_, err = s.History(t.Context(), guild, alice.UserID, 0, 0)
	assert.ErrorIs(t, err, storage.ErrInvalid)

	h2h, err := s.HeadToHead(t.Context(), guild, alice.UserID, bob.UserID)
	require.NoError(t, err)
	assert.Equal(t, storage.Tally{Wins: 2, Losses: 3}, h2h)
	h2h, err = s.HeadToHead(t.Context(), guild, bob.UserID, alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, storage.Tally{Wins: 3, Losses: 2}, h2h)
	h2h, err = s.HeadToHead(t.Context(), guild, alice.UserID, carol.UserID)
	require.NoError(t, err)
	assert.Equal(t, storage.Tally{}, h2h, "an aborted game does not count")
}

func testRatingTrend(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	var want []rating.Rating
	for i := range 4 {
		f := mustGame(t, s, alice, bob, i == 1, t0.Add(time.Duration(i)*time.Hour))
		want = append(want, f.Ratings[engine.Red].After)
	}
	mustGame(t, s, alice, easyAI, false, t0.Add(5*time.Hour)) // another ladder

	trend, err := s.RatingTrend(t.Context(), guild, alice.UserID, storage.Human, 3)
	require.NoError(t, err)
	require.Len(t, trend, 3)
	for i, p := range trend {
		assert.Equal(t, want[i+1], p.Rating, "oldest first")
	}
	a, err := s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, a.Rating, trend[2].Rating, "the trend ends at the current rating")

	trend, err = s.RatingTrend(t.Context(), guild, alice.UserID, storage.AI, 10)
	require.NoError(t, err)
	assert.Len(t, trend, 1)
	_, err = s.RatingTrend(t.Context(), guild, alice.UserID, storage.AI, 0)
	assert.ErrorIs(t, err, storage.ErrInvalid)
}
