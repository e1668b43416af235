package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// TestGamesList: /kulami games shows anyone the games of the server,
// newest first, with a link to each board, and says how to start one when
// there is none.
func TestGamesList(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			r := h.dc.WaitResponse(t, h.command(h.channel.ID, h.carol, "games").ID)
			assert.True(t, r.Ephemeral())
			require.Len(t, r.Embeds, 1)
			assert.Contains(t, r.Embeds[0].Description, "No game is going on in this server. Start one with **/kulami challenge**")

			board, first := h.open()
			other := h.dc.AddChannel("other")
			i := h.command(other.ID, h.carol, "challenge", h.userOption(h.alice))
			msg := messageAfter(t, h.dc, i, other.ID, "the challenge", hasButton("Accept"))
			require.Eventually(t, func() bool {
				c, err := h.store.Challenge(t.Context(), other.ID)
				return err == nil && c.MessageID == msg.ID
			}, hung, time.Millisecond)
			h.click(msg.ID, h.alice, buttons(msg.Components)["Accept"])
			h.boardAt(other.ID, 0)
			second := h.waitNoted(other.ID)

			r = h.dc.WaitResponse(t, h.command(other.ID, h.carol, "games").ID)
			assert.True(t, r.Ephemeral(), "the list is for the asker")
			require.Len(t, r.Embeds, 1)
			lines := strings.Split(r.Embeds[0].Description, "\n")
			require.Len(t, lines, 2)
			assert.True(t, strings.HasPrefix(lines[0], "`#"+strconv.FormatUint(second.ID, 10)+"`"), "newest first: %s", lines[0])
			assert.Contains(t, lines[1], "`#"+strconv.FormatUint(first.ID, 10)+"`")
			assert.Contains(t, lines[1], "🔴 "+first.Player(0).Name+" vs ⚫ "+first.Player(1).Name)
			assert.Contains(t, lines[1], "move 1, 🔴 "+first.Player(0).Name+" to play")
			assert.Contains(t, lines[1], "<#"+h.channel.ID+"> · [board](https://discord.com/channels/"+h.dc.GuildID()+"/"+h.channel.ID+"/"+board.ID+")")
		})
	}
}

// waitNoted waits until the game of channel knows its board message and
// returns it.
func (h *harness) waitNoted(channel string) *storage.Game {
	h.t.Helper()
	var g *storage.Game
	require.Eventually(h.t, func() bool {
		var err error
		g, err = h.store.Game(h.t.Context(), channel)
		return err == nil && g.BoardMessageID != ""
	}, hung, time.Millisecond, "the game knows its board")
	return g
}

// TestSpectatorAsksForBoard: someone who does not play can have the board
// of a channel's game shown again, and it pings nobody.
func TestSpectatorAsksForBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	first, _ := h.players(h.challengeAndAccept())
	h.command(h.channel.ID, first, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(h.channel.ID, 1)
	i := h.command(h.channel.ID, h.carol, "board")
	assert.Contains(t, h.reply(i), "Here is the current board")
	m := messageAfter(t, h.dc, i, h.channel.ID, "the board again", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
	assert.Empty(t, m.Notified, "a board shown again pings nobody")
}

// TestGamesListCountsTheRest: a server with more games than the list
// shows gets the newest 25 and how many more there are.
func TestGamesListCountsTheRest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	const listed = 25 // the games the list shows
	const n = listed + 5
	var ids []uint64
	for i := range n {
		gg, err := game.New(game.Config{
			Layout: engine.Square(), First: engine.Red, MoveTime: 72 * time.Hour,
			Players: [2]game.Player{{UserID: h.alice.ID, Name: "alice"}, {UserID: h.bob.ID, Name: "bob"}},
		}, h.clock.Now())
		require.NoError(t, err)
		g := &storage.Game{GuildID: h.dc.GuildID(), ChannelID: strconv.Itoa(800000000000000000 + i), Game: gg}
		require.NoError(t, h.store.CreateGame(t.Context(), g))
		ids = append(ids, g.ID)
	}
	r := h.dc.WaitResponse(t, h.command(h.channel.ID, h.carol, "games").ID)
	require.Len(t, r.Embeds, 1)
	lines := strings.Split(r.Embeds[0].Description, "\n")
	require.Len(t, lines, listed+1)
	assert.True(t, strings.HasPrefix(lines[0], "`#"+strconv.FormatUint(ids[n-1], 10)+"`"), "newest first: %s", lines[0])
	assert.True(t, strings.HasPrefix(lines[listed-1], "`#"+strconv.FormatUint(ids[n-listed], 10)+"`"), lines[listed-1])
	assert.Equal(t, "… and 5 games more.", lines[listed])
}
