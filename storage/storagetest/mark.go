package storagetest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testLeaderboardFrom: paging from a mark, forwards and backwards, on the
// all-time and the season ladders, gives the pages that offsets give; a
// mark made before its player moved keeps its place; a mark of a player
// with no profile there, a season that is none, a limit that is not
// positive are refused.
func testLeaderboardFrom(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	var players []game.Player
	for i := range 9 {
		players = append(players, game.Player{UserID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("p%d", i)})
	}
	// A round of games where the lower number wins most: ratings spread,
	// some equal (ties by games and name).
	at := t0
	for i := range players {
		for j := i + 1; j < len(players); j += 2 {
			mustGame(t, s, players[i], players[j], (i+j)%5 == 0, at)
			at = at.Add(time.Minute)
		}
	}
	season := rating.SeasonOf(t0)
	boards := []struct {
		name   string
		season storage.Season
	}{{"all-time", 0}, {"season", season}}
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			all := wholeLadder(t, s, b.season)
			require.Len(t, all, len(players))
			const limit = 4
			for i := 0; i+1 < len(all); i++ { // after each profile
				page, total, err := s.LeaderboardFrom(t.Context(), guild, b.season, storage.Human, storage.MarkOf(&all[i]), false, limit)
				require.NoError(t, err)
				assert.Equal(t, len(all), total)
				assert.Equal(t, all[i+1:min(i+1+limit, len(all))], page, "after %d", i)
			}
			for i := 1; i < len(all); i++ { // before each profile
				page, _, err := s.LeaderboardFrom(t.Context(), guild, b.season, storage.Human, storage.MarkOf(&all[i]), true, limit)
				require.NoError(t, err)
				assert.Equal(t, all[max(i-limit, 0):i], page, "before %d", i)
			}
			page, _, err := s.LeaderboardFrom(t.Context(), guild, b.season, storage.Human, storage.MarkOf(&all[len(all)-1]), false, limit)
			require.NoError(t, err)
			assert.Empty(t, page, "nothing after the last")

			stranger := all[0]
			stranger.UserID = "no such player"
			_, _, err = s.LeaderboardFrom(t.Context(), guild, b.season, storage.Human, storage.MarkOf(&stranger), false, limit)
			assert.ErrorIs(t, err, storage.ErrNotFound)
			_, _, err = s.LeaderboardFrom(t.Context(), guild, b.season, storage.AI, storage.MarkOf(&all[0]), false, limit)
			assert.ErrorIs(t, err, storage.ErrNotFound, "a player of another ladder")
			_, _, err = s.LeaderboardFrom(t.Context(), guild, b.season, storage.Human, storage.MarkOf(&all[0]), false, 0)
			assert.ErrorIs(t, err, storage.ErrInvalid)
		})
	}
	_, _, err := s.LeaderboardFrom(t.Context(), guild, -1, storage.Human, storage.MarkOf(&wholeLadder(t, s, 0)[0]), false, 4)
	assert.ErrorIs(t, err, storage.ErrInvalid)

	// The middle player's mark, then it wins twice: the page after the
	// mark is the ranks below where it was, not where it is.
	before := wholeLadder(t, s, 0)
	mid := before[len(before)/2]
	old := storage.MarkOf(&mid)
	player := storage.Player(mid.UserID, mid.Name)
	mustGame(t, s, player, players[len(players)-1], false, at)
	mustGame(t, s, player, players[len(players)-2], false, at.Add(time.Minute))
	after := wholeLadder(t, s, 0)
	var want []storage.Profile
	for _, p := range after {
		if bytes.Compare(p.RankKey(), old.RankKey(&mid)) > 0 && len(want) < 3 {
			want = append(want, p)
		}
	}
	page, _, err := s.LeaderboardFrom(t.Context(), guild, 0, storage.Human, old, false, 3)
	require.NoError(t, err)
	assert.Equal(t, want, page)
	require.NotEmpty(t, want)
}

// wholeLadder returns the human ladder of the test guild of a season
// (zero: all-time).
func wholeLadder(tb testing.TB, s Store, season storage.Season) []storage.Profile {
	tb.Helper()
	read := func() ([]storage.Profile, int, error) {
		return s.Leaderboard(tb.Context(), guild, storage.Human, 0, 1000)
	}
	if season != 0 {
		read = func() ([]storage.Profile, int, error) {
			return s.SeasonLeaderboard(tb.Context(), guild, season, storage.Human, 0, 1000)
		}
	}
	all, total, err := read()
	require.NoError(tb, err)
	require.Len(tb, all, total)
	return all
}
