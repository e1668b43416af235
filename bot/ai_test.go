package bot_test

import (
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

// TestPlayTheComputer plays a game against the computer to its end: the
// computer answers every move, and the game counts on the AI ladder only.
func TestPlayTheComputer(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			h.command(ch, h.alice, "play", discordtest.StringOption("level", "easy"), discordtest.StringOption("first", "them"))
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, "easy", g.Player(engine.Red).AI, "the computer begins, as red")
			assert.Equal(t, h.alice.ID, g.Player(engine.Black).UserID)

			rng := engine.NewRand(3)
			for ply := 1; ; ply += 2 {
				board := h.waitBoard(ch, "the computer's move", func(m *discordtest.Message) bool {
					return boardPly(m) == ply || strings.Contains(m.Content, "Game over")
				})
				if strings.Contains(board.Content, "Game over") {
					break
				}
				assert.Contains(t, board.Content, "Kulami AI (easy) played", "the computer's move is announced")
				assert.Equal(t, []string{h.alice.ID}, board.Notified, "the computer's move notifies the player")
				g, err := h.store.Game(t.Context(), ch)
				require.NoError(t, err)
				p := g.Position()
				h.command(ch, h.alice, "move", discordtest.StringOption("cell", p.Layout().Cell(rng.Pick(p.Legal())).String()))
			}
			_, err = h.store.Game(t.Context(), ch)
			require.ErrorIs(t, err, storage.ErrNotFound)
			_, err = h.store.Profile(t.Context(), h.dc.GuildID(), h.alice.ID, storage.AI)
			assert.NoError(t, err, "the game counts on the AI ladder")
			_, err = h.store.Profile(t.Context(), h.dc.GuildID(), h.alice.ID, storage.Human)
			assert.ErrorIs(t, err, storage.ErrNotFound, "and not on the human one")
		})
	}
}

func TestChallengeTheBot(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	h.command(h.channel.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.dc.AppID()), discordtest.StringOption("first", "me"))
	g, err := h.store.Game(t.Context(), h.channel.ID)
	require.NoError(t, err)
	assert.Equal(t, "medium", g.Player(engine.Black).AI, "challenging the bot plays the computer at medium")
	assert.Equal(t, h.alice.ID, g.Player(engine.Red).UserID)
	h.command(h.channel.ID, h.alice, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(h.channel.ID, 2)
	h.refused(h.command(h.channel.ID, h.alice, "draw"), "does not take draws")
}

// TestComputerMovesAfterRestart: a computer move lost to a restart (the
// bot stopped before its queued move ran) is made by the scheduler.
func TestComputerMovesAfterRestart(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	lost := h.dc.AddChannel("lost")
	h.stop()
	// A game whose computer was to move first when the bot stopped.
	s, err := storage.Open(h.dbPath, storage.Options{})
	require.NoError(t, err)
	gg, err := game.New(game.Config{
		Layout: engine.Square(), Rules: engine.Basic, First: engine.Red,
		Players: [2]game.Player{{UserID: h.dc.AppID(), Name: "Kulami AI (easy)", AI: "easy"}, {UserID: h.alice.ID, Name: "alice"}},
	}, h.clock.Now())
	require.NoError(t, err)
	require.NoError(t, s.CreateGame(t.Context(), &storage.Game{GuildID: h.dc.GuildID(), ChannelID: lost.ID, Game: gg}))
	require.NoError(t, s.Close())
	h.start()
	h.tick(game.ComputerGrace - time.Second)
	g, err := h.store.Game(t.Context(), lost.ID)
	require.NoError(t, err)
	assert.Zero(t, g.Ply(), "the scheduler leaves the move to the job queued with the turn for a while")
	h.tick(time.Second)
	board := h.boardAt(lost.ID, 1)
	assert.Contains(t, board.Content, "Kulami AI (easy) played", "then the computer moves and shows its board")
}

func TestHint(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	g := h.challengeAndAccept()
	first, second := h.players(g)
	h.refused(h.command(ch, first, "hint"), "Hints are off in this server")
	h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("hints", "on"))
	h.refused(h.command(ch, second, "hint"), "turn, not yours")
	i := h.command(ch, first, "hint")
	text := h.reply(i)
	assert.True(t, h.dc.WaitResponse(t, i.ID).Ephemeral(), "only the player sees the hint")
	assert.Contains(t, text, "The computer would play **")
}
