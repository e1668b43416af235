package main

import (
	"bytes"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// TestRunPostgres runs kulamibot on a PostgreSQL database: it plays as on
// bbolt, logs where its database is without the DSN's secrets, refuses a
// bbolt backup and leaves what it stored in the database.
func TestRunPostgres(t *testing.T) {
	dc := discordtest.New(t)
	games := dc.AddChannel("games")
	alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
	dsn := pgtest.Schema(t)
	e := fakeEnv(dc, filepath.Join(t.TempDir(), "unused.db"), map[string]string{
		"KULAMI_STORAGE_BACKEND": "postgres",
		"KULAMI_STORAGE_DSN":     dsn,
		"KULAMI_STORAGE_PATH":    "",
	})

	cancel, done, stderr := startBot(t, e)
	dc.WaitReady(t)

	i := challenge(dc, games.ID, alice, bob)
	dc.SendInteraction(i)
	assert.Contains(t, dc.WaitResponse(t, i.ID).Content, "Challenge sent to bob")

	var out bytes.Buffer
	assert.Equal(t, 1, run(t.Context(), []string{"backup", "copy.db"}, e, &out, &out))
	assert.Contains(t, out.String(), `storage.backend is "postgres": back up PostgreSQL database test on`)
	assert.Contains(t, out.String(), "with pg_dump, or copy it into a file with kulamibot migrate --to copy.db")

	cancel()
	waitExit(t, done, stderr.String)
	assert.Contains(t, stderr.String(), "database=\"PostgreSQL database test on")

	s, err := postgres.Open(dsn, storage.Options{})
	require.NoError(t, err)
	defer s.Close()
	c, err := s.Challenge(t.Context(), games.ID)
	require.NoError(t, err, "the challenge is in the database")
	assert.Equal(t, bob.ID, c.To.UserID)
}

// TestRunWaitsForPostgres: kulamibot started while its PostgreSQL server
// cannot be reached waits for it, saying so once per attempt, and then
// stops with a message that names the server's address.
func TestRunWaitsForPostgres(t *testing.T) {
	addr := pgtest.FreeAddr(t)
	e := map[string]string{
		"KULAMI_STORAGE_BACKEND":      "postgres",
		"KULAMI_STORAGE_DSN":          "postgres://kulami:secret@" + addr + "/kulami?sslmode=disable",
		"KULAMI_STORAGE_CONNECT_WAIT": "1s",
	}
	maps.Copy(e, minimal)
	var stdout, stderr bytes.Buffer
	start := time.Now()
	assert.Equal(t, 1, run(t.Context(), nil, env(e), &stdout, &stderr))
	assert.Less(t, time.Since(start), 20*time.Second, "its connect wait of 1 s, not the default's 30 s (a bound no machine's load reaches)")
	assert.Contains(t, stderr.String(), "waiting for PostgreSQL at "+addr+": ")
	assert.Contains(t, stderr.String(), "kulamibot: open PostgreSQL database kulami on 127.0.0.1:")
	assert.Contains(t, stderr.String(), "PostgreSQL at "+addr+" cannot be reached (waited 1s)")
	assert.NotContains(t, stderr.String(), "secret")
}
