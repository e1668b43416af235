package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

func TestParseStart(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{"when full", time.Time{}},
		{"  When Full ", time.Time{}},
		{"full", time.Time{}},
		{"3d", now.Add(72 * time.Hour)},
		{"in 12h", now.Add(12 * time.Hour)},
		{"90m", now.Add(90 * time.Minute)},
		{"2026-12-01 18:00", time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01T18:00", time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01T18:00:00+01:00", time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC)},
		{"2026-12-01", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{"<t:1796227200:f>", time.Unix(1796227200, 0).UTC()},
		{"<t:1796227200>", time.Unix(1796227200, 0).UTC()},
	} {
		got, err := parseStart(tc.in, now)
		require.NoError(t, err, tc.in)
		assert.True(t, tc.want.Equal(got), "%q: %v, want %v", tc.in, got, tc.want)
	}
	for _, bad := range []string{"tomorrow", "0d", "3w", "12345d", "d", "2026-13-01", "<t:abc>", "<t:12x:f>", "in", "-3d", "3.5d"} {
		_, err := parseStart(bad, now)
		assert.ErrorIs(t, err, errBadStart, bad)
	}
}

// FuzzParseStart: whatever is typed, parseStart returns a time or
// errBadStart, never panics; a delay is never before now.
func FuzzParseStart(f *testing.F) {
	for _, s := range []string{"", "when full", "3d", "in 12h", "2026-12-01 18:00", "<t:1796227200:f>", "<t:", "999d", "in in 3d"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseStart(s, now)
		if err != nil {
			assert.ErrorIs(t, err, errBadStart)
			assert.True(t, got.IsZero())
			return
		}
		if d, ok := parseDelay(s); ok {
			assert.True(t, got.Equal(now.Add(d)), "%q", s)
			assert.Positive(t, d)
		}
	})
}

// playedTo returns a game on the square board between a and b (a first)
// with random moves played until left holes are left to fill, or the game
// would end.
func playedTo(t *testing.T, left int, seed uint64) *storage.Game {
	t.Helper()
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Basic, First: engine.Red,
		Players: [2]game.Player{{UserID: "100", Name: "a"}, {UserID: "200", Name: "b"}}}, now)
	require.NoError(t, err)
	r := engine.NewRand(seed)
	for engine.MaxPly-gg.Ply() > left {
		p := gg.Position()
		c := p.Layout().Cell(r.Pick(p.Legal()))
		require.NoError(t, gg.Play(gg.ToMove(), gg.Ply(), c, now))
		if gg.Over() {
			t.Skipf("the random game ended at ply %d", gg.Ply())
		}
	}
	return &storage.Game{GuildID: "1", ChannelID: "2", Game: gg}
}

// TestJudgedBy: the words of each reason of an adjudication say by what,
// from the reason the tournament keeps.
func TestJudgedBy(t *testing.T) {
	g := playedTo(t, 40, 7)
	assert.Contains(t, judgedBy(i18n.English, tournament.ReasonSolver, g), "exact solver")
	words := judgedBy(i18n.English, tournament.ReasonHard+"56%", g)
	assert.Contains(t, words, "hard computer's evaluation")
	assert.Contains(t, words, "56% to win for <@"+g.Player(g.ToMove()).UserID+">")
	assert.Contains(t, judgedBy(i18n.English, tournament.ReasonGone, g), "a game that was gone")
}
