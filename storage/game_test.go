package storage

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestGameLadder(t *testing.T) {
	tests := []struct {
		name       string
		red, black game.Player
		want       Ladder
	}{
		{"people", alice, bob, Human},
		{"computer black", alice, easyAI, AI},
		{"computer red", hardAI, alice, AI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, newGame(t, "c", tt.red, tt.black).Ladder())
		})
	}
}

// TestGameRecord checks the record text the store keeps: the record of
// the active game, and the one stored with the finished game.
func TestGameRecord(t *testing.T) {
	s := mustOpen(t, Options{})
	g := mustCreate(t, s, "c", alice, bob)
	active := mustPlay(t, s, "c", "D4", "D7", "F7", "F2", "A2", "A5")
	unfinished := active.Record().String()
	mustFinish(t, s, "c", game.Resigned, engine.Black, t0)
	f, err := s.FinishedGame(t.Context(), guild, g.ID)
	require.NoError(t, err)
	got := unfinished + "\n" + f.RecordText

	golden := filepath.Join("testdata", "record.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)

	// The stored record replays to the game's position.
	back, err := engine.ParseRecord(f.RecordText)
	require.NoError(t, err)
	replayed, err := back.Replay()
	require.NoError(t, err)
	assert.Equal(t, f.Position(), replayed)
	assert.True(t, strings.HasSuffix(unfinished, " *\n"), "an unfinished record ends with *")
}

func TestGameCheck(t *testing.T) {
	tests := []struct {
		name   string
		change func(g *Game)
		msg    string
	}{
		{"no game", func(g *Game) { g.Game = nil }, "no game"},
		{"no channel", func(g *Game) { g.ChannelID = "" }, "channel ID is empty"},
		{"zero byte in guild", func(g *Game) { g.GuildID = "a\x00b" }, "guild ID \"a\\x00b\" holds a zero byte"},
		{"long parent", func(g *Game) { g.ParentChannelID = strings.Repeat("1", 101) }, "parent channel ID is longer than 100 bytes"},
		{"person posing as AI", func(g *Game) {
			g.Game = newGame(t, "c", game.Player{UserID: "ai:hard", Name: "mallory"}, bob).Game
		}, "red player user ID \"ai:hard\": a person's ID may not start with \"ai:\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, "c", alice, bob)
			g.ID = 1
			require.NoError(t, g.check())
			tt.change(g)
			err := g.check()
			assert.ErrorIs(t, err, ErrInvalid)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

// TestCorruptGameIsRefused writes stored games that game.Restore refuses
// straight into the file: reading them is ErrCorrupt, and nothing is
// written over them.
func TestCorruptGameIsRefused(t *testing.T) {
	tests := []struct {
		name   string
		change func(r map[string]any)
		msg    string
	}{
		{"illegal move", func(r map[string]any) {
			r["moves"] = []map[string]any{{"cell": "D4", "at": t0}, {"cell": "D4", "at": t0}}
		}, "move 2 (D4)"},
		{"layout not canonical", func(r map[string]any) {
			r["layout"] = strings.ReplaceAll(engine.SquareString, "a", "z")
		}, "is not canonical"},
		{"result that does not follow", func(r map[string]any) {
			r["result"] = map[string]any{"ending": "normal", "winner": 0, "at": t0}
		}, "the game is not over"},
		{"unknown ending", func(r map[string]any) {
			r["result"] = map[string]any{"ending": "won", "at": t0}
		}, "ending \"won\" is not one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustOpen(t, Options{})
			mustCreate(t, s, "c", alice, bob)
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket(bucketGames)
				var env struct {
					V    int            `json:"v"`
					Data map[string]any `json:"data"`
				}
				if err := json.Unmarshal(b.Get([]byte("c")), &env); err != nil {
					return err
				}
				tt.change(env.Data)
				raw, err := json.Marshal(env)
				if err != nil {
					return err
				}
				return b.Put([]byte("c"), raw)
			}))

			_, err := s.Game(t.Context(), "c")
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.ErrorContains(t, err, tt.msg)
			_, err = s.UpdateGame(t.Context(), "c", func(g *Game) error { return play(g, mustCell(t, "A1")) })
			assert.ErrorIs(t, err, ErrCorrupt)
		})
	}
}
