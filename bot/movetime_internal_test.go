package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// TestBoardSaysTheClockKind: in every language, the board of a "10m"
// game says its clock is for the whole game and what the other player's
// clock holds, while a "5m" game of an earlier release, read back without
// a kind, says 5 minutes per move.
func TestBoardSaysTheClockKind(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	players := [2]game.Player{{UserID: "1", Name: "alice"}, {UserID: "2", Name: "bob"}}
	whole, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, Players: players,
		MoveTime: 10 * time.Minute, Kind: game.WholeGame}, now)
	require.NoError(t, err)
	old, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, Players: players, MoveTime: 5 * time.Minute}, now)
	require.NoError(t, err)
	s := old.State()
	s.Kind = 0 // as an earlier release stored it
	old, err = game.Restore(s)
	require.NoError(t, err)
	for _, l := range i18n.Langs() {
		t.Run(l.Name(), func(t *testing.T) {
			text := boardText(l, &storage.Game{ID: 1, Game: whole}, new(whole.Position()), now, [2]time.Time{})
			assert.Contains(t, text, l.T("move_time.whole_game", "Time", l.N("time.minutes", 10)))
			assert.Contains(t, text, l.N("time.minutes", 10), "the other clock holds all of it")
			text = boardText(l, &storage.Game{ID: 2, Game: old}, new(old.Position()), now, [2]time.Time{})
			assert.Contains(t, text, l.T("move_time.board_per_move", "Clock", l.T("move_time.per_move", "Time", l.N("time.minutes", 5))))
			assert.NotContains(t, text, l.T("move_time.whole_game", "Time", l.N("time.minutes", 5)))
		})
	}
}

// TestRecordClockTag: an exported record names a clock for the whole
// game in the form the bot reads ("10m", "5m+10s"), and a clock per move
// not at all, so that a MoveTime tag never describes a per-move clock.
func TestRecordClockTag(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ typed, tag string }{
		{"10m", `[MoveTime "10m"]`},
		{"5m+10s", `[MoveTime "5m+10s"]`},
		{"3d", ""},
	} {
		t.Run(tt.typed, func(t *testing.T) {
			m, err := game.ParseMoveTime(tt.typed)
			require.NoError(t, err)
			g, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, MoveTime: m.Start, Increment: m.Increment, Kind: m.Kind,
				Players: [2]game.Player{{UserID: "1", Name: "alice"}, {UserID: "2", Name: "bob"}}}, now)
			require.NoError(t, err)
			text := withDays(g.Record().String(), g)
			if tt.tag == "" {
				assert.NotContains(t, text, "MoveTime")
				return
			}
			assert.Contains(t, text, tt.tag)
			rec, err := engine.ParseRecord(text)
			require.NoError(t, err, "every reader of records still reads it")
			tag, ok := rec.Tag("MoveTime")
			require.True(t, ok)
			back, err := game.ParseMoveTime(tag)
			require.NoError(t, err)
			assert.Equal(t, m, back, "the tag reads back as the clock")
		})
	}
}
