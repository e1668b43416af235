package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

const day = 24 * time.Hour

// perMove is a clock of start per move.
func perMove(start time.Duration) game.MoveTime {
	return game.MoveTime{Start: start, Kind: game.PerMove}
}

// whole is a clock of start for the whole game, with the increment inc.
func whole(start, inc time.Duration) game.MoveTime {
	return game.MoveTime{Start: start, Increment: inc, Kind: game.WholeGame}
}

func TestParseMoveTime(t *testing.T) {
	tests := []struct {
		in   string
		want game.MoveTime
		out  string // String of the result
		err  error
	}{
		{"72h", perMove(3 * day), "3d", nil},
		{"3d", perMove(3 * day), "3d", nil},
		{"36h", perMove(36 * time.Hour), "36h", nil},
		{"90m", perMove(90 * time.Minute), "90m", nil},
		{"1h", perMove(time.Hour), "1h", nil},
		{"60m", perMove(time.Hour), "1h", nil},
		{"3600s", perMove(time.Hour), "1h", nil},
		{"3d+1d", whole(3*day, day), "3d+1d", nil},
		{"3d+12h", whole(3*day, 12*time.Hour), "3d+12h", nil},
		{"1d+24h", whole(day, day), "1d+1d", nil},
		{"60d", perMove(60 * day), "60d", nil},
		{"1m", whole(time.Minute, 0), "1m", nil},
		{"10m", whole(10*time.Minute, 0), "10m", nil},
		{"59m", whole(59*time.Minute, 0), "59m", nil},
		{"3599s", whole(3599*time.Second, 0), "3599s", nil},
		{"90s", whole(90*time.Second, 0), "90s", nil},
		{"60s", whole(time.Minute, 0), "1m", nil},
		{"5m+10s", whole(5*time.Minute, 10*time.Second), "5m+10s", nil},
		{"15m+10s", whole(15*time.Minute, 10*time.Second), "15m+10s", nil},
		{"3m+2s", whole(3*time.Minute, 2*time.Second), "3m+2s", nil},
		{"1m+1s", whole(time.Minute, time.Second), "1m+1s", nil},
		{"2h+60s", whole(2*time.Hour, time.Minute), "2h+1m", nil},
		{"", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"3", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"3w", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"10x", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"3D", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"10S", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{" 3d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"-3d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"+3d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"3d+", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"3d+1d+1d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"1.5d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"9999999d", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"5m+10", game.MoveTime{}, "", game.ErrMoveTimeForm},
		{"0d", game.MoveTime{}, "", game.ErrMoveTimeRange},
		{"61d", game.MoveTime{}, "", game.ErrMoveTimeRange},
		{"5s", game.MoveTime{}, "", game.ErrMoveTimeRange},
		{"59s", game.MoveTime{}, "", game.ErrMoveTimeRange},
		{"30s+1s", game.MoveTime{}, "", game.ErrMoveTimeRange},
		{"0d+1d", game.MoveTime{}, "", game.ErrMoveTimeRange},
		{"1d+2d", game.MoveTime{}, "", game.ErrIncrementRange},
		{"1m+61s", game.MoveTime{}, "", game.ErrIncrementRange},
		{"5m+0s", game.MoveTime{}, "", game.ErrIncrementRange},
		{"3d+0d", game.MoveTime{}, "", game.ErrIncrementRange},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := game.ParseMoveTime(tt.in)
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.out, got.String())
		})
	}
}

func FuzzParseMoveTime(f *testing.F) {
	for _, s := range []string{"72h", "3d", "3d+1d", "90m", "1d+24h", "0d", "61d", "3d+", "+", "1d+2d",
		"10m", "5m+10s", "90s", "3599s", "3600s", "5s", "10x", "5m+0s", "1m+1s", "59m", "60m", "2h+60s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := game.ParseMoveTime(s)
		if err != nil {
			return
		}
		printed := m.String()
		again, err := game.ParseMoveTime(printed)
		require.NoError(t, err, "%q printed as %q", s, printed)
		assert.Equal(t, m, again, "%q printed as %q", s, printed)
		assert.Equal(t, printed, again.String())
		assert.Equal(t, m.Start < game.LiveLimit, m.Live(), "%q: live is a start under the limit", s)
		assert.Equal(t, m.Increment > 0 || m.Start < game.WholeGameLimit, m.Whole(), "%q: whole-game with an increment or under the limit", s)
		assert.Equal(t, m, m.Explicit(), "%q: a parsed clock has its kind", s)
		assert.True(t, m.Increment == 0 || m.Increment >= game.MinIncrement, "%q: an increment from a second", s)
	})
}

func TestIncrementClock(t *testing.T) {
	// 10h+5h: the clock starts with 10h, gains 5h after each move, never
	// holds more than 20h.
	inc := func(c *game.Config) { c.Increment = 5 * time.Hour }
	tests := []struct {
		name  string
		used  []time.Duration // the time each move took, alternately red's and black's
		red   time.Duration   // red's clock after the moves
		black time.Duration
	}{
		{"start", nil, moveTime, moveTime},
		{"a quick move gains", []time.Duration{time.Hour}, moveTime + 4*time.Hour, moveTime},
		{"capped at twice the start", []time.Duration{0, 0, 0, 0, 0, 0}, 2 * moveTime, 2 * moveTime},
		{"a slow move loses", []time.Duration{9 * time.Hour, time.Hour}, 6 * time.Hour, 14 * time.Hour},
		{"the time left carries over", []time.Duration{9 * time.Hour, 0, 3 * time.Hour}, 8 * time.Hour, 15 * time.Hour},
		{"a move after the clock ran out keeps the increment", []time.Duration{9 * time.Hour, 0, 10 * time.Hour}, 5 * time.Hour, 15 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, inc)
			assert.Equal(t, whole(moveTime, 5*time.Hour), g.Clock(), "an increment makes a clock for the whole game")
			now := t0
			for _, d := range tt.used {
				now = now.Add(d)
				play(t, g, now)
			}
			assert.Equal(t, tt.red, g.TimeLeft(red, now))
			assert.Equal(t, tt.black, g.TimeLeft(black, now))
			assert.Equal(t, now.Add(g.TimeLeft(g.ToMove(), now)), g.Deadline(), "the deadline is the time on the clock away")
			restored(t, g)
		})
	}
}

func TestIncrementInvalid(t *testing.T) {
	for name, inc := range map[string]time.Duration{"negative": -time.Hour, "over the start": moveTime + time.Hour} {
		t.Run(name, func(t *testing.T) {
			_, err := game.New(config(func(c *game.Config) { c.Increment = inc }), t0)
			assert.ErrorIs(t, err, game.ErrInvalid)
		})
	}
}
