package pgtest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartCluster starts a server of the tests' own from this machine's
// binaries, whatever server the other tests use, and stops it.
func TestStartCluster(t *testing.T) {
	l := systemLookups()
	l.getenv = func(string) string { return "" }
	l.answers = func(string) bool { return false }
	c := choose(l)
	if c.skip != "" {
		if os.Getenv("KULAMI_REQUIRE_POSTGRES") != "" {
			t.Fatal(c.skip)
		}
		t.Skip(c.skip)
	}
	cl, err := startCluster(c)
	require.NoError(t, err)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, cl.dsn)
	require.NoError(t, err)
	var db string
	require.NoError(t, conn.QueryRow(ctx, "SELECT current_database()").Scan(&db))
	assert.Equal(t, "test", db)
	require.NoError(t, conn.Close(ctx))

	require.NoError(t, cl.stop())
	assert.NoDirExists(t, cl.dir, "its folder is removed")
	_, err = pgx.Connect(ctx, cl.dsn)
	assert.Error(t, err, "it no longer answers")
}

// TestStartClusterFails: a server that cannot start says why, with what
// its program printed, and leaves no folder behind.
func TestStartClusterFails(t *testing.T) {
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "initdb"), []byte("#!/bin/sh\necho 'initdb: disk full' >&2\nexit 1\n"), 0o755))
	_, err := startCluster(choice{bin: bin})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "initdb: disk full")
	dir := regexp.MustCompile(`in (\S+kulami-pgtest-\d+)`).FindStringSubmatch(err.Error())
	require.Len(t, dir, 2, "the message names the folder: %v", err)
	assert.NoDirExists(t, dir[1])
}
