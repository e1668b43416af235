package storage

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestGamePlay(t *testing.T) {
	g := newGame("c", alice, bob)
	p, err := g.Play(mustCell(t, "D4"), t0)
	require.NoError(t, err)
	assert.Equal(t, 1, p.Ply())
	assert.Equal(t, []Move{{mustCell(t, "D4"), t0}}, g.Moves)
	assert.Equal(t, engine.Black, g.ToMove())

	tests := []struct {
		move string
		want error
	}{
		{"D4", engine.ErrOccupied},
		{"E5", engine.ErrNotInLine},
		{"E4", engine.ErrSamePanel},
	}
	for _, tt := range tests {
		t.Run(tt.move, func(t *testing.T) {
			_, err := g.Play(mustCell(t, tt.move), t0)
			assert.ErrorIs(t, err, tt.want)
			assert.Len(t, g.Moves, 1, "a refused move leaves the game as it was")
		})
	}
}

func TestGamePlayEndsTheGame(t *testing.T) {
	g := newGame("c", alice, bob)
	r := engine.NewRand(7)
	for g.Result == nil {
		_, err := g.Play(randomMove(t, g, &r), t0)
		require.NoError(t, err)
	}
	p, err := g.Position()
	require.NoError(t, err)
	require.True(t, p.IsOver())
	score := p.Score(g.Rules)
	w, decided := score.Winner()
	assert.Equal(t, Normal, g.Result.Ending)
	assert.Equal(t, score, g.Result.Score)
	assert.Equal(t, !decided, g.Result.Draw)
	if decided {
		assert.Equal(t, w, g.Result.Winner)
	}
	_, err = g.Play(mustCell(t, "A1"), t0)
	assert.ErrorIs(t, err, engine.ErrGameOver)
}

func TestGameFinish(t *testing.T) {
	tests := []struct {
		ending   Ending
		loser    engine.Color
		outcomes [2]Outcome // red, black
		text     string
	}{
		{Resigned, engine.Red, [2]Outcome{Lost, Won}, "Black wins, Red resigned"},
		{Resigned, engine.Black, [2]Outcome{Won, Lost}, "Red wins, Black resigned"},
		{TimedOut, engine.Black, [2]Outcome{Won, Lost}, "Red wins, Black ran out of time"},
		{DrawAgreed, engine.Red, [2]Outcome{Drawn, Drawn}, "Draw by agreement"},
		{Aborted, engine.Red, [2]Outcome{NoContest, NoContest}, "Aborted"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			g := newGame("c", alice, bob)
			_, err := g.Play(mustCell(t, "D4"), t0)
			require.NoError(t, err)
			require.NoError(t, g.Finish(tt.ending, tt.loser, t0))
			assert.Equal(t, tt.ending, g.Result.Ending)
			assert.Equal(t, tt.outcomes[engine.Red], g.Result.Outcome(engine.Red))
			assert.Equal(t, tt.outcomes[engine.Black], g.Result.Outcome(engine.Black))
			assert.Equal(t, tt.text, g.Result.String())
			p, err := g.Position()
			require.NoError(t, err)
			assert.Equal(t, p.Score(engine.Full), g.Result.Score, "the score of the board as it was left")
			assert.NoError(t, g.check())
			assert.ErrorIs(t, g.Finish(tt.ending, tt.loser, t0), engine.ErrGameOver)
		})
	}
}

func TestGameFinishRefuses(t *testing.T) {
	tests := []struct {
		name   string
		ending Ending
		loser  engine.Color
		at     time.Time
		msg    string
	}{
		{"normal end of a game that goes on", Normal, engine.Red, t0, "the game is not over: black may still move"},
		{"loser of no colour", Resigned, engine.Color(2), t0, "the loser must be red or black"},
		{"unknown ending", Ending(9), engine.Red, t0, "unknown ending Ending(9)"},
		{"no time", Aborted, engine.Red, time.Time{}, "a result needs the time the game ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame("c", alice, bob)
			_, err := g.Play(mustCell(t, "D4"), t0)
			require.NoError(t, err)
			err = g.Finish(tt.ending, tt.loser, tt.at)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.ErrorContains(t, err, tt.msg)
			assert.Nil(t, g.Result)
		})
	}
}

func TestResultString(t *testing.T) {
	var score engine.Score
	score[engine.Red].Total, score[engine.Black].Total = 29, 35
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Ending: Normal, Winner: engine.Black, Score: score}, "Black 35-29"},
		{Result{Ending: Normal, Draw: true, Score: engine.Score{{Total: 30}, {Total: 30}}}, "Draw 30-30"},
		{Result{Ending: TimedOut, Winner: engine.Red, Score: score}, "Red wins, Black ran out of time"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.r.String())
		})
	}
}

func TestGamePlayerColor(t *testing.T) {
	g := newGame("c", alice, easyAI)
	tests := []struct {
		user string
		want engine.Color
		ok   bool
	}{
		{alice.UserID, engine.Red, true},
		{easyAI.UserID, engine.Black, true},
		{bob.UserID, 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.user, func(t *testing.T) {
			c, ok := g.PlayerColor(tt.user)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, c)
		})
	}
	assert.Equal(t, AI, g.Ladder())
	assert.Equal(t, Human, newGame("c", alice, bob).Ladder())
}

func TestGameRecord(t *testing.T) {
	g := newGame("c", alice, bob)
	for _, m := range []string{"D4", "D7", "F7", "F2", "A2", "A5"} {
		_, err := g.Play(mustCell(t, m), t0)
		require.NoError(t, err)
	}
	unfinished, err := g.Record()
	require.NoError(t, err)
	require.NoError(t, g.Finish(Resigned, engine.Black, t0))
	finished, err := g.Record()
	require.NoError(t, err)
	got := unfinished.String() + "\n" + finished.String()

	golden := filepath.Join("testdata", "record.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)

	// The record replays to the game's position.
	back, err := engine.ParseRecord(finished.String())
	require.NoError(t, err)
	replayed, err := back.Replay()
	require.NoError(t, err)
	p, err := g.Position()
	require.NoError(t, err)
	assert.Equal(t, p, replayed)
	assert.True(t, strings.HasSuffix(unfinished.String(), " *\n"), "an unfinished record ends with *")
}

func TestGameCheck(t *testing.T) {
	over := newGame("c", alice, bob)
	r := engine.NewRand(3)
	for over.Result == nil {
		_, err := over.Play(randomMove(t, over, &r), t0)
		require.NoError(t, err)
	}

	tests := []struct {
		name   string
		change func(g *Game)
		msg    string
	}{
		{"no channel", func(g *Game) { g.ChannelID = "" }, "channel ID is empty"},
		{"zero byte in guild", func(g *Game) { g.GuildID = "a\x00b" }, "guild ID \"a\\x00b\" holds a zero byte"},
		{"long parent", func(g *Game) { g.ParentChannelID = strings.Repeat("1", 101) }, "parent channel ID is longer than 100 bytes"},
		{"bad layout", func(g *Game) { g.Layout = "abc" }, "bad layout"},
		{"layout not canonical", func(g *Game) { g.Layout = strings.ReplaceAll(engine.SquareString, "a", "z") }, "is not canonical"},
		{"unknown rules", func(g *Game) { g.Rules = 7 }, "unknown rule set Rules(7)"},
		{"negative move time", func(g *Game) { g.MoveTime = -time.Second }, "the move time -1s is negative"},
		{"bad first", func(g *Game) { g.First = 5 }, "the first colour must be red or black"},
		{"no user", func(g *Game) { g.Players[engine.Black].UserID = "" }, "black player user ID is empty"},
		{"person posing as AI", func(g *Game) { g.Players[engine.Red].UserID = "ai:hard" }, "a person's ID may not start with \"ai:\""},
		{"against themself", func(g *Game) { g.Players[engine.Black] = alice }, "100 cannot play against themself"},
		{"no creation time", func(g *Game) { g.Created = time.Time{} }, "the game has no creation time"},
		{"bad draw offer", func(g *Game) { g.DrawOffer = &DrawOffer{By: 3} }, "a draw offer must be by red or black"},
		{"illegal move", func(g *Game) { g.Moves = append(g.Moves, Move{Cell: mustCell(t, "D4")}, Move{Cell: mustCell(t, "D4")}) },
			"move 2 (D4): that hole already holds a marble"},
		{"over without result", func(g *Game) { g.Moves = over.Moves }, "has no result"},
		{"result that does not follow", func(g *Game) {
			g.Moves, g.Result = over.Moves, new(*over.Result)
			g.Result.Score[engine.Red].Total += 100
		}, "does not follow from the moves"},
		{"unfinished normal result", func(g *Game) { g.Result = &Result{Ending: Normal, At: t0} }, "the game is not over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame("c", alice, bob)
			g.ID = 1
			require.NoError(t, g.check())
			tt.change(g)
			err := g.check()
			assert.ErrorIs(t, err, ErrInvalid)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}
