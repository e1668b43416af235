package storage_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// TestPlayerOfProfileID checks that Player undoes ProfileID: a profile
// names a person or the computer at its level.
func TestPlayerOfProfileID(t *testing.T) {
	for _, p := range []game.Player{
		{UserID: "123456789012345678", Name: "alice"},
		{UserID: "999", Name: "Kulami AI (hard)", AI: "hard"},
	} {
		t.Run(p.Name, func(t *testing.T) {
			got := storage.Player(storage.ProfileID(p), p.Name)
			assert.Equal(t, p.IsAI(), got.IsAI())
			assert.Equal(t, p.AI, got.AI)
			assert.Equal(t, p.Name, got.Name)
			if !p.IsAI() {
				assert.Equal(t, p.UserID, got.UserID)
			}
		})
	}
}
