package bot_test

import (
	"bytes"
	"fmt"
	"image/gif"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// finishByResigning plays one move in the harness game g and has the
// player to move resign; it returns the final board.
func (h *harness) finishByResigning(g *storage.Game) *discordtest.Message {
	h.t.Helper()
	first, second := h.players(g)
	var cell string
	for _, values := range menus(h.boardAt(h.channel.ID, 0)) {
		cell = values[0] // a legal hole of any board
	}
	h.command(h.channel.ID, first, "move", discordtest.StringOption("cell", cell))
	h.boardAt(h.channel.ID, 1)
	require.NoError(h.t, resignConfirm(h, second))
	return h.waitBoard(h.channel.ID, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
}

// abortAtStart starts a game in the harness channel and calls it off
// before the first move; it returns the final board.
func (h *harness) abortAtStart() *discordtest.Message {
	h.t.Helper()
	first, _ := h.players(h.challengeAndAccept())
	h.command(h.channel.ID, first, "abort")
	return h.waitBoard(h.channel.ID, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "called off") })
}

// TestRematch: either player of a finished game asks for a rematch with
// the button of its final board; the other accepts the offer, even after
// a restart, and the new game starts in the channel with the colours and
// the first move swapped and the same settings.
func TestRematch(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			old := h.challengeAndAccept(discordtest.StringOption("rules", "lines"), discordtest.StringOption("move_time", "1d"))
			oldRed, oldBlack := h.players(old)
			final := h.finishByResigning(old)
			rematch := buttons(final.Components)["Rematch"]
			require.NotEmpty(t, rematch, "the final board has a Rematch button")

			h.refused(h.click(final.ID, h.carol, rematch), "Only "+oldRed.Username+" and "+oldBlack.Username+", who played this game, can ask for a rematch")

			i := h.click(final.ID, oldRed, rematch)
			assert.Contains(t, h.reply(i), "Rematch offered to")
			assert.True(t, h.dc.WaitResponse(t, i.ID).Ephemeral())
			offer := messageAfter(t, h.dc, i, ch, "the rematch offer", hasButton("Accept"))
			assert.Contains(t, offer.Content, "offers you a **rematch**")
			assert.Contains(t, offer.Content, "🔴 "+oldBlack.Username+" moves first this time")
			assert.Equal(t, []string{oldBlack.ID}, offer.Notified, "the offer notifies the other player, and only them")
			assert.Contains(t, buttons(offer.Components), "Decline")
			require.Eventually(t, func() bool {
				c, err := h.store.Challenge(t.Context(), ch)
				return err == nil && c.MessageID == offer.ID
			}, hung, time.Millisecond, "the offer knows its message")

			h.refused(h.click(final.ID, oldRed, rematch), "You have already asked "+oldBlack.Username+" for a rematch")
			h.refused(h.click(final.ID, oldBlack, rematch), "has already asked you for a rematch", offer.ID)
			h.refused(h.click(offer.ID, oldRed, buttons(offer.Components)["Accept"]), "can't accept your own challenge")

			h.restart()
			accept := h.click(offer.ID, oldBlack, buttons(offer.Components)["Accept"])
			messageAfter(t, h.dc, accept, ch, "the rematch's first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 })
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.NotEqual(t, old.ID, g.ID)
			assert.Equal(t, oldBlack.ID, g.Player(engine.Red).UserID, "the colours are swapped")
			assert.Equal(t, oldRed.ID, g.Player(engine.Black).UserID)
			assert.Equal(t, engine.Red, g.ToMove(), "so is the first move")
			assert.Equal(t, engine.Lines, g.Rules(), "the same rules")
			assert.Equal(t, 24*time.Hour, g.MoveTime(), "the same clock")
			assert.True(t, g.Layout().Equal(engine.Square()), "the same board")

			h.refused(h.click(final.ID, oldBlack, rematch), "This channel already has a game")
		})
	}
}

// TestRematchLapses: an offer nobody answers expires like a challenge,
// and its buttons then say so.
func TestRematchLapses(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	g := h.challengeAndAccept(discordtest.StringOption("layout", "irregular"))
	red, black := h.players(g)
	final := h.finishByResigning(g)
	i := h.click(final.ID, black, buttons(final.Components)["Rematch"])
	offer := messageAfter(t, h.dc, i, h.channel.ID, "the rematch offer", hasButton("Accept"))
	assert.Contains(t, offer.Content, "an irregular board", "a random board is followed by another of its kind")
	assert.Contains(t, offer.Content, "🔴 "+black.Username+" moves first this time", "")
	h.tick(25 * time.Hour)
	h.refused(h.click(offer.ID, red, buttons(offer.Components)["Accept"]), "no longer open")
	_, err := h.store.Game(t.Context(), h.channel.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no game started")
}

// TestRematchComputer: against the computer the rematch starts at once,
// the computer now moving first.
func TestRematchComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	h.command(ch, h.carol, "play", discordtest.StringOption("level", "easy"), discordtest.StringOption("first", "me"), discordtest.StringOption("layout", "random"))
	h.boardAt(ch, 0)
	old, err := h.store.Game(t.Context(), ch)
	require.NoError(t, err)
	require.NoError(t, resignConfirm(h, h.carol))
	final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })

	i := h.click(final.ID, h.carol, buttons(final.Components)["Rematch"])
	assert.Contains(t, h.reply(i), "moves first this time")
	var g *storage.Game
	require.Eventually(t, func() bool {
		g, err = h.store.Game(t.Context(), ch)
		return err == nil && g.ID != old.ID && g.Ply() >= 1
	}, hung, time.Millisecond, "the rematch starts and the computer makes its first move")
	assert.True(t, g.Player(engine.Red).IsAI(), "the computer plays red and moves first")
	assert.Equal(t, h.carol.ID, g.Player(engine.Black).UserID)
	assert.True(t, g.Layout().IsSquare())
	assert.False(t, g.Layout().Equal(old.Layout()), "a new random square")
	h.refused(h.click(final.ID, h.carol, buttons(final.Components)["Rematch"]), "This channel already has a game")
}

// TestReplayGIF: Replay (GIF) on the final board posts the animated
// replay of the whole game, a frame a move, for anyone who clicks; a game
// without moves offers none.
func TestReplayGIF(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	final := h.abortAtStart()
	assert.NotContains(t, buttons(final.Components), "Replay (GIF)", "nothing to replay")

	g := h.challengeAndAccept()
	final = h.finishByResigning(g)
	replay := buttons(final.Components)["Replay (GIF)"]
	require.NotEmpty(t, replay)
	i := h.click(final.ID, h.carol, replay)
	name := fmt.Sprintf("kulami-%d.gif", g.ID)
	m := h.dc.WaitOriginal(t, i.ID, hasFile(name))
	assert.False(t, m.Ephemeral(), "the replay is posted in the channel")
	assert.Contains(t, m.Content, fmt.Sprintf("Replay of game #%d", g.ID))
	data := m.Files[0].Data
	assert.LessOrEqual(t, len(data), 8<<20, "within Discord's upload limit")
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Len(t, anim.Image, 1, "a frame a move")
}
