package game_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/engine/game"
)

func TestIsAI(t *testing.T) {
	assert.False(t, alice.IsAI())
	assert.True(t, computer.IsAI())
	assert.True(t, game.Player{AI: "easy"}.IsAI())
}

func TestCheckID(t *testing.T) {
	tests := []struct {
		name string
		id   string
		err  string // in the error; "" for a valid ID
	}{
		{"snowflake", "123456789012345678", ""},
		{"one byte", "x", ""},
		{"100 bytes", strings.Repeat("9", 100), ""},
		{"not ASCII", "ünïcode", ""},
		{"empty", "", "user ID is empty"},
		{"101 bytes", strings.Repeat("9", 101), "user ID is longer than 100 bytes"},
		{"zero byte", "12\x003", `user ID "12\x003" holds a zero byte`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := game.CheckID("user ID", tt.id)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, game.ErrInvalid)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}
