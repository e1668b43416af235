package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// mustOpenDSN opens a store on dsn, closed when the test ends.
func mustOpenDSN(tb testing.TB, dsn string) *Store {
	tb.Helper()
	s, err := OpenConfig(dsn, storage.Options{}, patient)
	require.NoError(tb, err)
	tb.Cleanup(func() { s.Close() })
	return s
}

// TestTwoProcessesOneMove: two stores on one database, as two processes
// would have, both take a move against the same board at once; the row
// lock puts one after the other, so one move is stored and the other is
// refused as stale, whichever comes first.
func TestTwoProcessesOneMove(t *testing.T) {
	dsn := pgtest.Schema(t)
	stores := [2]*Store{mustOpenDSN(t, dsn), mustOpenDSN(t, dsn)}
	alice, bob := game.Player{UserID: "100", Name: "alice"}, game.Player{UserID: "200", Name: "bob"}
	for round := range 20 {
		channel := "c" + string(rune('a'+round))
		gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, Players: [2]game.Player{alice, bob}}, t0)
		require.NoError(t, err)
		require.NoError(t, stores[0].CreateGame(t.Context(), &storage.Game{GuildID: "1", ChannelID: channel, Game: gg}))

		cells := [2]engine.Cell{mustCell(t, "D4"), mustCell(t, "A1")}
		var wg sync.WaitGroup
		var errs [2]error
		start := make(chan struct{})
		for i, s := range stores {
			wg.Go(func() {
				<-start
				_, errs[i] = s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
					return g.Play(engine.Red, 0, cells[i], t0)
				})
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
			} else {
				assert.ErrorIs(t, err, game.ErrStale)
			}
		}
		assert.Equal(t, 1, won, "exactly one of the two moves is stored")
		g, err := stores[1].Game(t.Context(), channel)
		require.NoError(t, err)
		assert.Equal(t, 1, g.Ply())
	}
}

// TestFirstProfilesAtOnce: two games that give the same player their first
// profile finish at once in two processes; both count (one transaction
// conflicts on the new row and runs again), none is lost.
func TestFirstProfilesAtOnce(t *testing.T) {
	dsn := pgtest.Schema(t)
	stores := [2]*Store{mustOpenDSN(t, dsn), mustOpenDSN(t, dsn)}
	alice := game.Player{UserID: "100", Name: "alice"}
	for round := range 10 {
		guild := "g" + string(rune('a'+round))
		for i, s := range stores {
			opp := game.Player{UserID: string(rune('2'+i)) + "00", Name: "opponent"}
			gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, Players: [2]game.Player{alice, opp}}, t0)
			require.NoError(t, err)
			require.NoError(t, s.CreateGame(t.Context(), &storage.Game{GuildID: guild, ChannelID: guild + string(rune('0'+i)), Game: gg}))
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, s := range stores {
			wg.Go(func() {
				<-start
				_, err := s.UpdateGame(t.Context(), guild+string(rune('0'+i)), func(g *storage.Game) error { return g.Resign(engine.Black, t0) })
				assert.NoError(t, err)
			})
		}
		close(start)
		wg.Wait()
		p, err := stores[0].Profile(t.Context(), guild, alice.UserID, storage.Human)
		require.NoError(t, err)
		assert.Equal(t, 2, p.Wins, "both wins count")
	}
}

// TestRetryable: only the refusals that a new attempt can get past are
// retried.
func TestRetryable(t *testing.T) {
	s := mustOpen(t, storage.Options{})
	ctx := context.Background()
	_, err := s.pool.Exec(ctx, `INSERT INTO alive (id, at) VALUES (1, 0)`)
	require.NoError(t, err)
	_, err = s.pool.Exec(ctx, `INSERT INTO alive (id, at) VALUES (1, 0)`)
	assert.True(t, retryable(err), "a unique violation")
	_, err = s.pool.Exec(ctx, `SELECT * FROM no_such_table`)
	assert.False(t, retryable(err))
	assert.False(t, retryable(pgx.ErrNoRows))
	assert.False(t, retryable(errors.New("boom")))
}
