package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// TestMigrationAddsVacations: a file of a release before vacations
// (testdata/v1.db) gets their bucket when it is opened: a player of one of
// its games goes on vacation, in the same commit as their game, and the
// vacation wakes the scheduler.
func TestMigrationAddsVacations(t *testing.T) {
	path := mustCopyV1(t)
	s := mustOpenPath(t, path, Options{})
	defer s.Close()
	g, err := s.Game(t.Context(), "c-play")
	require.NoError(t, err)
	user := g.Player(g.ToMove()).UserID
	start := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	v, games, err := s.UpdateVacation(t.Context(), user, func(v *Vacation, games []*Game) error {
		v.Vacation = game.NewVacation(start, game.VacationCap)
		if err := v.Start(start, game.VacationCap); err != nil {
			return err
		}
		for _, g := range games {
			c, _ := g.Seat(user)
			if err := g.Away(c, start); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.NotEmpty(t, games, "the old file's games are the player's")
	next, ok, err := s.NextWake(t.Context())
	require.NoError(t, err)
	assert.True(t, ok && !next.After(v.Wake()), "the vacation is in the wake index")
}
