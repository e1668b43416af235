package storage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/tournament"
)

// TestMigrationAddsTournaments: a file of the first release opens at the
// current schema and takes tournaments.
func TestMigrationAddsTournaments(t *testing.T) {
	path := mustCopyV1(t)
	s := mustOpenPath(t, path, Options{})
	tn, err := tournament.New(tournament.Settings{Name: "Swiss", Rounds: 2, DaysPerRound: 1, MaxPlayers: 4}, "100", t0)
	require.NoError(t, err)
	st := &Tournament{GuildID: guild, ChannelID: "lobby", Changed: t0, Tournament: tn}
	require.NoError(t, s.CreateTournament(t.Context(), st))
	got, err := s.Tournament(t.Context(), guild, st.ID)
	require.NoError(t, err)
	assert.Equal(t, "Swiss", got.Settings().Name)
	assert.True(t, got.Wake().IsZero(), "it starts when full")
	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path))
}

// TestTournamentKey: a tournament's key reads back; a key without an ID
// is refused.
func TestTournamentKey(t *testing.T) {
	g, id, err := ParseTournamentKey(TournamentKey("123/4", 56))
	require.NoError(t, err)
	assert.Equal(t, "123/4", g)
	assert.Equal(t, uint64(56), id)
	for _, k := range []string{"", "123", "123/", "123/x"} {
		_, _, err := ParseTournamentKey(k)
		assert.ErrorIs(t, err, ErrInvalid, k)
	}
}
