package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// gameStore is what seedGame writes to: either backend.
type gameStore interface {
	CreateGame(ctx context.Context, g *storage.Game) error
	UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error)
}

// seedGame stores in s a rated game of the harness's guild between red
// and black, which the loser resigns at at after two moves.
func (h *harness) seedGame(s gameStore, red, black *discordgo.User, loser engine.Color, at time.Time) {
	h.t.Helper()
	gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, First: engine.Red, MoveTime: 72 * time.Hour,
		Players: [2]game.Player{{UserID: red.ID, Name: red.Username}, {UserID: black.ID, Name: black.Username}}}, at.Add(-time.Hour))
	require.NoError(h.t, err)
	channel := fmt.Sprintf("%d", at.UnixNano())
	require.NoError(h.t, s.CreateGame(h.t.Context(), &storage.Game{GuildID: h.dc.GuildID(), ChannelID: channel, Game: gg}))
	_, err = s.UpdateGame(h.t.Context(), channel, func(g *storage.Game) error {
		for i, cell := range []string{"D4", "D7"} {
			c, err := engine.ParseCell(cell)
			if err != nil {
				return err
			}
			if err := g.Play(g.ToMove(), g.Ply(), c, at.Add(time.Duration(i-2)*time.Minute)); err != nil {
				return err
			}
		}
		return g.Resign(loser, at)
	})
	require.NoError(h.t, err)
}

// leaderboardEmbed runs /kulami leaderboard with opts and returns its
// embed.
func (h *harness) leaderboardEmbed(opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.MessageEmbed {
	h.t.Helper()
	r := h.dc.WaitResponse(h.t, h.command(h.channel.ID, h.carol, "leaderboard", opts...).ID)
	require.Len(h.t, r.Embeds, 1)
	return r.Embeds[0]
}

// TestSeasonLeaderboard: /kulami leaderboard shows the all-time ladder by
// default, and season:current or season:previous the ladder of that
// calendar quarter, named with its dates, ranking only its games from a
// fresh start.
func TestSeasonLeaderboard(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			now := h.clock.Now() // 22 November 2026: the fourth quarter
			h.seedGame(h.store, h.alice, h.bob, engine.Black, time.Date(2026, 9, 30, 23, 0, 0, 0, time.UTC))
			h.seedGame(h.store, h.carol, h.alice, engine.Black, now.Add(-time.Hour))

			current := h.leaderboardEmbed(discordtest.StringOption("season", "current"))
			assert.Equal(t, "Kulami leaderboard · 2026 Q4, 1 Oct – 31 Dec", current.Title)
			lines := strings.Split(current.Description, "\n")
			require.Len(t, lines, 2, current.Description)
			assert.Contains(t, lines[0], "🥇 **carol** — 1662?", "a fresh start: one win from 1500")
			assert.Contains(t, lines[1], "🥈 **alice** — 1338?")

			previous := h.leaderboardEmbed(discordtest.StringOption("season", "previous"))
			assert.Equal(t, "Kulami leaderboard · 2026 Q3, 1 Jul – 30 Sep", previous.Title)
			lines = strings.Split(previous.Description, "\n")
			require.Len(t, lines, 2, previous.Description)
			assert.Contains(t, lines[0], "🥇 **alice** — 1662?")
			assert.Contains(t, lines[1], "🥈 **bob** — 1338?")

			allTime := h.leaderboardEmbed()
			assert.Equal(t, "Kulami leaderboard", allTime.Title, "all time by default, as before seasons")
			assert.Len(t, strings.Split(allTime.Description, "\n"), 3)
			assert.Equal(t, allTime.Description, h.leaderboardEmbed(discordtest.StringOption("season", "all-time")).Description)

			ai := h.leaderboardEmbed(discordtest.StringOption("season", "current"), discordtest.StringOption("ladder", "ai"))
			assert.Equal(t, "Kulami leaderboard: games against the computer · 2026 Q4, 1 Oct – 31 Dec", ai.Title)
			assert.Contains(t, ai.Description, "No rated games in this season yet")

			h.refused(h.command(h.channel.ID, h.carol, "leaderboard", discordtest.StringOption("season", "next")), "Pick a season from the list")

			// Pages turn as on the all-time board, staying in the season.
			for i := range 10 {
				h.seedGame(h.store, h.dc.AddUser(fmt.Sprintf("p%02d", i)), h.bob, engine.Black, now.Add(-time.Duration(i+2)*time.Hour))
			}
			i := h.command(h.channel.ID, h.carol, "leaderboard", discordtest.StringOption("season", "current"))
			r := h.dc.WaitResponse(t, i.ID)
			assert.Equal(t, "Page 1 of 2 · 13 players · wins–losses–draws · ? = provisional rating (few games)", r.Embeds[0].Footer.Text)
			msg := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			next := h.click(msg.ID, h.alice, buttonNamed(r.Components, "Next").CustomID)
			r = h.dc.WaitResponse(t, next.ID)
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
			assert.Equal(t, "Kulami leaderboard · 2026 Q4, 1 Oct – 31 Dec", r.Embeds[0].Title)
			assert.Equal(t, "Page 2 of 2 · 13 players · wins–losses–draws · ? = provisional rating (few games)", r.Embeds[0].Footer.Text)
			assert.Len(t, strings.Split(r.Embeds[0].Description, "\n"), 3)

			// In French, for a French server and a French player.
			french := func(i *discordgo.Interaction) {
				fr := discordgo.French
				i.Locale, i.GuildLocale = fr, &fr
			}
			r = h.dc.WaitResponse(t, h.commandWith(french, h.channel.ID, h.carol, "leaderboard", discordtest.StringOption("season", "previous")).ID)
			assert.Equal(t, "Classement Kulami · 2026 T3, du 1 juil. au 30 sept.", r.Embeds[0].Title)
			help := h.dc.WaitResponse(t, h.commandWith(french, h.channel.ID, h.carol, "help").ID)
			assert.Contains(t, help.Embeds[0].Description, "**/kulami classement** [page] [type] [saison]")
			assert.Contains(t, help.Embeds[0].Description, "[salon_saison]")

			forged := fmt.Sprintf("kulami:leaderboard:%s:%d:0", h.dc.GuildID(), uint64(1)<<40)
			h.refused(h.click(msg.ID, h.alice, forged), "That leaderboard does not exist any more")
		})
	}
}

// chooseSeasonChannel has an admin pick the season channel podium and
// returns the answer.
func (h *harness) chooseSeasonChannel(podium string) string {
	h.t.Helper()
	return h.reply(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("season_channel", podium)))
}

// podiums returns the messages in channel that end a season.
func (h *harness) podiums(channel string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range h.dc.Messages(channel) {
		if len(m.Embeds) == 1 && strings.Contains(m.Embeds[0].Title, "is over") {
			out = append(out, m)
		}
	}
	return out
}

// TestSeasonEndPostsTopThree: when the quarter ends (UTC), the top three
// of the season that ended are posted, once, in the channel an admin
// chose; the season under way when it was chosen is the first posted.
func TestSeasonEndPostsTopThree(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			podium := h.dc.AddChannel("podium")
			dave := h.dc.AddUser("dave")
			h.seedGame(h.store, h.alice, h.bob, engine.Black, time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)) // the season before

			answer := h.chooseSeasonChannel(podium.ID)
			assert.Contains(t, answer, "Settings saved.")
			assert.Contains(t, answer, "**Season channel**: <#"+podium.ID+">")
			msgs := h.dc.Messages(podium.ID)
			require.Len(t, msgs, 1, "the bot says there what it will post")
			assert.Contains(t, msgs[0].Content, "The top three of each Kulami season")

			now := h.clock.Now()
			h.seedGame(h.store, h.carol, h.alice, engine.Black, now.Add(time.Hour))
			h.seedGame(h.store, h.carol, h.bob, engine.Black, now.Add(2*time.Hour))
			h.seedGame(h.store, dave, h.bob, engine.Black, now.Add(3*time.Hour))
			h.seedGame(h.store, h.alice, h.bob, engine.Black, now.Add(4*time.Hour))

			newYear := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
			h.tick(newYear.Add(-time.Minute).Sub(now))
			assert.Empty(t, h.podiums(podium.ID), "nothing before the quarter ends, and the season before the choice is not posted")
			h.tick(time.Minute)
			posts := h.podiums(podium.ID)
			require.Len(t, posts, 1, "the top three when the quarter ends")
			e := posts[0].Embeds[0]
			assert.Equal(t, "🏆 Season 2026 Q4, 1 Oct – 31 Dec is over", e.Title)
			lines := strings.Split(e.Description, "\n")
			require.Len(t, lines, 3, e.Description)
			assert.Contains(t, lines[0], "🥇 **carol**")
			assert.Contains(t, lines[0], "2–0–0")
			assert.Contains(t, lines[1], "🥈 **dave**")
			assert.Contains(t, lines[2], "🥉 **alice**")
			assert.NotContains(t, e.Description, "bob", "three only")
			assert.ElementsMatch(t, []string{h.carol.ID, dave.ID, h.alice.ID}, posts[0].Notified, "the top three are pinged")

			h.tick(24 * time.Hour)
			h.restart()
			h.tick(time.Minute)
			assert.Len(t, h.podiums(podium.ID), 1, "once, across a restart too")
		})
	}
}

// TestSeasonChannelCleared: /kulami settings clear:season_channel takes
// the season channel away, so that no season's top three is posted any
// more; picking a channel and clearing it at once, or clearing a setting
// Discord does not offer (a forged request), is refused and changes
// nothing.
func TestSeasonChannelCleared(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			podium := h.dc.AddChannel("podium")
			h.chooseSeasonChannel(podium.ID)
			stored := func() string {
				s, err := h.store.GuildSettings(t.Context(), h.dc.GuildID())
				require.NoError(t, err)
				return s.SeasonChannel
			}

			h.refused(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("season_channel", podium.ID),
				discordtest.StringOption("clear", "season_channel")), "Pick a season channel or clear it, not both", "nothing was changed")
			h.refused(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.StringOption("clear", "threads")), "Pick the setting to clear from the list.")
			h.refused(h.command(h.channel.ID, h.alice, "settings", discordtest.StringOption("clear", "season_channel")), "needs the **Manage Server** permission")
			fr := func(i *discordgo.Interaction) {
				asAdmin(i)
				i.Locale = discordgo.French
			}
			h.refused(h.commandWith(fr, h.channel.ID, h.alice, "settings", discordtest.StringOption("clear", "threads")), "Choisissez dans la liste le réglage à effacer.")
			assert.Equal(t, podium.ID, stored(), "the refusals changed nothing")

			answer := h.reply(h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.StringOption("clear", "season_channel")))
			assert.Contains(t, answer, "Settings saved.")
			assert.Contains(t, answer, "**Season channel**: none")
			assert.Empty(t, stored())

			h.seedGame(h.store, h.carol, h.bob, engine.Black, h.clock.Now().Add(time.Hour))
			h.tick(time.Date(2027, 1, 1, 0, 1, 0, 0, time.UTC).Sub(h.clock.Now()))
			assert.Empty(t, h.podiums(podium.ID), "no top three once the channel is cleared")
		})
	}
}

// TestSchedulerWakesAtSeasonEnd: the running scheduler sleeps until the
// quarter ends, not a heartbeat longer, and posts the top three then.
func TestSchedulerWakesAtSeasonEnd(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			podium := h.dc.AddChannel("podium")
			h.chooseSeasonChannel(podium.ID)
			h.seedGame(h.store, h.carol, h.bob, engine.Black, h.clock.Now().Add(time.Hour))
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			go func() {
				defer close(done)
				_ = h.bot.RunScheduler(ctx)
			}()
			t.Cleanup(func() { cancel(); <-done })

			newYear := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
			h.clock.AdvanceWaited(t, newYear.Add(-40*time.Second).Sub(h.clock.Now()))
			require.Eventually(t, func() bool {
				s := h.clock.Sleeps()
				return len(s) > 1 && s[len(s)-1] == 40*time.Second
			}, hung, time.Millisecond, "it sleeps until the end of the season, not a whole heartbeat")
			assert.Empty(t, h.podiums(podium.ID))
			h.clock.AdvanceWaited(t, 40*time.Second)
			require.Eventually(t, func() bool { return len(h.podiums(podium.ID)) == 1 }, hung, time.Millisecond, "posted when the quarter ends")
			assert.Contains(t, h.podiums(podium.ID)[0].Embeds[0].Description, "🥇 **carol**")
		})
	}
}

// TestSeasonChannelRefused: a season channel the bot cannot post in is
// refused, with what to do, and nothing is stored; so is one chosen
// without Manage Server.
func TestSeasonChannelRefused(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			perms := int64(discordtest.DefaultAppPermissions) &^ discordgo.PermissionSendMessages
			h := newManualHarness(t, mode, discordtest.WithAppPermissions(perms))
			podium := h.dc.AddChannel("podium")
			i := h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("season_channel", podium.ID))
			h.refused(i, "I cannot post in <#"+podium.ID+">", "**Send Messages**", "nothing was changed")
			h.refused(h.command(h.channel.ID, h.alice, "settings", discordtest.ChannelOption("season_channel", podium.ID)), "needs the **Manage Server** permission")
			s, err := h.store.GuildSettings(t.Context(), h.dc.GuildID())
			require.NoError(t, err)
			assert.Empty(t, s.SeasonChannel, "nothing stored")
			assert.Empty(t, h.dc.Messages(podium.ID))
		})
	}
}

// TestSeasonEndPostedOnceByTwoBots, on PostgreSQL: two bots on one store
// that both wake when the quarter ends post its top three once between
// them.
func TestSeasonEndPostedOnceByTwoBots(t *testing.T) {
	t.Parallel()
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.manual = true
		h.wrap = func(*storage.Store) bot.Store { return pg }
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	podium := h.dc.AddChannel("podium")
	h.chooseSeasonChannel(podium.ID)
	h.seedGame(pg, h.carol, h.alice, engine.Black, h.clock.Now().Add(time.Hour))

	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry})
	t.Cleanup(func() { other.Close(hung) })
	h.clock.Advance(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
	var wg sync.WaitGroup
	for _, b := range []*bot.Bot{h.bot, other, h.bot, other} {
		wg.Go(func() { assert.False(t, b.RunDue(t.Context()), "the work succeeded") })
	}
	wg.Wait()
	h.clock.Advance(time.Hour) // past any lease
	for _, b := range []*bot.Bot{h.bot, other} {
		assert.False(t, b.RunDue(t.Context()))
	}
	posts := h.podiums(podium.ID)
	require.Len(t, posts, 1, "posted once")
	assert.Contains(t, posts[0].Embeds[0].Description, "🥇 **carol**")
}
