package storage_test

import (
	"testing"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// TestOldClocks: a bbolt file written by the release before clock kinds
// reads its 5-minute game and challenge as per move.
func TestOldClocks(t *testing.T) {
	s := mustOpen(t, storage.Options{})
	storagetest.OldClocks(t, s, storage.BoltRows{S: s})
}
