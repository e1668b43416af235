package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain", "alice", "alice"},
		{"emphasis", "*bold* _it_ ~~x~~ ||s||", `\*bold\* \_it\_ \~\~x\~\~ \|\|s\|\|`},
		{"code", "`x`", "\\`x\\`"},
		{"masked link", "[free nitro](https://evil.example)", `\[free nitro\](https://evil.example)`},
		{"heading", "# big", `\# big`},
		{"subtext", "-# small", `-\# small`},
		{"quote", "> hi", `\> hi`},
		{"channel mention", "<#123>", `\<\#123\>`},
		{"user mention", "<@123>", "\\<@\u200b123\\>"},
		{"everyone", "@everyone", "@\u200beveryone"},
		{"backslash", `a\b`, `a\\b`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, escape(tt.in))
		})
	}
	assert.Len(t, []rune(escape(string(make([]rune, 100)))), 64, "long names are cut to 64 characters")
}

// TestFinalBoardTextFits plays a whole game between players with the
// longest names that escape the most and checks, in every language, that
// the final board's text lists every move and stays within Discord's
// 2000 characters.
func TestFinalBoardTextFits(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("*", 100)
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, First: engine.Red, MoveTime: time.Hour,
		Players: [2]game.Player{{UserID: "1", Name: long}, {UserID: "2", Name: long}}}, now)
	require.NoError(t, err)
	g := &storage.Game{ID: 1 << 62, GuildID: "10", ChannelID: "20", Game: gg}
	for !g.Over() {
		p := g.Position()
		var h engine.Hole
		for h = range p.Legal().All() {
			break
		}
		require.NoError(t, g.Play(g.ToMove(), g.Ply(), p.Layout().Cell(h), now))
	}
	require.Greater(t, g.Ply(), 40, "a long game")
	for _, lang := range i18n.Langs() {
		t.Run(lang.Name(), func(t *testing.T) {
			text := boardText(lang, g, new(g.Position()), now, [2]time.Time{})
			assert.LessOrEqual(t, utf8.RuneCountInString(text), 2000)
			moves := g.Moves()
			assert.Contains(t, text, fmt.Sprintf(" 1.%s 2.%s ", moves[0].Cell, moves[1].Cell))
			assert.True(t, strings.HasSuffix(text, fmt.Sprintf(" %d.%s", len(moves), moves[len(moves)-1].Cell)), text)
		})
	}
}
