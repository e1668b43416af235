package postgres

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
)

// TestRecomputableCommitsUnsynced: a write transaction marked
// Recomputable (a resume's batch) runs with synchronous_commit off, and
// only it: the next transaction on the same connection commits durably
// again, and what the unsynced one wrote is committed.
func TestRecomputableCommitsUnsynced(t *testing.T) {
	s := mustOpenConfig(t, "kulami_test_recomputable", Config{PoolMax: 1})
	mustCreateGame(t, s, "c1")
	b := backend{s.pool, hung}
	setting := func(recomputable bool) string {
		var got string
		require.NoError(t, b.Update(t.Context(), func(st storage.Tx) error {
			if recomputable {
				st.Recomputable()
			}
			g, _, err := st.Game("c1")
			if err != nil {
				return err
			}
			g.BoardMessageID = "board of a recomputable write"
			if err := st.PutGame(g, time.Time{}); err != nil {
				return err
			}
			return st.(*tx).queryRow(`SHOW synchronous_commit`).Scan(&got)
		}))
		return got
	}
	for _, tt := range []struct {
		name         string
		recomputable bool
		want         string
	}{
		{"a durable write", false, "on"},
		{"a recomputable write", true, "off"},
		{"the next write on its connection", false, "on"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, setting(tt.recomputable))
		})
	}
	g, err := s.Game(t.Context(), "c1")
	require.NoError(t, err)
	assert.Equal(t, "board of a recomputable write", g.BoardMessageID, "committed")
}
