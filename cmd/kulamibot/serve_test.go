package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestLoggerRedactsTokens checks that no interaction token reaches the
// logs, whatever logs an error with a webhook or callback URL in it.
func TestLoggerRedactsTokens(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			var out discordtest.LogBuffer
			log := newLogger(LogConfig{Level: "info", Format: format}, &out)
			err := fmt.Errorf("edit the board: %w", errors.New(`Patch "https://discord.com/api/v9/webhooks/1/tok3n/messages/@original": EOF`))
			log.Error("interaction failed at /interactions/2/t0ken/callback", "err", err)
			assert.NotContains(t, out.String(), "tok3n")
			assert.NotContains(t, out.String(), "t0ken")
			assert.Contains(t, out.String(), "/webhooks/1/REDACTED/messages/@original")
		})
	}
}
