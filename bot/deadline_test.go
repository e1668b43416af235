package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// stuckGames is a store whose reads of a game hang until their context
// is done (or the test ends), as when the database cannot serve them.
type stuckGames struct {
	bot.Store
	end chan struct{}
}

func (s stuckGames) Game(ctx context.Context, _ string) (*storage.Game, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.end:
		return nil, storage.ErrNotFound
	}
}

// TestAutocompleteWithinItsDeadline: an autocomplete whose storage call
// hangs is answered (an empty list) before Discord's 3 s, in both modes:
// it cannot be deferred.
func TestAutocompleteWithinItsDeadline(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			const answerWithin = 500 * time.Millisecond
			end := make(chan struct{})
			h := newHarnessWith(t, mode, func(h *harness) {
				h.answerWithin = answerWithin
				h.wrap = func(s *storage.Store) bot.Store { return stuckGames{s, end} }
			}, discordtest.WithTimeout(5*time.Second))
			t.Cleanup(func() { close(end) }) // before the harness stops
			i := h.dc.Autocomplete(h.channel.ID, h.alice, "kulami", discordtest.Subcommand("move", discordtest.Focused(discordtest.StringOption("cell", "D"))))
			start := time.Now()
			h.send(i)
			r := h.dc.WaitResponse(t, i.ID)
			assert.Less(t, time.Since(start), answerWithin+time.Second, "answered within the deadline of its storage call")
			assert.Equal(t, discordgo.InteractionApplicationCommandAutocompleteResult, r.Type)
			assert.Empty(t, r.Choices, "nothing to suggest without the game")
		})
	}
}

// startGame starts a game between alice and bob in a new channel of h
// and returns the channel and its first board; the bot's store is store
// (not h.store).
func (h *harness) startGame(store bot.Store, name string) (string, *discordtest.Message) {
	h.t.Helper()
	h.channel = h.dc.AddChannel(name)
	i := h.command(h.channel.ID, h.alice, "challenge", h.userOption(h.bob))
	msg := messageAfter(h.t, h.dc, i, h.channel.ID, "the challenge", hasButton("Accept"))
	require.Eventually(h.t, func() bool {
		c, err := store.Challenge(h.t.Context(), h.channel.ID)
		return err == nil && c.MessageID == msg.ID
	}, 5*time.Second, time.Millisecond, "the challenge knows its message")
	h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
	return h.channel.ID, h.waitBoard(h.channel.ID, "the first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 })
}

// TestLockedGameDelaysItselfOnly, on PostgreSQL: while another connection
// holds a game's row locked, a move in that game is answered "busy, try
// again" at once (before the bot would defer), and a move in another game
// goes through, board and all, in the meantime.
func TestLockedGameDelaysItselfOnly(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Schema(t)
	pg, err := postgres.Open(dsn, storage.Options{})
	require.NoError(t, err)
	const answerWithin = 500 * time.Millisecond
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.answerWithin = answerWithin
		h.wrap = func(*storage.Store) bot.Store { return pg }
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	locked, lockedBoard := h.startGame(pg, "locked")
	other, otherBoard := h.startGame(pg, "other")

	holder, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer holder.Close(context.Background())
	tx, err := holder.Begin(t.Context())
	require.NoError(t, err)
	defer tx.Rollback(context.Background())
	_, err = tx.Exec(t.Context(), `SELECT 1 FROM active WHERE channel = $1 FOR UPDATE`, locked)
	require.NoError(t, err)

	move := func(channel string, board *discordtest.Message) *discordgo.Interaction {
		g, err := pg.Game(t.Context(), channel)
		require.NoError(t, err)
		toMove, _ := h.players(g)
		return h.pick(board.ID, toMove, menuOf(board, "D4"), "D4")
	}
	start := time.Now()
	stuck := move(locked, lockedBoard)
	r := h.dc.WaitResponse(t, stuck.ID)
	assert.Less(t, time.Since(start), 3*time.Second, "within Discord's 3 s")
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "the answer itself, before the bot would defer")
	assert.Equal(t, "This game is busy, try again in a moment.", r.Content)

	start = time.Now()
	move(other, otherBoard)
	h.waitBoard(other, "the other game's next board", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
	assert.Less(t, time.Since(start), 3*time.Second, "the other game's board came while the lock was held")
	g, err := pg.Game(t.Context(), locked)
	require.NoError(t, err)
	assert.Zero(t, g.Ply(), "nothing changed in the locked game")
}
