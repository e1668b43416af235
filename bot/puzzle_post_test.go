package bot_test

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// dailies returns the daily puzzle posts of a channel.
func (h *harness) dailies(channel string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range h.dc.Messages(channel) {
		if !m.Ephemeral() && len(m.Files) == 1 && m.Files[0].Name == "puzzle.png" {
			out = append(out, m)
		}
	}
	return out
}

// choosePuzzleChannel sets the guild's puzzle channel, as an admin.
func (h *harness) choosePuzzleChannel(channel string) string {
	h.t.Helper()
	return h.reply(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("puzzle_channel", channel)))
}

// solveButton returns the custom ID of the Solve button of a daily post.
func solveButton(tb testing.TB, m *discordtest.Message) string {
	tb.Helper()
	id, ok := buttons(m.Components)["Solve"]
	require.True(tb, ok, "a Solve button on %q", m.Content)
	return id
}

// TestDailyPuzzlePostedOnceADay: a channel chosen gets today's daily
// puzzle at once, then one post each day at 00:00 UTC, never twice, across
// restarts; each names how many solved the day before's and the first
// three; Solve opens the puzzle privately, and a post of a day gone by is
// refused; clearing the channel stops the posts.
func TestDailyPuzzlePostedOnceADay(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newPuzzleHarness(t, mode, threePuzzles(t))
			ch := h.dc.AddChannel("puzzles")
			answer := h.choosePuzzleChannel(ch.ID)
			assert.Contains(t, answer, "**Daily puzzle**: <#"+ch.ID+">, every day at 00:00 UTC")
			assert.Contains(t, h.dc.Messages(ch.ID)[0].Content, "The daily Kulami puzzle will be posted here")

			h.tick(time.Minute)
			posts := h.dailies(ch.ID)
			require.Len(t, posts, 1, "today's at once")
			assert.Contains(t, posts[0].Content, "Daily puzzle** of 2026-11-22")
			assert.NotContains(t, posts[0].Content, "yesterday's puzzle", "the first post has no yesterday to speak of")
			assert.NotContains(t, posts[0].Content, "Yesterday's puzzle")

			// alice solves it from the post; bob fails it.
			i := h.click(posts[0].ID, h.alice, solveButton(t, posts[0]))
			m := h.puzzleMessage(i)
			assert.True(t, m.Ephemeral())
			p := h.currentPuzzle(h.alice)
			h.playPuzzle(m, h.alice, p.Solution[0].String()) // the first move: enough to end or go on
			for k := 2; k < len(p.Solution); k += 2 {
				m, _ = h.dc.Message(m.ID)
				h.playPuzzle(m, h.alice, p.Solution[k].String())
			}
			i = h.click(posts[0].ID, h.bob, solveButton(t, posts[0]))
			h.playPuzzle(h.puzzleMessage(i), h.bob, wrongHole(t, p))
			i = h.click(posts[0].ID, h.alice, solveButton(t, posts[0]))
			h.refused(i, "You solved today's puzzle already", p.SolutionText())

			for range 3 {
				h.tick(time.Hour)
			}
			h.restart()
			h.tick(time.Minute)
			assert.Len(t, h.dailies(ch.ID), 1, "once a day, across a restart too")

			midnight := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
			h.tick(midnight.Add(-time.Second).Sub(h.clock.Now()))
			assert.Len(t, h.dailies(ch.ID), 1, "not before 00:00 UTC")
			h.tick(time.Second)
			posts = h.dailies(ch.ID)
			require.Len(t, posts, 2, "the next day's at 00:00 UTC")
			assert.Contains(t, posts[1].Content, "Daily puzzle** of 2026-11-23")
			assert.Contains(t, posts[1].Content, "Yesterday's puzzle: 1 solved it: **alice**.")
			h.refused(h.click(posts[0].ID, h.carol, solveButton(t, posts[0])), "the daily puzzle of 2026-11-22, which is over")

			h.restart()
			h.tick(24 * time.Hour)
			posts = h.dailies(ch.ID)
			require.Len(t, posts, 3, "and the day after, after a restart")
			assert.Contains(t, posts[2].Content, "Nobody solved yesterday's puzzle.")

			h.reply(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.StringOption("clear", "puzzle_channel")))
			h.tick(24 * time.Hour)
			assert.Len(t, h.dailies(ch.ID), 3, "cleared: no more posts")
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// TestPuzzleChannelRefused: a puzzle channel the bot cannot post in is
// refused privately, with what to do, and nothing is stored; so is a
// puzzle channel picked and cleared at once.
func TestPuzzleChannelRefused(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			perms := int64(discordtest.DefaultAppPermissions) &^ discordgo.PermissionSendMessages
			h := newManualHarness(t, mode, discordtest.WithAppPermissions(perms))
			ch := h.dc.AddChannel("puzzles")
			i := h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("puzzle_channel", ch.ID))
			h.refused(i, "I cannot post in <#"+ch.ID+">")
			i = h.commandWith(func(i *discordgo.Interaction) { asAdmin(i); i.Locale = discordgo.German }, h.channel.ID, h.alice, "settings",
				discordtest.ChannelOption("puzzle_channel", ch.ID))
			h.refused(i, "Ich kann in <#"+ch.ID+"> nicht posten")
			h.refused(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("puzzle_channel", ch.ID),
				discordtest.StringOption("clear", "puzzle_channel")), "Pick a puzzle channel or clear it, not both", "nothing was changed")
			fr := func(i *discordgo.Interaction) { asAdmin(i); i.Locale = discordgo.French }
			h.refused(h.commandWith(fr, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("puzzle_channel", ch.ID),
				discordtest.StringOption("clear", "puzzle_channel")), "Choisissez un salon des problèmes ou effacez-le")
			s, err := h.store.GuildSettings(t.Context(), h.dc.GuildID())
			require.NoError(t, err)
			assert.Empty(t, s.PuzzleChannel, "nothing stored")
		})
	}
}

// TestDailyPuzzlePostedOnceByTwoBots, on PostgreSQL: two bots on one
// store, which both load the puzzle set and both wake at 00:00 UTC, post
// each day's puzzle once between them.
func TestDailyPuzzlePostedOnceByTwoBots(t *testing.T) {
	t.Parallel()
	set := threePuzzles(t)
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.manual = true
		h.wrap = func(*storage.Store) bot.Store { return pg }
		h.puzzles = func() ([]puzzle.Puzzle, error) { return set, nil }
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Clock: h.clock, MoveTime: h.moveTime,
		ChallengeExpiry: h.expiry, Puzzles: func() ([]puzzle.Puzzle, error) { return set, nil }})
	t.Cleanup(func() { other.Close(hung) })
	require.NoError(t, other.Resume(t.Context()), "the second bot loads the set: nothing new")
	assert.Contains(t, h.logs.String(), `msg="puzzles loaded" puzzles=3 "new or changed"=0`)

	ch := h.dc.AddChannel("puzzles")
	h.choosePuzzleChannel(ch.ID)
	for day := 1; day <= 2; day++ {
		h.clock.Advance(time.Date(2026, 11, 22+day, 0, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
		var wg sync.WaitGroup
		for _, b := range []*bot.Bot{h.bot, other, h.bot, other} {
			wg.Go(func() { assert.False(t, b.RunDue(t.Context()), "the work succeeded") })
		}
		wg.Wait()
		assert.Len(t, h.dailies(ch.ID), day, "day %d posted once", day)
	}
	assert.Empty(t, h.dc.Violations())
}
