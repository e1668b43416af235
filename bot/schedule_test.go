package bot_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// reminders returns the reminder messages in a channel.
func (h *harness) reminders(channel string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range h.dc.Messages(channel) {
		if strings.HasPrefix(m.Content, "⏰") {
			out = append(out, m)
		}
	}
	return out
}

// players returns the users of a game: the one to move, then the other.
func (h *harness) players(g *storage.Game) (toMove, other *discordgo.User) {
	if g.Player(g.ToMove()).UserID == h.alice.ID {
		return h.alice, h.bob
	}
	return h.bob, h.alice
}

func TestReminders(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept() // 72 hours per move
			first, second := h.players(g)
			assert.Equal(t, h.clock.Now().Add(72*time.Hour), g.Deadline())
			assert.Contains(t, h.board(ch).Content, fmt.Sprintf("due <t:%d:R>", g.Deadline().Unix()), "the board shows the deadline as a Discord timestamp")

			h.tick(36*time.Hour - time.Minute)
			assert.Empty(t, h.reminders(ch), "no reminder before half the time is gone")
			h.tick(time.Minute)
			rs := h.reminders(ch)
			require.Len(t, rs, 1, "a reminder at half time")
			assert.Contains(t, rs[0].Content, "<@"+first.ID+">, it's your move")
			assert.Equal(t, []string{first.ID}, rs[0].Notified, "a new message that notifies the player to move")
			assert.NotContains(t, rs[0].Content, second.ID, "never to the player who waits")
			assert.Contains(t, rs[0].Content, fmt.Sprintf("<t:%d:R>", g.Deadline().Unix()))

			h.tick(28*time.Hour + 47*time.Minute) // 64h47m: 7h13m left
			assert.Len(t, h.reminders(ch), 1, "nothing more until a tenth of the time is left")
			h.tick(time.Minute) // 64h48m: 7h12m = 10% left
			assert.Len(t, h.reminders(ch), 2, "a second reminder shortly before the end")
			h.tick(7*time.Hour - time.Minute)
			assert.Len(t, h.reminders(ch), 2, "never more than two")

			// The move lands just in time: the other player's clock starts.
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, h.clock.Now().Add(72*time.Hour), g.Deadline())
			h.tick(36 * time.Hour)
			rs = h.reminders(ch)
			require.Len(t, rs, 3)
			assert.Contains(t, rs[2].Content, "<@"+second.ID+">, it's your move", "now the other player is reminded")
		})
	}
}

func TestRemindersByDM(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	g := h.challengeAndAccept()
	first, second := h.players(g)
	assert.Contains(t, h.reply(h.command(h.channel.ID, first, "notify", discordtest.StringOption("dm", "on"))), "by direct message")
	h.tick(36 * time.Hour)
	dm := h.dc.DMChannel(first.ID)
	msgs := h.dc.Messages(dm.ID)
	require.Len(t, msgs, 1, "the player who opted in gets the reminder by DM too")
	assert.Contains(t, msgs[0].Content, "your move in Kulami against "+second.Username)
	assert.Len(t, h.reminders(h.channel.ID), 1, "and in the channel")
	assert.Empty(t, h.dc.Messages(h.dc.DMChannel(second.ID).ID), "the other player gets no DM")

	assert.Contains(t, h.reply(h.command(h.channel.ID, first, "notify", discordtest.StringOption("dm", "off"))), "No more reminders")
	h.tick(28*time.Hour + 48*time.Minute)
	assert.Len(t, h.dc.Messages(dm.ID), 1, "after opting out, no more DMs")
	assert.Len(t, h.reminders(h.channel.ID), 2)
}

// TestTimeoutBeforeTheFirstMove: a player who lets the clock run out
// before their first move has not really started the game: it is aborted,
// unrated, and the message says why, pinging both players (the one who
// waited too).
func TestTimeoutBeforeTheFirstMove(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept(discordtest.StringOption("move_time", "1h"))
			first, second := h.players(g)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			h.tick(time.Hour)

			final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
			assert.Contains(t, final.Content, "<@"+second.ID+"> did not make a first move in time, so the game is aborted; it counts for nobody.")
			assert.Contains(t, final.Content, "<@"+first.ID+">, your opponent never started", "the player who waited is told too")
			assert.ElementsMatch(t, []string{first.ID, second.ID}, final.Notified, "both players are pinged")
			assert.Empty(t, final.Embeds, "no final score for a game that never started")
			f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
			require.NoError(t, err)
			assert.Equal(t, game.Unstarted, f.Result().Ending)
			assert.Zero(t, f.Ratings, "unrated")
			for _, u := range []*discordgo.User{first, second} {
				_, err := h.store.Profile(t.Context(), h.dc.GuildID(), u.ID, storage.Human)
				assert.ErrorIs(t, err, storage.ErrNotFound, "nobody's rating changed")
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept(discordtest.StringOption("move_time", "1h"))
			first, second := h.players(g)
			for k, cell := range []string{"D4", "D7", "F7"} {
				h.command(ch, []*discordgo.User{first, second}[k%2], "move", discordtest.StringOption("cell", cell))
				h.boardAt(ch, k+1)
			}
			h.tick(time.Hour - time.Second)
			_, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err, "still on time")
			h.tick(time.Second)

			final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
			assert.Contains(t, final.Content, "<@"+second.ID+"> ran out of time — <@"+first.ID+"> wins")
			assert.ElementsMatch(t, []string{first.ID, second.ID}, final.Notified, "the end notifies both players")
			_, err = h.store.Game(t.Context(), ch)
			assert.ErrorIs(t, err, storage.ErrNotFound)
			f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
			require.NoError(t, err)
			assert.Equal(t, game.TimedOut, f.Result().Ending)
			assert.Equal(t, g.Player(f.Result().Winner).UserID, first.ID, "the player who ran out of time lost")
		})
	}
}

func TestChallengeExpires(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	msg := h.challengeMessage()
	h.tick(24*time.Hour - time.Second)
	_, err := h.store.Challenge(t.Context(), h.channel.ID)
	require.NoError(t, err, "still open")
	h.tick(time.Second)
	_, err = h.store.Challenge(t.Context(), h.channel.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "expired")
	m, _ := h.dc.Message(msg.ID)
	assert.Contains(t, m.Content, "expired")
	assert.Empty(t, m.Components, "its buttons are gone")
	h.refused(h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"]), "no longer open")
}

// TestRestartKeepsClocks restarts the bot between a reminder and the
// deadline: the reminder is not sent again, the next one and the timeout
// still come. A stop longer than the move clock costs nobody the game: the
// time the bot was down is given back, with one fresh reminder, before any
// deadline is enforced.
func TestRestartKeepsClocks(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			h.command(ch, second, "move", discordtest.StringOption("cell", "D7"))
			h.boardAt(ch, 2) // first to move, due 72 hours from now
			h.tick(36 * time.Hour)
			require.Len(t, h.reminders(ch), 1)

			h.restart()
			h.tick(0)
			assert.Len(t, h.reminders(ch), 1, "no second copy of the first reminder after the restart")
			h.tick(28*time.Hour + 48*time.Minute)
			assert.Len(t, h.reminders(ch), 2, "the second reminder still comes")

			h.stop()
			h.clock.Advance(10 * time.Hour) // the old deadline passes while the bot is down
			h.start()
			h.tick(0)
			_, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err, "nobody lost on time while the bot was down")
			reminders := h.reminders(ch)
			require.Len(t, reminders, 3, "one fresh reminder after the outage")
			assert.Contains(t, reminders[2].Content, "<@"+first.ID+">, I was offline for 10 hours, so your time was extended by that much.")
			assert.Equal(t, []string{first.ID}, reminders[2].Notified, "it notifies the player to move")

			h.tick(7*time.Hour + 12*time.Minute - time.Second)
			_, err = h.store.Game(t.Context(), ch)
			require.NoError(t, err, "the deadline moved by the 10 hours")
			h.tick(time.Second)
			final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "ran out of time") })
			assert.Contains(t, final.Content, "<@"+first.ID+"> ran out of time — <@"+second.ID+"> wins")
			assert.Len(t, h.reminders(ch), 3, "no reminder after the deadline")
		})
	}
}

// TestSchedulerSleepsUntilDue runs the real scheduler over 10,000 active
// games: it sleeps until the earliest wake-up (or its next heartbeat), then
// handles that game only and sleeps until the next.
func TestSchedulerSleepsUntilDue(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	now := h.clock.Now()
	const n = 10000
	h.stop()
	bulk, err := storage.Open(h.dbPath, storage.Options{NoSync: true})
	require.NoError(t, err)
	for i := range n {
		channel := fmt.Sprintf("%d", 900000000000000000+i)
		if i == 0 {
			channel = h.channel.ID
		}
		// Game i began i+1 minutes from now: its first reminder is due
		// 36 hours and i+1 minutes from now.
		gg, err := game.New(game.Config{
			Layout: engine.Square(), First: engine.Red, MoveTime: 72 * time.Hour,
			Players: [2]game.Player{{UserID: h.alice.ID, Name: "alice"}, {UserID: h.bob.ID, Name: "bob"}},
		}, now.Add(time.Duration(i+1)*time.Minute))
		require.NoError(t, err)
		require.NoError(t, bulk.CreateGame(t.Context(), &storage.Game{GuildID: h.dc.GuildID(), ChannelID: channel, Game: gg}))
	}
	require.NoError(t, bulk.Close())
	h.start()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = h.bot.RunScheduler(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	sleeps := func(k int) []time.Duration {
		require.Eventually(t, func() bool { return len(h.clock.Sleeps()) >= k }, hung, time.Millisecond)
		return h.clock.Sleeps()
	}
	assert.Equal(t, []time.Duration{time.Minute}, sleeps(1), "it sleeps until the first reminder is due, waking for its heartbeat every minute")
	h.clock.Advance(time.Minute)
	assert.Equal(t, time.Minute, sleeps(2)[1], "a heartbeat does nothing else")
	assert.Empty(t, h.reminders(h.channel.ID), "nothing was due")

	h.clock.Advance(36 * time.Hour)
	assert.Equal(t, time.Minute, sleeps(3)[2], "then until the next one")
	require.Len(t, h.reminders(h.channel.ID), 1, "the game that was due got its reminder")
	g, err := h.store.Game(t.Context(), "900000000000000001")
	require.NoError(t, err)
	assert.Zero(t, g.Reminders(), "the next game is not touched before its time")
}

// TestDeletedChannelAbandonsTheGame: a channel deleted under a running game
// ends the game as abandoned, unrated, and both players hear of it by DM,
// silently for the one in their quiet hours (a notice like any other).
func TestDeletedChannelAbandonsTheGame(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			at := h.clock.Now().Add(36 * time.Hour).UTC().Hour() // when the game is abandoned
			h.command(ch, first, "notify", discordtest.StringOption("quiet_hours", fmt.Sprintf("%02d-%02d", at, (at+2)%24)))
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			h.dc.DeleteChannel(ch)
			h.tick(36 * time.Hour) // the reminder cannot be posted

			_, err := h.store.Game(t.Context(), ch)
			require.ErrorIs(t, err, storage.ErrNotFound, "the game is over")
			f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
			require.NoError(t, err)
			assert.Equal(t, game.Abandoned, f.Result().Ending)
			assert.Zero(t, f.Ratings, "unrated")
			for _, u := range []*discordgo.User{first, second} {
				dms := h.dc.Messages(h.dc.DMChannel(u.ID).ID)
				require.Len(t, dms, 1, "%s is told by DM", u.Username)
				assert.Contains(t, dms[0].Content, "its channel was deleted. The game is abandoned; it counts for nobody.")
			}
			assert.Empty(t, h.dc.Messages(h.dc.DMChannel(first.ID).ID)[0].Notified, "silent in the first player's quiet hours")
			assert.Equal(t, []string{second.ID}, h.dc.Messages(h.dc.DMChannel(second.ID).ID)[0].Notified, "the other is pinged")
		})
	}
}

// TestSchedulerLeavesClaimedWork: a due reminder that another process has
// claimed (storage.Store.Claim) is its work, not this bot's; when that
// process's lease lapses (it died), this bot takes the work over.
func TestSchedulerLeavesClaimedWork(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	ch := h.channel.ID
	g := h.challengeAndAccept() // the first reminder at 36 hours
	due := g.Wake()
	require.Equal(t, h.clock.Now().Add(36*time.Hour), due)
	w := storage.Wake{Kind: storage.WakeGame, ChannelID: ch, At: due}
	ok, err := h.store.Claim(t.Context(), w, "another-process", due, time.Hour)
	require.NoError(t, err)
	require.True(t, ok)

	h.tick(36 * time.Hour)
	assert.Empty(t, h.reminders(ch), "the other process holds the reminder's lease")
	h.tick(time.Hour - time.Second)
	assert.Empty(t, h.reminders(ch))
	h.tick(time.Second)
	assert.Len(t, h.reminders(ch), 1, "the lease lapsed: the bot sends the reminder")
	ok, err = h.store.Claim(t.Context(), w, "another-process", h.clock.Now(), time.Hour)
	require.NoError(t, err)
	assert.False(t, ok, "the bot holds the lease now")
}

// TestSchedulerStuckWakeHoldsNoOther: a game whose scheduled message (a
// reminder, a final board) hangs in Discord (held until the test lets it
// go) does not hold the timeout of another game due in the same round:
// the scheduler handles due wakes at once, each on its own.
func TestSchedulerStuckWakeHoldsNoOther(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	slow := h.channel.ID
	h.challengeAndAccept(discordtest.StringOption("move_time", "1h"))
	h.clock.Advance(time.Minute)
	h.channel = h.dc.AddChannel("other")
	other := h.channel.ID
	g := h.challengeAndAccept(discordtest.StringOption("move_time", "1h"))
	h.clock.Advance(g.Deadline().Sub(h.clock.Now())) // both games ran out of time
	gs, err := h.store.Game(t.Context(), slow)
	require.NoError(t, err)
	require.True(t, gs.Wake().Before(g.Wake()), "the game whose message hangs is due first: the scheduler comes to it first")

	held := h.dc.Hold("POST", "/channels/"+slow+"/messages", 1)
	done := make(chan bool)
	go func() { done <- h.bot.RunDue(t.Context()) }()
	held.Wait(t)
	h.waitBoard(other, "the final board, while the message hangs", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
	held.Release()
	assert.False(t, <-done, "the scheduled work succeeded, the hung message too once Discord answered")
	_, err = h.store.Game(t.Context(), other)
	assert.ErrorIs(t, err, storage.ErrNotFound, "the other game ended")
}

// TestSchedulerHungDiscordCallAbandoned: the scheduler's calls to Discord
// run within the due item's time (dueWithin): a board owed whose post
// hangs in Discord (held until the test lets it go) is given up at that
// time, while the other game's board owed is posted meanwhile; the one
// given up is owed again and posted at the next repair, once.
func TestSchedulerHungDiscordCallAbandoned(t *testing.T) {
	t.Parallel()
	const within = 5 * time.Second
	h := newManualHarness(t, "gateway")
	h.bot.SetDueWithin(within)
	h.bot.StopMending() // the scheduler's repair, as after a process that owed the boards died
	slow := h.channel.ID
	gs := h.challengeAndAccept()
	h.channel = h.dc.AddChannel("other")
	other := h.channel.ID
	g2 := h.challengeAndAccept()
	for _, g := range []*storage.Game{gs, g2} { // a board owed in each game
		first, _ := h.players(g)
		h.dc.Fail("POST", "/channels/"+g.ChannelID+"/messages", discordtest.ErrServerError, 0)
		i := h.command(g.ChannelID, first, "move", discordtest.StringOption("cell", "D4"))
		h.clock.AdvanceWaited(t, time.Second)
		h.clock.AdvanceWaited(t, 3*time.Second)
		h.dc.WaitUntil(t, "the answer that the move is stored", func() bool {
			return slices.Contains(contents(h.dc.Followups(i.ID)), i18n.English.T("error.stored"))
		})
		h.dc.ClearFailures()
	}

	// The slow channel's next post hangs, then fails: it changes nothing.
	held := h.dc.Hold("POST", "/channels/"+slow+"/messages", 1)
	h.dc.Fail("POST", "/channels/"+slow+"/messages", discordtest.ErrServerError, 1)
	h.clock.Advance(time.Minute)
	failed := h.bot.RunDue(t.Context()) // returns while the post is held: given up at the item's time
	held.Release()
	assert.True(t, failed, "the hung board failed its wake")
	assert.Equal(t, 1, boardsAt(h, other, 1), "the other game's board was posted meanwhile")
	assert.Zero(t, boardsAt(h, slow, 1))
	assert.Contains(t, h.logs.String(), `route="POST /channels/{channel_id}/messages" channel=`+slow+" status=timeout", "the timeout is logged with its route")

	h.dc.WaitUntil(t, "the hung post answered at last", func() bool {
		for _, r := range h.dc.RequestsTo("POST", "/channels/{channel_id}/messages") {
			if r.Path == "/channels/"+slow+"/messages" && r.Status >= 500 {
				return true
			}
		}
		return false
	})
	h.tick(time.Minute) // the next repair
	assert.Equal(t, 1, boardsAt(h, slow, 1), "the board given up is posted later, once")
	g, err := h.store.Game(t.Context(), slow)
	require.NoError(t, err)
	assert.True(t, g.BoardDue.IsZero(), "nothing is owed any more")
}

// TestOutageRemindersPaced: after an outage, the real scheduler makes its
// first pass at once, while the time is given back in the background, and
// the reminders of the time given back, due work stored with it, go out
// outageReminders (10) a second.
func TestOutageRemindersPaced(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	now := h.clock.Now()
	const n = 25
	h.stop()
	bulk, err := storage.Open(h.dbPath, storage.Options{NoSync: true})
	require.NoError(t, err)
	var channels []string
	for i := range n {
		ch := h.dc.AddChannel(fmt.Sprintf("game-%d", i))
		channels = append(channels, ch.ID)
		gg, err := game.New(game.Config{
			Layout: engine.Square(), First: engine.Red, MoveTime: 72 * time.Hour,
			Players: [2]game.Player{{UserID: h.alice.ID, Name: "alice"}, {UserID: h.bob.ID, Name: "bob"}},
		}, now)
		require.NoError(t, err)
		require.NoError(t, bulk.CreateGame(t.Context(), &storage.Game{GuildID: h.dc.GuildID(), ChannelID: ch.ID, Game: gg}))
	}
	require.NoError(t, bulk.Close())
	h.clock.Advance(time.Hour) // the outage
	h.manual = false           // the real scheduler, which resumes
	h.start()
	sent := func() int {
		k := 0
		for _, ch := range channels {
			for _, m := range h.reminders(ch) {
				if strings.Contains(m.Content, "I was offline for 1 hour") {
					k++
				}
			}
		}
		return k
	}
	require.Eventually(t, func() bool { return sent() == 10 }, hung, time.Millisecond, "the first ten at once")
	asleep := func(k int) { // the scheduler sleeps a second at most, for the next reminders
		require.Eventually(t, func() bool {
			return len(slices.DeleteFunc(h.clock.Sleeps(), func(d time.Duration) bool { return d <= 0 || d > time.Second })) >= k
		}, hung, time.Millisecond)
	}
	asleep(1)
	assert.Equal(t, 10, sent(), "no more before a second passed")
	h.clock.Advance(time.Second)
	require.Eventually(t, func() bool { return sent() == 20 }, hung, time.Millisecond, "ten more a second later")
	asleep(2)
	assert.Equal(t, 20, sent(), "no more before the next second")
	h.clock.Advance(time.Second)
	require.Eventually(t, func() bool { return sent() == n }, hung, time.Millisecond, "and the rest")
}
