package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// policyClocks are the clocks of the table of engine/game's doc,
// "Clocks, pauses and comforts", as a challenge types them: two played
// over days, one under an hour that is not live, two live.
var policyClocks = []struct {
	typed  string
	start  time.Duration
	pauses bool // a vacation, a weekend and quiet hours hold it back
	live   bool // no reminders, no claims
}{
	{"3d", 72 * time.Hour, true, false},
	{"3d+1d", 72 * time.Hour, true, false},
	{"30m", 30 * time.Minute, false, false},
	{"10m", 10 * time.Minute, false, true},
	{"5m+10s", 5 * time.Minute, false, true},
}

// policyCell plays one rule of the table on a game of the clock typed,
// which alice (to move) and bob play in the harness's channel (a new
// one for each cell), and reports whether the rule applied.
type policyCell func(t *testing.T, h *harness, typed string, start time.Duration) bool

// policyGame starts in a new channel of h a game of the clock typed in
// which alice moves first, and returns it once its first board is out.
func policyGame(t *testing.T, h *harness, name, typed string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *storage.Game {
	t.Helper()
	h.channel = h.dc.AddChannel(name)
	return h.challengeAndAccept(append([]*discordgo.ApplicationCommandInteractionDataOption{
		discordtest.StringOption("move_time", typed), discordtest.StringOption("first", "me")}, opts...)...)
}

// storedGame reads the game of the harness's channel.
func storedGame(t *testing.T, h *harness) *storage.Game {
	t.Helper()
	g, err := h.store.Game(t.Context(), h.channel.ID)
	require.NoError(t, err)
	return g
}

// policyRulesThroughDiscord are the table's rules as players meet them:
// each cell in a channel of its own, with what a player types and sees.
var policyRulesThroughDiscord = []struct {
	name   string
	claims bool // the guild keeps its default timeouts, claim
	setup  func(t *testing.T, h *harness)
	cell   policyCell
}{
	{"vacation", false, nil, func(t *testing.T, h *harness, typed string, start time.Duration) bool {
		g := policyGame(t, h, "vacation-"+typed, typed)
		h.tick(time.Minute)
		answer := h.reply(vacation(h, h.alice, "start"))
		line := "<#" + h.channel.ID + "> against bob"
		after := storedGame(t, h)
		left, stopped := after.Stopped()
		defer h.reply(vacation(h, h.alice, "end")) // the next cell starts back from vacation
		if !stopped {
			assertListed(t, answer, "under an hour", line+": a game under an hour, which no vacation stops")
			assert.True(t, after.AwaySince(g.ToMove()).IsZero(), "not away in it")
			assert.Equal(t, g.Deadline(), after.Deadline(), "its clock runs on")
			assert.Empty(t, containing(h.dc, h.channel.ID, "is on vacation"), "nobody is told of a vacation that changes nothing")
			return false
		}
		assertListed(t, answer, "It stops your clock in", line+": your move, your clock is stopped")
		assert.Equal(t, start-time.Minute, left, "stopped with the time it had")
		return true
	}},
	{"weekend", false, func(t *testing.T, h *harness) {
		h.commandWith(manageServer, h.channel.ID, h.alice, "settings", discordtest.StringOption("weekends", "pause"))
		h.tick(time.Date(2026, 11, 27, 15, 30, 0, 0, time.UTC).Sub(h.clock.Now())) // Friday, Saturday 00:30 in Tokyo
	}, func(t *testing.T, h *harness, typed string, start time.Duration) bool {
		// Alice plays from Tokyo, whose weekend has begun; then, from
		// UTC, at Friday 23:58.
		paused := 0
		pauses := func(g *storage.Game) {
			t.Helper()
			board := h.board(g.ChannelID)
			if g.Deadline().Equal(g.Created().Add(start)) {
				assert.NotContains(t, board.Content, "Clocks pause over each player's weekend.", "a game under an hour says no pause")
				assert.Contains(t, board.Content, fmt.Sprintf("due <t:%d:R>", g.Created().Add(start).Unix()))
				return
			}
			assert.Contains(t, board.Content, "Clocks pause over each player's weekend.")
			paused++
		}
		h.command(h.channel.ID, h.alice, "notify", discordtest.StringOption("timezone", "Asia/Tokyo"))
		pauses(policyGame(t, h, "tokyo-"+typed, typed))
		h.command(h.channel.ID, h.alice, "notify", discordtest.StringOption("timezone", "UTC"))
		h.tick(8*time.Hour + 28*time.Minute) // Friday 23:58 UTC
		pauses(policyGame(t, h, "utc-"+typed, typed))
		h.tick(7*24*time.Hour - 8*time.Hour - 28*time.Minute) // the next cell: Friday 15:30 of the next week
		require.NotEqual(t, 1, paused, "both games or neither")
		return paused == 2
	}},
	{"quiet hours", false, func(t *testing.T, h *harness) {
		// Sunday 09:00 UTC: every deadline of the table falls between
		// 09:00 and 11:00, alice's quiet hours.
		h.command(h.channel.ID, h.alice, "notify", discordtest.StringOption("quiet_hours", "09-11"))
	}, func(t *testing.T, h *harness, typed string, start time.Duration) bool {
		g := policyGame(t, h, "quiet-"+typed, typed)
		return !g.Deadline().Equal(g.Created().Add(start))
	}},
	{"give time", false, nil, func(t *testing.T, h *harness, typed string, start time.Duration) bool {
		policyGame(t, h, "give-"+typed, typed)
		i := h.command(h.channel.ID, h.bob, "give_time")
		if !strings.HasPrefix(h.reply(i), "Done: alice's clock now holds") {
			return false
		}
		g := storedGame(t, h)
		assert.Equal(t, start+min(start, 24*time.Hour), g.TimeLeft(g.ToMove(), h.clock.Now()))
		return true
	}},
	{"claim or wait", true, nil, func(t *testing.T, h *harness, typed string, start time.Duration) bool {
		if ranOut(t, h, "claim-"+typed, typed, start) {
			return false
		}
		claim := slices.IndexFunc(h.dc.Messages(h.channel.ID), hasButton("Claim the win"))
		assert.GreaterOrEqual(t, claim, 0, "bob may claim the win")
		return true
	}},
	{"timeouts auto", false, nil, func(t *testing.T, h *harness, typed string, start time.Duration) bool {
		return ranOut(t, h, "auto-"+typed, typed, start)
	}},
}

// TestClockPolicyThroughDiscord plays the table of engine/game's doc,
// "Clocks, pauses and comforts", as players meet it in a server: a game
// under an hour is never stopped by a vacation (whose answer says so), paused over
// a weekend (from Friday 23:58 UTC, or from Friday afternoon UTC in
// Tokyo) nor has its deadline moved by quiet hours; every clock may be
// given time; only a game that is not live waits for a claim. In both
// transports, with a fake clock over days.
func TestClockPolicyThroughDiscord(t *testing.T) {
	t.Parallel()
	for _, rule := range policyRulesThroughDiscord {
		for _, mode := range modes {
			t.Run(rule.name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				h := newHarnessWith(t, mode, func(h *harness) { h.manual, h.claims = true, rule.claims })
				if rule.setup != nil {
					rule.setup(t, h)
				}
				for _, clock := range policyClocks {
					applied := rule.cell(t, h, clock.typed, clock.start)
					if rule.name == "give time" || rule.name == "timeouts auto" {
						assert.True(t, applied, "%s: every clock", clock.typed)
						continue
					}
					if rule.name == "claim or wait" {
						assert.Equal(t, !clock.live, applied, "%s: only a clock that is not live", clock.typed)
						continue
					}
					assert.Equal(t, clock.pauses, applied, "%s: only a clock of an hour or more", clock.typed)
				}
			})
		}
	}
}

// ranOut starts in a new channel named name a game of the clock typed
// (whose start is start), in which alice and bob each move once and
// alice's clock then runs out; it reports whether that ended the game.
func ranOut(t *testing.T, h *harness, name, typed string, start time.Duration) bool {
	t.Helper()
	policyGame(t, h, name, typed)
	h.command(h.channel.ID, h.alice, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(h.channel.ID, 1)
	h.command(h.channel.ID, h.bob, "move", discordtest.StringOption("cell", "D7"))
	h.boardAt(h.channel.ID, 2)
	h.tick(2 * start) // past the deadline, with any increment, and within the claim window
	_, err := h.store.Game(t.Context(), h.channel.ID)
	if err != nil {
		require.ErrorIs(t, err, storage.ErrNotFound, "the game ended")
	}
	return err != nil
}

// assertListed checks that the line is listed in answer under the
// header that holds header.
func assertListed(t *testing.T, answer, header, line string) {
	t.Helper()
	h, l := strings.Index(answer, header), strings.Index(answer, "• "+line)
	assert.True(t, h >= 0 && l > h, "%q lists %q under %q", answer, line, header)
}

// TestLiveWeekendsRefused: a challenge that asks a live clock to pause
// over weekends is refused privately in the reader's language, saying
// what to do, and nothing is stored; on a server that pauses weekends by
// default, the same live challenge without the option is a game that
// never pauses.
func TestLiveWeekendsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "http")
	for _, l := range i18n.Langs() {
		locale := discordgo.Locale(l.DiscordLocales()[0])
		t.Run(l.Name(), func(t *testing.T) {
			i := h.commandWith(speaking(locale, locale), h.channel.ID, h.alice, "challenge", h.userOption(h.bob),
				discordtest.StringOption("move_time", "10m"), discordtest.StringOption("weekends", "pause"))
			text := h.refused(i)
			clock := game.MoveTime{Start: 10 * time.Minute, Kind: game.WholeGame}
			assert.Equal(t, l.T("challenge.live_weekends", "Clock", bot.ClockWords(l, clock)), text)
			if l.Name() != i18n.English.Name() {
				assert.NotEqual(t, i18n.English.T("challenge.live_weekends", "Clock", bot.ClockWords(i18n.English, clock)), text, "in the reader's language")
			}
			_, err := h.store.Challenge(t.Context(), h.channel.ID)
			assert.ErrorIs(t, err, storage.ErrNotFound, "no challenge stored")
		})
	}
	h.commandWith(manageServer, h.channel.ID, h.alice, "settings", discordtest.StringOption("weekends", "pause"))
	board, g := h.open(discordtest.StringOption("move_time", "10m"))
	assert.False(t, g.Weekends(), "a live game never pauses, whatever the server's default")
	assert.NotContains(t, board.Content, "Clocks pause over each player's weekend.")
}
