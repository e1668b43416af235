package storage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMigrationAddsReviews: a file of schema version 2 (testdata/v1.db
// migrated one step) gets the bucket of reviews when it is opened, and
// its finished games can be reviewed.
func TestMigrationAddsReviews(t *testing.T) {
	path := mustCopyV1(t)
	s := mustOpenPath(t, path, Options{})
	require.NoError(t, s.SaveReview(t.Context(), guild, 2, []byte(`{"version":1}`)), "a finished game of the old file takes a review")
	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path))
}
