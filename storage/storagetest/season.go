package storagetest

import (
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seasonOf returns the season of the text "2026-Q4".
func seasonOf(tb testing.TB, text string) storage.Season {
	tb.Helper()
	var s storage.Season
	require.NoError(tb, s.UnmarshalText([]byte(text)))
	return s
}

// seasonBoard returns the whole human ladder of a season of the test
// guild, by name.
func seasonBoard(tb testing.TB, s Store, season storage.Season) []storage.Profile {
	tb.Helper()
	page, total, err := s.SeasonLeaderboard(tb.Context(), guild, season, storage.Human, 0, 10)
	require.NoError(tb, err)
	require.Len(tb, page, total)
	return page
}

// names returns the names of the profiles, in order.
func names(ps []storage.Profile) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// testSeasonLadders: a finished game counts on the all-time ladder and
// on the ladder of the season (calendar quarter, UTC) it ended in, in
// the same commit; each season starts every player afresh.
func testSeasonLadders(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	q4, q1 := seasonOf(t, "2026-Q4"), seasonOf(t, "2027-Q1")
	lastOfQ4 := time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)
	newYear := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

	mustGame(t, s, alice, bob, false, t0)                                         // Q4: alice beats bob
	mustGame(t, s, bob, carol, false, lastOfQ4)                                   // Q4: bob beats carol, a second before the new year
	f := mustGame(t, s, carol, alice, false, newYear)                             // Q1: carol beats alice at midnight UTC
	mustCreate(t, s, "aborted", alice, carol)                                     //
	mustFinish(t, s, "aborted", game.Aborted, engine.Red, newYear.Add(time.Hour)) // counts nowhere

	assert.Equal(t, []string{"alice", "bob", "Carol"}, names(seasonBoard(t, s, q4)))
	winner, loser := rating.Rate(rating.New(), rating.New(), rating.Win)
	q1Board := seasonBoard(t, s, q1)
	require.Equal(t, []string{"Carol", "alice"}, names(q1Board), "only who played in the season")
	assert.Equal(t, winner, q1Board[0].Rating, "a fresh start: carol's first game of the season is rated from rating.New")
	assert.Equal(t, loser, q1Board[1].Rating)
	assert.Equal(t, storage.Tally{Losses: 1}, q1Board[1].Tally, "the season counts its own games")
	assert.Equal(t, q1, q1Board[0].Season)
	assert.Equal(t, storage.ProfileID(carol), q1Board[0].UserID)

	allTime, err := s.Profile(t.Context(), guild, alice.UserID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, storage.Tally{Wins: 1, Losses: 1}, allTime.Tally, "ratings carry over on the all-time ladder")
	assert.Zero(t, allTime.Season)
	assert.Equal(t, f.Ratings[engine.Black].After, allTime.Rating, "the game's rating change is the all-time one")
	assert.NotEqual(t, allTime.Rating, q1Board[1].Rating)

	empty, total, err := s.SeasonLeaderboard(t.Context(), guild, q4-1, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total)
	assert.Empty(t, empty)
	_, total, err = s.SeasonLeaderboard(t.Context(), "another guild", q4, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total, "seasons are per guild")
	_, total, err = s.SeasonLeaderboard(t.Context(), guild, q4, storage.AI, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total, "and per ladder")

	page, total, err := s.SeasonLeaderboard(t.Context(), guild, q4, storage.Human, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, 3, total)
	assert.Equal(t, []string{"bob"}, names(page))
}

// testSeasonAILadder: games against the computer count on the AI ladder
// of their season.
func testSeasonAILadder(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustGame(t, s, alice, hardAI, false, t0)
	page, total, err := s.SeasonLeaderboard(t.Context(), guild, rating.SeasonOf(t0), storage.AI, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	assert.Equal(t, []string{"alice", hardAI.Name}, names(page))
	_, total, err = s.SeasonLeaderboard(t.Context(), guild, rating.SeasonOf(t0), storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total)
}

// testSeasonLeaderboardRefuses: a season that is none, a limit that is
// not positive or a negative offset is refused.
func testSeasonLeaderboardRefuses(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	for _, tt := range []struct {
		name          string
		season        storage.Season
		offset, limit int
	}{
		{"no season", 0, 0, 10},
		{"zero limit", rating.SeasonOf(t0), 0, 0},
		{"negative offset", rating.SeasonOf(t0), -1, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := s.SeasonLeaderboard(t.Context(), guild, tt.season, storage.Human, tt.offset, tt.limit)
			assert.ErrorIs(t, err, storage.ErrInvalid)
		})
	}
}

// testSeasonChannels: the guilds that chose a channel for the seasons'
// podiums, with the last season dealt with; an unusable channel ID is
// refused.
func testSeasonChannels(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	none, err := s.SeasonChannels(t.Context())
	require.NoError(t, err)
	assert.Empty(t, none)
	q4 := seasonOf(t, "2026-Q4")
	for _, g := range []string{"300", "100", "200"} {
		_, err := s.UpdateGuildSettings(t.Context(), g, func(gs *storage.GuildSettings) error {
			gs.Hints = true
			if g != "200" {
				gs.SeasonChannel, gs.SeasonPosted = "chan-"+g, q4
			}
			return nil
		})
		require.NoError(t, err)
	}
	got, err := s.SeasonChannels(t.Context())
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "100", got[0].GuildID)
	assert.Equal(t, "300", got[1].GuildID)
	assert.Equal(t, "chan-300", got[1].Settings.SeasonChannel)
	assert.Equal(t, q4, got[1].Settings.SeasonPosted)
	assert.True(t, got[1].Settings.Hints)

	_, err = s.UpdateGuildSettings(t.Context(), "100", func(gs *storage.GuildSettings) error {
		gs.SeasonChannel = "bad\x00id"
		return nil
	})
	assert.ErrorIs(t, err, storage.ErrInvalid)
	g, err := s.GuildSettings(t.Context(), "100")
	require.NoError(t, err)
	assert.Equal(t, "chan-100", g.SeasonChannel, "nothing stored")
}
