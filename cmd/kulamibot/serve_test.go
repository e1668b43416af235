package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
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

// TestShutdownOrder stops kulamibot while its scheduler sends a reminder
// that Discord is slow to take: it stops in order, each part after those
// that use it. The gateway stops first; the scheduler then finishes the
// reminder (marked as sent before it is sent, it would otherwise be lost)
// and records the time of the stop; then the database closes.
func TestShutdownOrder(t *testing.T) {
	dc := discordtest.New(t)
	games := dc.AddChannel("games")
	alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
	db := filepath.Join(t.TempDir(), "kulami.db")
	s, err := storage.Open(db, storage.Options{})
	require.NoError(t, err)
	g, err := game.New(game.Config{
		Layout: engine.Square(), First: engine.Red, MoveTime: 72 * time.Hour,
		Players: [2]game.Player{{UserID: alice.ID, Name: "alice"}, {UserID: bob.ID, Name: "bob"}},
	}, time.Now().Add(-40*time.Hour)) // its first reminder, at 36 hours, is due
	require.NoError(t, err)
	require.NoError(t, s.CreateGame(t.Context(), &storage.Game{GuildID: dc.GuildID(), ChannelID: games.ID, Game: g}))
	require.NoError(t, s.SetAlive(t.Context(), time.Now()), "the bot stopped just now: no outage to give back")
	require.NoError(t, s.Close())

	held := dc.Hold("POST", "/channels/{channel_id}/messages", 1)
	defer held.Release()
	cancel, done, stderr := startBot(t, fakeEnv(dc, db, nil))
	held.Wait(t) // the scheduler runs: its reminder waits for Discord, as long as the test says
	stopped := time.Now()
	cancel()
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "shutting down") }, hung, time.Millisecond, "the bot stops")
	held.Release() // Discord takes the reminder while the bot stops
	waitExit(t, done, stderr.String)

	var reminders []string
	for _, m := range dc.Messages(games.ID) {
		if strings.HasPrefix(m.Content, "⏰") {
			reminders = append(reminders, m.Content)
		}
	}
	assert.Len(t, reminders, 1, "the reminder the scheduler was sending went out")
	assert.NotContains(t, stderr.String(), "level=ERROR")
	s, err = storage.Open(db, storage.Options{})
	require.NoError(t, err)
	defer s.Close()
	var alive time.Time
	require.NoError(t, s.Export(t.Context(), func(r storage.Record) error {
		if t, ok := storage.AliveRecords.Of(r); ok {
			alive = *t
		}
		return nil
	}))
	assert.False(t, alive.Before(stopped), "the scheduler recorded the time of the stop before the database closed")
}
