package storage

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// mustCopyV1 copies testdata/v1.db, a database written by the release
// before engine/game, to a temporary directory and returns its path.
func mustCopyV1(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "v1.db"))
	require.NoError(tb, err)
	path := filepath.Join(tb.TempDir(), "kulami.db")
	require.NoError(tb, os.WriteFile(path, b, 0o600))
	return path
}

// TestOpensDatabaseOfPreviousRelease opens testdata/v1.db, written by the
// release before engine/game (do not regenerate it), and checks that
// everything in it reads back and that its games go on.
func TestOpensDatabaseOfPreviousRelease(t *testing.T) {
	path := mustCopyV1(t)
	s := mustOpenPath(t, path, Options{})
	require.NoError(t, checkFile(s))

	t.Run("game with a clock, a reminder and a draw offer", func(t *testing.T) {
		g, err := s.Game(t.Context(), "c-play")
		require.NoError(t, err)
		assert.Equal(t, uint64(5), g.ID)
		assert.Equal(t, guild, g.GuildID)
		assert.Empty(t, g.ParentChannelID)
		assert.Equal(t, "5555", g.BoardMessageID)
		assert.Equal(t, [2]game.Player{alice, bob}, g.Players())
		assert.True(t, g.Layout().Equal(engine.Square()))
		assert.Equal(t, engine.Full, g.Rules())
		assert.Equal(t, engine.Red, g.First())
		assert.True(t, g.Created().Equal(t0))
		var want []game.Move
		for i, m := range []string{"D4", "D7", "A7", "A1", "E1"} {
			want = append(want, game.Move{Cell: mustCell(t, m), At: moveTime(i)})
		}
		assertMoves(t, want, g.Moves())
		assert.Equal(t, 72*time.Hour, g.MoveTime())
		assert.True(t, g.Deadline().Equal(t0.Add(80*time.Hour)))
		assert.Equal(t, 1, g.Reminders())
		assert.Equal(t, &game.DrawOffer{By: engine.Black, Ply: 5}, g.DrawOffer())
		assert.Nil(t, g.Result())
		assert.Equal(t, engine.Black, g.ToMove())
		assert.True(t, g.Wake().Equal(t0.Add(80*time.Hour-72*time.Hour/10)), "the second reminder")
	})

	t.Run("game against the computer", func(t *testing.T) {
		g, err := s.Game(t.Context(), "c-ai")
		require.NoError(t, err)
		assert.Equal(t, uint64(6), g.ID)
		assert.Equal(t, [2]game.Player{easyAI, carol}, g.Players())
		assert.Equal(t, engine.Basic, g.Rules())
		assert.Zero(t, g.Ply())
		assert.Zero(t, g.MoveTime())
		assert.True(t, g.Deadline().IsZero())
		assert.Equal(t, AI, g.Ladder())
		assert.True(t, g.Wake().Equal(t0.Add(game.ComputerGrace)))
	})

	t.Run("game in a thread", func(t *testing.T) {
		g, err := s.Game(t.Context(), "c-thread")
		require.NoError(t, err)
		assert.Equal(t, uint64(7), g.ID)
		assert.Equal(t, "c-parent", g.ParentChannelID)
		assert.Equal(t, [2]game.Player{bob, alice}, g.Players())
		assert.Equal(t, engine.RandomIrregular(42).String(), g.Layout().String())
		assert.Equal(t, engine.Area, g.Rules())
		assert.Equal(t, engine.Black, g.First())
		assert.Equal(t, engine.Black, g.ToMove())
		assert.True(t, g.Wake().IsZero())
	})

	t.Run("challenge", func(t *testing.T) {
		c, err := s.Challenge(t.Context(), "c-chal")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), c.ID)
		assert.Equal(t, guild, c.GuildID)
		assert.Equal(t, "7777", c.MessageID)
		assert.Equal(t, carol, c.From)
		assert.Equal(t, alice, c.To)
		assert.Equal(t, engine.RandomSquare(9).String(), c.Layout)
		assert.Equal(t, engine.Lines, c.Rules)
		assert.Equal(t, challenge.FirstOpponent, c.First)
		assert.Equal(t, 24*time.Hour, c.MoveTime)
		assert.True(t, c.Created.Equal(t0))
		assert.True(t, c.Expires.Equal(t0.Add(24*time.Hour)))
		due, err := s.Due(t.Context(), c.Expires)
		require.NoError(t, err)
		assert.True(t, slices.ContainsFunc(due, func(w Wake) bool {
			return w.Kind == WakeChallenge && w.ChannelID == "c-chal" && w.At.Equal(c.Expires)
		}), "the challenge wakes when it expires: %v", due)
	})

	t.Run("finished games", func(t *testing.T) {
		tests := []struct {
			id         uint64
			red, black game.Player
			ending     game.Ending
			result     string
			ply        int
			rated      bool
		}{
			{1, alice, bob, game.Normal, "Black 31-26", 56, true},
			{2, alice, carol, game.Resigned, "Black wins, Red resigned", 2, true},
			{3, bob, carol, game.Aborted, "Aborted", 1, false},
			{4, alice, hardAI, game.TimedOut, "Black wins, Red ran out of time", 2, true},
		}
		for _, tt := range tests {
			t.Run(tt.result, func(t *testing.T) {
				f, err := s.FinishedGame(t.Context(), guild, tt.id)
				require.NoError(t, err)
				assert.Equal(t, [2]game.Player{tt.red, tt.black}, f.Players())
				require.NotNil(t, f.Result())
				assert.Equal(t, tt.ending, f.Result().Ending)
				assert.Equal(t, tt.result, f.Result().String())
				assert.Equal(t, tt.ply, f.Ply())
				assert.Equal(t, tt.rated, f.Ratings != [2]RatingChange{})
				rec, err := engine.ParseRecord(f.RecordText)
				require.NoError(t, err)
				res, _ := rec.Tag("Result")
				assert.Equal(t, tt.result, res)
				assert.Equal(t, f.Game.Record().String(), f.RecordText, "the stored record is the one the game writes")
			})
		}
		f, err := s.FinishedGame(t.Context(), guild, 1)
		require.NoError(t, err)
		assert.False(t, f.Blocked(), "game 1 ended with every marble placed")
		assert.Equal(t, 1662.3108939062977, f.Ratings[engine.Black].After.Rating)
		_, err = s.FinishedGame(t.Context(), guild, 5)
		assert.ErrorIs(t, err, ErrNotFound, "game 5 is still going on")
	})

	t.Run("profiles and ratings", func(t *testing.T) {
		tests := []struct {
			user   string
			ladder Ladder
			rating float64
			tally  Tally
			streak int
		}{
			{alice.UserID, Human, 1249.4570476425995, Tally{Losses: 2}, -2},
			{bob.UserID, Human, 1662.3108939062977, Tally{Wins: 1}, 1},
			{carol.UserID, Human, 1616.6419337468967, Tally{Wins: 1}, 1},
			{alice.UserID, AI, 1337.6891060937023, Tally{Losses: 1}, -1},
			{"ai:hard", AI, 1662.3108939062977, Tally{Wins: 1}, 1},
		}
		for _, tt := range tests {
			t.Run(tt.ladder.String()+" "+tt.user, func(t *testing.T) {
				p, err := s.Profile(t.Context(), guild, tt.user, tt.ladder)
				require.NoError(t, err)
				assert.Equal(t, tt.rating, p.Rating.Rating)
				assert.Equal(t, tt.tally, p.Tally)
				assert.Equal(t, tt.streak, p.Streak)
			})
		}
		b, err := s.Profile(t.Context(), guild, bob.UserID, Human)
		require.NoError(t, err)
		assert.Equal(t, &BestWin{GameID: 1, OpponentID: alice.UserID, OpponentName: "alice", OpponentRating: 1500}, b.BestWin)

		for ladder, want := range map[Ladder][]string{Human: {"200", "300", "100"}, AI: {"ai:hard", "100"}} {
			page, total, err := s.Leaderboard(t.Context(), guild, ladder, 0, 10)
			require.NoError(t, err)
			assert.Equal(t, len(want), total)
			var got []string
			for _, p := range page {
				got = append(got, p.UserID)
			}
			assert.Equal(t, want, got, "%s ladder", ladder)
		}

		h, err := s.History(t.Context(), guild, alice.UserID, 10, 0)
		require.NoError(t, err)
		var ids []uint64
		for _, e := range h {
			ids = append(ids, e.GameID)
		}
		assert.Equal(t, []uint64{4, 2, 1}, ids, "most recently ended first")
		h2h, err := s.HeadToHead(t.Context(), guild, alice.UserID, bob.UserID)
		require.NoError(t, err)
		assert.Equal(t, Tally{Losses: 1}, h2h)
		h2h, err = s.HeadToHead(t.Context(), guild, bob.UserID, carol.UserID)
		require.NoError(t, err)
		assert.Equal(t, Tally{}, h2h, "game 3 was aborted")
		trend, err := s.RatingTrend(t.Context(), guild, alice.UserID, Human, 10)
		require.NoError(t, err)
		require.Len(t, trend, 2)
		assert.Equal(t, 1249.4570476425995, trend[1].Rating.Rating)
	})

	t.Run("settings", func(t *testing.T) {
		g, err := s.GuildSettings(t.Context(), guild)
		require.NoError(t, err)
		assert.Equal(t, GuildSettings{Threads: true, MoveTime: 24 * time.Hour, Hints: true}, g)
		u, err := s.UserSettings(t.Context(), alice.UserID)
		require.NoError(t, err)
		assert.True(t, u.DMReminders)
	})

	t.Run("wake index", func(t *testing.T) {
		assert.Equal(t, []Wake{
			{WakeGame, "c-ai", t0.Add(game.ComputerGrace)},
			{WakeChallenge, "c-chal", t0.Add(24 * time.Hour)},
			{WakeGame, "c-play", t0.Add(80*time.Hour - 72*time.Hour/10)},
		}, mustWakes(t, s))
	})

	// The games go on, and end with ratings, as in the previous release.
	t.Run("play on", func(t *testing.T) {
		g, err := s.UpdateGame(t.Context(), "c-play", func(g *Game) error {
			c, err := g.Seat(bob.UserID)
			if err != nil {
				return err
			}
			return g.Play(c, 5, mustCell(t, "E3"), moveTime(5))
		})
		require.NoError(t, err)
		assert.Equal(t, 6, g.Ply())
		assert.Nil(t, g.DrawOffer(), "a move withdraws the draw offer")
		assert.True(t, g.Deadline().Equal(moveTime(5).Add(72*time.Hour)), "alice's clock runs")

		g, err = s.UpdateGame(t.Context(), "c-ai", func(g *Game) error {
			m, err := ai.Easy.Move(context.Background(), g.Position(), g.Rules())
			if err != nil {
				return err
			}
			return g.Play(engine.Red, 0, m.Cell, moveTime(0))
		})
		require.NoError(t, err)
		assert.Equal(t, 1, g.Ply(), "the computer moved")
		assert.Equal(t, engine.Black, g.ToMove())

		// A new game and a new challenge get IDs after the stored ones.
		n := mustCreate(t, s, "c-new", carol, bob)
		assert.Equal(t, uint64(8), n.ID)
		c := newChallenge("c-new-chal", bob, carol)
		require.NoError(t, s.CreateChallenge(t.Context(), c))
		assert.Equal(t, uint64(2), c.ID)

		assert.Equal(t, []Wake{
			{WakeChallenge, "c-new-chal", t0.Add(time.Hour)},
			{WakeChallenge, "c-chal", t0.Add(24 * time.Hour)},
			{WakeGame, "c-play", moveTime(5).Add(36 * time.Hour)},
		}, mustWakes(t, s), "the computer has moved: c-ai has no clock")

		bobBefore, err := s.Profile(t.Context(), guild, bob.UserID, Human)
		require.NoError(t, err)
		mustFinish(t, s, "c-play", game.Resigned, engine.Black, t0.Add(100*time.Hour))
		f, err := s.FinishedGame(t.Context(), guild, 5)
		require.NoError(t, err)
		assert.Equal(t, "Red wins, Black resigned", f.Result().String())
		assert.Equal(t, bobBefore.Rating.Rating, f.Ratings[engine.Black].Before.Rating)
		assert.Equal(t, 1249.4570476425995, f.Ratings[engine.Red].Before.Rating)
		assert.Greater(t, f.Ratings[engine.Red].After.Rating, f.Ratings[engine.Red].Before.Rating)

		a, err := s.Profile(t.Context(), guild, alice.UserID, Human)
		require.NoError(t, err)
		assert.Equal(t, Tally{Wins: 1, Losses: 2}, a.Tally)
		assert.Equal(t, 1, a.Streak)
		assert.Equal(t, f.Ratings[engine.Red].After, a.Rating)
		assert.Equal(t, &BestWin{GameID: 5, OpponentID: bob.UserID, OpponentName: "bob", OpponentRating: f.Ratings[engine.Black].Before.Rating}, a.BestWin)
		b, err := s.Profile(t.Context(), guild, bob.UserID, Human)
		require.NoError(t, err)
		assert.Equal(t, Tally{Wins: 1, Losses: 1}, b.Tally)
		assert.Equal(t, f.Ratings[engine.Black].After, b.Rating)
		h, err := s.History(t.Context(), guild, alice.UserID, 1, 0)
		require.NoError(t, err)
		require.Len(t, h, 1)
		assert.Equal(t, uint64(5), h[0].GameID)
		_, err = s.Game(t.Context(), "c-play")
		assert.ErrorIs(t, err, ErrNotFound)
	})

	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path), "the file was migrated to the current schema")
	s = mustOpenPath(t, path, Options{})
	require.NoError(t, checkFile(s))
	g, err := s.Game(t.Context(), "c-ai")
	require.NoError(t, err)
	assert.Equal(t, 1, g.Ply(), "the file reopens with what was written")
}

// assertMoves checks that got are the moves want, at the same instants.
func assertMoves(tb testing.TB, want, got []game.Move) {
	tb.Helper()
	require.Len(tb, got, len(want))
	for i := range want {
		assert.Equal(tb, want[i].Cell, got[i].Cell, "move %d", i+1)
		assert.True(tb, want[i].At.Equal(got[i].At), "move %d at %v, want %v", i+1, got[i].At, want[i].At)
	}
}

// TestMigrationClearsFinishedClocks: the release before engine/game left
// the last turn's clock and a standing draw offer in a game that ended by
// resignation; opening the file clears them, so the game reads back.
func TestMigrationClearsFinishedClocks(t *testing.T) {
	path := mustCopyV1(t)
	// Game 2 as that release stored a resignation with a clock running, a
	// reminder sent and a draw offer standing.
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketFinished)
		f := new(finishedRecord)
		require.NoError(t, decode(b.Get(finishedKey(guild, 2)), f))
		f.MoveTime, f.Deadline, f.Reminders = 72*time.Hour, t0.Add(75*time.Hour), 1
		f.DrawOffer = &game.DrawOffer{By: engine.Red, Ply: 2}
		return put(b, finishedKey(guild, 2), f)
	}))
	require.NoError(t, db.Close())

	s := mustOpenPath(t, path, Options{})
	f, err := s.FinishedGame(t.Context(), guild, 2)
	require.NoError(t, err, "the finished game reads back")
	assert.Equal(t, game.Resigned, f.Result().Ending)
	assert.Zero(t, f.Deadline())
	assert.Zero(t, f.Reminders())
	assert.Nil(t, f.DrawOffer())
	assert.Equal(t, 72*time.Hour, f.MoveTime(), "the rest is kept")
	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path))
}
