package bot_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/game"
)

// TestMoveTimeRefusedInFourLanguages: a move time too short ("5s"), in
// no unit ("10x") or with an increment of nothing ("5m+0s") is refused
// privately in the reader's language, saying what was typed and what to
// type.
func TestMoveTimeRefusedInFourLanguages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	for _, l := range i18n.Langs() {
		locale := discordgo.Locale(l.DiscordLocales()[0])
		for _, tt := range []struct{ typed, key string }{
			{"5s", "move_time.range"},
			{"10x", "move_time.form"},
			{"5m+0s", "move_time.increment"},
		} {
			t.Run(l.Name()+"/"+tt.typed, func(t *testing.T) {
				i := h.commandWith(speaking(locale, locale), h.channel.ID, h.alice, "challenge",
					h.userOption(h.bob), discordtest.StringOption("move_time", tt.typed))
				text := h.refused(i, tt.typed)
				assert.Equal(t, l.T(tt.key, "Typed", tt.typed), text)
				if l.Name() != i18n.English.Name() {
					assert.NotEqual(t, i18n.English.T(tt.key, "Typed", tt.typed), text, "in the reader's language")
				}
			})
		}
	}
}

// TestQuickClocks: "10m" is a clock for the whole game, said so on the
// challenge, whose board counts down each player's clock; "5m+10s" adds
// seconds; "1h" stays per move.
func TestQuickClocks(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		typed, words string
		want         game.MoveTime
	}{
		{"10m", "Clock: 10 minutes for the whole game", game.MoveTime{Start: 10 * time.Minute, Kind: game.WholeGame}},
		{"5m+10s", "Clock: 5m+10s (5 minutes, then 10 seconds more after each move, at most 10 minutes)",
			game.MoveTime{Start: 5 * time.Minute, Increment: 10 * time.Second, Kind: game.WholeGame}},
		{"1h", "Clock: 1 hour per move", game.MoveTime{Start: time.Hour, Kind: game.PerMove}},
	} {
		t.Run(tt.typed, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "gateway")
			ch := h.channel.ID
			msg := h.challengeMessage(discordtest.StringOption("move_time", tt.typed))
			assert.Contains(t, msg.Content, tt.words)
			h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
			h.boardAt(ch, 0) // the first board, before a move can overtake it
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, tt.want, g.Clock())
			first, _ := h.players(g)
			h.tick(time.Minute + 30*time.Second)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			board := h.boardAt(ch, 1)
			g, err = h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Contains(t, board.Content, fmt.Sprintf("<t:%d:R>", g.Deadline().Unix()), "the countdown of the player to move")
			if !tt.want.Whole() {
				assert.NotContains(t, board.Content, "⏱", "a daily clock per move needs no clock line")
				return
			}
			left := tt.want.Start - 90*time.Second + tt.want.Increment
			assert.Equal(t, left, g.TimeLeft(g.ToMove().Other(), h.clock.Now()))
			assert.Contains(t, board.Content, "starts their next turn with "+map[time.Duration]string{
				8*time.Minute + 30*time.Second: "8 minutes 30 seconds",
				3*time.Minute + 40*time.Second: "3 minutes 40 seconds",
			}[left], "what the clock of %s holds", first.Username)
		})
	}
}
