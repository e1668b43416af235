package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/internal/fixture"
	"github.com/kulami/kulami/storage/postgres/pgtest"
	"github.com/kulami/kulami/storage/storagetest"
)

// appliedVersions returns the versions recorded in kulami_migrations.
func appliedVersions(tb testing.TB, s *Store) []int {
	tb.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT version FROM kulami_migrations ORDER BY version`)
	require.NoError(tb, err)
	v, err := pgx.CollectRows(rows, pgx.RowTo[int])
	require.NoError(tb, err)
	return v
}

func TestMigrationsAppliedOnce(t *testing.T) {
	dsn := pgtest.Schema(t)
	// Processes that start at once on a new database take turns.
	var wg sync.WaitGroup
	stores := make([]*Store, 4)
	for i := range stores {
		wg.Go(func() {
			s, err := Open(dsn, storage.Options{})
			if assert.NoError(t, err) {
				stores[i] = s
				t.Cleanup(func() { s.Close() })
			}
		})
	}
	wg.Wait()
	require.NotNil(t, stores[0])
	want := []int{0}
	for v := 1; v <= SchemaVersion(); v++ {
		want = append(want, v)
	}
	assert.Equal(t, want, appliedVersions(t, stores[0]), "every step once, and the lock row 0")

	s := mustOpenDSN(t, dsn)
	assert.Equal(t, want, appliedVersions(t, s), "a database at the current schema is left alone")
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	newer := SchemaVersion() + 4
	_, err := s.pool.Exec(context.Background(), `INSERT INTO kulami_migrations (version, name) VALUES ($1, 'future')`, newer)
	require.NoError(t, err)

	_, err = Open(dsn, storage.Options{})
	assert.ErrorIs(t, err, storage.ErrSchemaTooNew)
	assert.ErrorContains(t, err, fmt.Sprintf("the database has schema version %d, this kulamibot reads versions up to %d; upgrade kulamibot to use it", newer, SchemaVersion()))
}

func TestOpenRefuses(t *testing.T) {
	tests := []struct {
		name, dsn, msg string
	}{
		{"not a DSN", "postgres://a b:c", "the DSN cannot be read"},
		{"no server", "postgres://127.0.0.1:1/kulami?connect_timeout=2", "open PostgreSQL database kulami on 127.0.0.1"},
		{"no such database", pgtest.WithParam(t, pgtest.DSN(t), "dbname", "kulami_no_such_db"), `database "kulami_no_such_db" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The message, not the wait for a server that never comes
			// (TestOpenWaitsForServer): 30 s by default.
			_, err := OpenConfig(tt.dsn, storage.Options{}, Config{ConnectWait: time.Millisecond})
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

func TestMigrationsAreNumbered(t *testing.T) {
	steps, err := migrations()
	require.NoError(t, err)
	for i, m := range steps {
		assert.Equal(t, i+1, m.version, m.name)
		assert.NotEmpty(t, m.sql)
	}
}

// TestFailedMigrationChangesNothing: a step that fails leaves the database
// as it was (PostgreSQL's DDL is transactional), at the version before it,
// and Open says which step failed.
func TestFailedMigrationChangesNothing(t *testing.T) {
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	require.NoError(t, s.SetAlive(t.Context(), t0))

	files := fstest.MapFS{}
	steps, err := migrations()
	require.NoError(t, err)
	for _, m := range steps {
		files["migrations/"+m.name] = &fstest.MapFile{Data: []byte(m.sql)}
	}
	broken := fmt.Sprintf("%04d_broken.sql", len(steps)+1)
	files["migrations/"+broken] = &fstest.MapFile{Data: []byte("CREATE TABLE half_done (x integer); DROP TABLE alive; SELECT 1/0;")}
	saved := migrationFiles
	migrationFiles = files
	t.Cleanup(func() { migrationFiles = saved })

	_, err = Open(dsn, storage.Options{})
	assert.ErrorContains(t, err, fmt.Sprintf("migrate schema version %d to %d (%s): ERROR: division by zero", len(steps), len(steps)+1, broken))
	migrationFiles = saved
	applied := appliedVersions(t, s)
	assert.Equal(t, len(steps), applied[len(applied)-1], "the version is the one before the failed step")
	var n int
	require.NoError(t, s.pool.QueryRow(context.Background(), `SELECT count(*) FROM information_schema.tables WHERE table_name = 'half_done'`).Scan(&n))
	assert.Zero(t, n, "the failed step created nothing")
	down, _, err := s.BeginResume(t.Context(), t0.Add(time.Hour), time.Minute, 10)
	require.NoError(t, err, "the failed step dropped nothing")
	assert.Equal(t, time.Hour, down)
}

// seasonProfiles returns every season profile of s, by key.
func seasonProfiles(tb testing.TB, s *Store) map[string]storage.Profile {
	tb.Helper()
	out := map[string]storage.Profile{}
	require.NoError(tb, s.Export(tb.Context(), func(r storage.Record) error {
		if p, ok := storage.SeasonProfileRecords.Of(r); ok {
			_, k := r.Kind()
			out[k] = *p
		}
		return nil
	}))
	return out
}

// TestSeasonsFilledOnceAfterMigration: the mark that migration 0004
// leaves makes the first process that opens the database fill the
// seasons' ladders from the finished games, as counting each at its end
// did; processes that open it at once do it once between them.
func TestSeasonsFilledOnceAfterMigration(t *testing.T) {
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	storagetest.Fill(t, s)
	live := seasonProfiles(t, s)
	require.Len(t, live, 4)

	// The database as migration 0004 leaves one with finished games.
	_, err := s.pool.Exec(context.Background(), `DELETE FROM season_profiles; INSERT INTO season_rebuild VALUES (true)`)
	require.NoError(t, err)
	require.Empty(t, seasonProfiles(t, s))

	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			o, err := Open(dsn, storage.Options{})
			if assert.NoError(t, err) {
				o.Close()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, live, seasonProfiles(t, s), "filled once, as the games counted")
	var marks int
	require.NoError(t, s.pool.QueryRow(context.Background(), `SELECT count(*) FROM season_rebuild`).Scan(&marks))
	assert.Zero(t, marks)
}

// TestMigrationIndexesHistory: migration 0008 fills the opponent and the
// outcome of every history entry of a database of an earlier schema from
// its data, and counts its ladders, so that the head-to-head of every
// pair and the size of every ladder read as they did; migration 0009
// counts the seasons' ladders.
func TestMigrationIndexesHistory(t *testing.T) {
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	storagetest.Fill(t, s)
	players := []string{fixture.Alice.UserID, fixture.Bob.UserID, fixture.Carol.UserID, storage.ProfileID(fixture.HardAI)}
	headToHead := func(s *Store) map[string]storage.Tally {
		out := map[string]storage.Tally{}
		for _, a := range players {
			for _, b := range players {
				t2, err := s.HeadToHead(t.Context(), fixture.Guild, a, b)
				require.NoError(t, err)
				out[a+"-"+b] = t2
			}
		}
		return out
	}
	sizes := func(s *Store) map[storage.Ladder]int {
		out := map[storage.Ladder]int{}
		for _, ladder := range []storage.Ladder{storage.Human, storage.AI} {
			_, n, err := s.Leaderboard(t.Context(), fixture.Guild, ladder, 0, 1)
			require.NoError(t, err)
			out[ladder] = n
		}
		return out
	}
	// seasonSizes returns the size of every season's ladder of the guild
	// (migration 0009), by season and ladder.
	seasonSizes := func(s *Store) map[[2]int]int {
		rows, err := s.pool.Query(t.Context(), `SELECT DISTINCT season, ladder FROM season_profiles WHERE guild = $1`, fixture.Guild)
		require.NoError(t, err)
		boards, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (b [2]int32, err error) {
			var ladder int16
			err = row.Scan(&b[0], &ladder)
			b[1] = int32(ladder)
			return b, err
		})
		require.NoError(t, err)
		out := map[[2]int]int{}
		for _, b := range boards {
			_, n, err := s.SeasonLeaderboard(t.Context(), fixture.Guild, storage.Season(b[0]), storage.Ladder(b[1]), 0, 1)
			require.NoError(t, err)
			out[[2]int{int(b[0]), int(b[1])}] = n
		}
		return out
	}
	// bands returns the counts of the ladders' bands (migration 0010)
	// that are not empty.
	bands := func(s *Store) []string {
		rows, err := s.pool.Query(t.Context(), `SELECT guild, season, ladder, band, n FROM rank_bands WHERE n > 0 ORDER BY guild, season, ladder, band`)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
			var guild string
			var season int32
			var ladder int16
			var band []byte
			var n int64
			err := row.Scan(&guild, &season, &ladder, &band, &n)
			return fmt.Sprintf("%s/%d/%d/%x: %d", guild, season, ladder, band, n), err
		})
		require.NoError(t, err)
		return out
	}
	wantBands := bands(s)
	require.NotEmpty(t, wantBands, "the writes counted the bands")
	wantSeasons := seasonSizes(s)
	require.NotEmpty(t, wantSeasons, "the fixture's games count in a season")
	want, wantSizes := headToHead(s), sizes(s)
	require.Equal(t, map[storage.Ladder]int{storage.Human: 2, storage.AI: 2}, wantSizes)
	require.Equal(t, storage.Tally{Losses: 1}, want[storage.ProfileID(fixture.HardAI)+"-"+fixture.Bob.UserID], "bob beat the computer")
	_, err := s.pool.Exec(t.Context(), `ALTER TABLE history DROP COLUMN opponent, DROP COLUMN outcome; DROP TABLE resuming; DROP TABLE ladder_sizes;
		DROP TABLE season_ladder_sizes; DROP TABLE rank_bands; DELETE FROM kulami_migrations WHERE version >= 8`)
	require.NoError(t, err)
	s.Close()

	s = mustOpenDSN(t, dsn)
	assert.Equal(t, want, headToHead(s))
	assert.Equal(t, wantSizes, sizes(s))
	assert.Equal(t, wantSeasons, seasonSizes(s))
	assert.Equal(t, wantBands, bands(s), "the migration counts the bands the writes counted")
}

// TestMigrationCountsGuildGames: the migration that keeps each guild's
// count of active games counts those of a database of an earlier schema,
// so that /kulami games reads as before; the games started and ended
// after it keep the count.
func TestMigrationCountsGuildGames(t *testing.T) {
	steps, err := migrations()
	require.NoError(t, err)
	i := slices.IndexFunc(steps, func(m migration) bool { return strings.HasSuffix(m.name, "_guild_game_counts.sql") })
	require.NotEqual(t, -1, i, "the migration of the guilds' counts")
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	storagetest.Fill(t, s)
	list := func(s *Store) ([]uint64, int) {
		games, n, err := s.GuildGames(t.Context(), fixture.Guild, 100)
		require.NoError(t, err)
		var ids []uint64
		for _, g := range games {
			ids = append(ids, g.ID)
		}
		return ids, n
	}
	want, n := list(s)
	require.Len(t, want, 2, "the fixture's games going on")
	require.Equal(t, len(want), n)
	_, err = s.pool.Exec(t.Context(), fmt.Sprintf(`DROP TABLE guild_games; DELETE FROM kulami_migrations WHERE version >= %d`, steps[i].version))
	require.NoError(t, err)
	s.Close()

	s = mustOpenDSN(t, dsn)
	got, n := list(s)
	assert.Equal(t, want, got)
	assert.Equal(t, len(want), n, "counted by the migration")
	_, err = s.UpdateGame(t.Context(), "clock", func(g *storage.Game) error {
		return fixture.End(g, game.Aborted, engine.Red, fixture.T0.Add(time.Hour))
	})
	require.NoError(t, err)
	got, n = list(s)
	assert.Len(t, got, len(want)-1)
	assert.Equal(t, len(got), n, "a game's end counted after the migration")
}

// TestMigrationRecountsGuildGames: a count of a guild's games made wrong
// by the race of two starts in one channel (before starts inserted) is
// made the count of the guild's games again by the migration that
// recounts them.
func TestMigrationRecountsGuildGames(t *testing.T) {
	steps, err := migrations()
	require.NoError(t, err)
	i := slices.IndexFunc(steps, func(m migration) bool { return strings.HasSuffix(m.name, "_recount_guild_games.sql") })
	require.NotEqual(t, -1, i, "the migration that recounts the guilds' games")
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	storagetest.Fill(t, s)
	_, want, err := s.GuildGames(t.Context(), fixture.Guild, 100)
	require.NoError(t, err)
	require.Equal(t, 2, want, "the fixture's games going on")
	_, err = s.pool.Exec(t.Context(), fmt.Sprintf(`UPDATE guild_games SET n = n + 1 WHERE guild = '%s';
		DELETE FROM kulami_migrations WHERE version >= %d`, fixture.Guild, steps[i].version))
	require.NoError(t, err)
	_, wrong, err := s.GuildGames(t.Context(), fixture.Guild, 100)
	require.NoError(t, err)
	require.Greater(t, wrong, want, "the count made wrong, as the race left it")
	s.Close()

	s = mustOpenDSN(t, dsn)
	games, n, err := s.GuildGames(t.Context(), fixture.Guild, 100)
	require.NoError(t, err)
	assert.Len(t, games, want)
	assert.Equal(t, want, n, "counted again by the migration")
}

// TestMigrationFillsPlayerGames: the migration that names the players of
// each active game in its row fills them for a database of an earlier
// schema from the games' JSON, the computer's seat and a challenge's row
// left empty, so that each player's games are found as before; a game
// started after it is found too.
func TestMigrationFillsPlayerGames(t *testing.T) {
	steps, err := migrations()
	require.NoError(t, err)
	i := slices.IndexFunc(steps, func(m migration) bool { return strings.HasSuffix(m.name, "_player_games.sql") })
	require.NotEqual(t, -1, i, "the migration of the players' games")
	dsn := pgtest.Schema(t)
	s := mustOpenDSN(t, dsn)
	storagetest.Fill(t, s)
	users := []string{fixture.Alice.UserID, fixture.Bob.UserID, fixture.Carol.UserID, fixture.EasyAI.UserID}
	mine := func(s *Store) map[string][]string {
		out := map[string][]string{}
		for _, u := range users {
			games, err := s.PlayerGames(t.Context(), u)
			require.NoError(t, err)
			out[u] = []string{}
			for _, g := range games {
				out[u] = append(out[u], g.ChannelID)
			}
		}
		return out
	}
	want := mine(s)
	require.Equal(t, map[string][]string{fixture.Alice.UserID: {"clock"}, fixture.Bob.UserID: {"clock"}, fixture.Carol.UserID: {"ai"},
		fixture.EasyAI.UserID: {}}, want, "the fixture's games going on; none is the computer's, whose UserID is the bot's")
	_, err = s.pool.Exec(t.Context(), fmt.Sprintf(`ALTER TABLE active DROP COLUMN red_user, DROP COLUMN black_user;
		DELETE FROM kulami_migrations WHERE version >= %d`, steps[i].version))
	require.NoError(t, err)
	s.Close()

	s = mustOpenDSN(t, dsn)
	assert.Equal(t, want, mine(s), "filled by the migration")
	var filled int
	require.NoError(t, s.pool.QueryRow(t.Context(), `SELECT count(*) FROM active WHERE red_user IS NOT NULL OR black_user IS NOT NULL`).Scan(&filled))
	assert.Equal(t, 2, filled, "the games' rows, not the challenge's")
	mustCreateGame(t, s, "new") // alice and bob
	assert.Equal(t, []string{"clock", "new"}, mine(s)[fixture.Bob.UserID], "a game started after the migration")
}
