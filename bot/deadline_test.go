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
// hangs is answered (an empty list) when the deadline of its storage call
// is over, and not before, in both modes: it cannot be deferred. The
// interaction's time moves only when the test says (bot.ManualTimer).
func TestAutocompleteWithinItsDeadline(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			const answerWithin = 500 * time.Millisecond
			end := make(chan struct{})
			timer := bot.NewManualTimer()
			h := newHarnessWith(t, mode, func(h *harness) {
				h.answerWithin = answerWithin
				h.timer = timer
				h.wrap = func(s *storage.Store) bot.Store { return stuckGames{s, end} }
			})
			t.Cleanup(func() { close(end) }) // before the harness stops
			i := h.dc.Autocomplete(h.channel.ID, h.alice, "kulami", discordtest.Subcommand("move", discordtest.Focused(discordtest.StringOption("cell", "D"))))
			timer.WaitPending(t, 0)
			sent := sendAsync(h, i)
			timer.WaitPending(t, 2) // its storage calls' deadlines, before and after Discord hears from the bot
			_, answered := h.dc.Response(i.ID)
			assert.False(t, answered, "the storage call hangs until its deadline")
			timer.Advance(answerWithin * 4 / 5)
			r := h.dc.WaitResponse(t, i.ID)
			assert.Equal(t, discordgo.InteractionApplicationCommandAutocompleteResult, r.Type)
			assert.Empty(t, r.Choices, "nothing to suggest without the game")
			<-sent
		})
	}
}

// sendAsync sends i as h.send does, in a goroutine of its own (in HTTP
// mode, the POST waits for the bot's answer), and returns a channel
// closed once it is sent.
func sendAsync(h *harness, i *discordgo.Interaction) <-chan struct{} {
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		h.send(i)
	}()
	return sent
}

// startGame opens a game (open) in a new channel of h named name and
// returns the channel and its first board; what the bot noted is read
// from store, the store the bot runs on (not h.store), for this opening
// only.
func (h *harness) startGame(store bot.Store, name string) (string, *discordtest.Message) {
	h.t.Helper()
	h.channel = h.dc.AddChannel(name)
	db := h.db
	h.db = store
	defer func() { h.db = db }()
	board, _ := h.open()
	return h.channel.ID, board
}

// TestLockedGameDelaysItselfOnly, on PostgreSQL: while another connection
// holds a game's row locked, a move in that game waits for the row; the
// bot defers for it (a wait is no reason to refuse: issue 41, item 1) and
// answers "being updated, try again" only once the interaction's time for
// the database is over (storeWork, 15 s); a move in another game goes
// through, board and all, in the meantime. The interaction's time moves
// only when the test says (bot.ManualTimer), and the store's lock timeout
// is longer than the test: only the deadline ends the wait.
func TestLockedGameDelaysItselfOnly(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Schema(t)
	const app = "kulami_test_locked_game"
	pg, err := postgres.OpenConfig(pgtest.WithParam(t, dsn, "application_name", app), storage.Options{}, postgres.Config{LockTimeout: time.Hour})
	require.NoError(t, err)
	const answerWithin = 500 * time.Millisecond
	timer := bot.NewManualTimer()
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.answerWithin = answerWithin
		h.timer = timer
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
		return h.dc.Select(board.ID, toMove, menuOf(board, "D4"), "D4")
	}
	timer.WaitPending(t, 0)
	stuck := move(locked, lockedBoard)
	h.send(stuck)
	require.Eventually(t, func() bool {
		var n int
		err := holder.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, app).Scan(&n)
		return err == nil && n == 1
	}, hung, time.Millisecond, "the move waits for the locked row")
	_, answered := h.dc.Response(stuck.ID)
	assert.False(t, answered, "no answer while the move waits and its time lasts")
	timer.Advance(answerWithin) // the bot defers; the move still waits for the row
	r := h.dc.WaitResponse(t, stuck.ID)
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Type, "deferred while the row is locked")

	i := move(other, otherBoard)
	h.send(i)
	h.waitBoard(other, "the other game's next board, while the row of the locked one stays locked", func(m *discordtest.Message) bool { return boardPly(m) == 1 })

	timer.Advance(15*time.Second - answerWithin) // the interaction's time for the database is over
	h.dc.WaitUntil(t, "the locked move's answer", func() bool { return len(h.dc.Followups(stuck.ID)) > 0 })
	f := h.dc.Followups(stuck.ID)[0]
	assert.Equal(t, "This game is being updated; try again in a moment.", f.Content)
	assert.True(t, f.Ephemeral())
	g, err := pg.Game(t.Context(), locked)
	require.NoError(t, err)
	assert.Zero(t, g.Ply(), "nothing changed in the locked game")
}
