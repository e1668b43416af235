package bot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

// inFrench sets an interaction's locales to French, the user's and the
// server's.
var inFrench = speaking(discordgo.French, discordgo.French)

// quietForAlice reports whether t falls in alice's quiet hours of these
// tests, 21-09 UTC.
func quietForAlice(t time.Time) bool { h := t.UTC().Hour(); return h >= 21 || h < 9 }

// newQuietHarness is a manual harness whose guild keeps claims, and
// whose fake Discord reads the bot's fake clock, so that each mention is
// recorded at the time the bot sent it.
func newQuietHarness(t *testing.T, mode string) *harness {
	var clock *fakeClock
	return newHarnessWith(t, mode, func(h *harness) { h.manual, h.claims, clock = true, true, h.clock },
		discordtest.WithClock(func() time.Time {
			if clock == nil {
				return newFakeClock().Now()
			}
			return clock.Now()
		}))
}

// until moves the fake clock hour by hour (so that each due notice
// comes at its time, not at the end) until t, doing what is due.
func (h *harness) until(t time.Time) {
	h.t.Helper()
	for h.clock.Now().Before(t) {
		h.tick(min(time.Hour, t.Sub(h.clock.Now())))
	}
}

// moveIn plays the first hole of board's first menu as user, in French,
// in a game where the bot cannot post, and returns the new board.
func (h *harness) moveIn(board *discordtest.Message, user *discordgo.User) *discordtest.Message {
	h.t.Helper()
	menu := firstMenu(board)
	require.NotEmpty(h.t, menu, "the board has menus")
	i := h.sendWith(inFrench, h.dc.Select(board.ID, user, menu, menus(board)[menu][0]))
	return h.dc.WaitOriginal(h.t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
}

// TestEveryNoticeInQuietHoursAndDMs plays, in both transports and by the
// fake clock, two games in a DM between two French players where the bot
// cannot post, alice with quiet hours 21-09: every notice reaches her
// (the challenge, the board that hands her the turn, time given, a
// reminder, the claim and its buttons, clicked in her DM, the final
// boards, an opponent's vacation, an abort for her opponent's missing
// first move), none pings her inside her quiet hours (those that come
// then are silent: SUPPRESS_NOTIFICATIONS), and no English sentence
// reaches either player: the scheduler's DMs are in each reader's
// language. vacation status links the DM game under @me, not "another
// server".
func TestEveryNoticeInQuietHoursAndDMs(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newQuietHarness(t, mode)
			alice, bob := h.alice, h.bob
			h.commandWith(inFrench, h.channel.ID, alice, "notify", discordtest.StringOption("quiet_hours", "21-09"))
			h.commandWith(inFrench, h.channel.ID, bob, "notify")
			dm := h.dc.AddPrivateChannel(alice, bob)
			start := h.clock.Now() // Sunday 09:00 UTC
			day := func(d, hour, minute int) time.Time {
				return start.Add(time.Duration(d)*24*time.Hour + time.Duration(hour-9)*time.Hour + time.Duration(minute)*time.Minute)
			}

			// Game 1: alice moves first; bob hands her the turn at 22:00.
			challenge := h.commandWith(inFrench, dm.ID, bob, "challenge", discordtest.UserOption("opponent", alice.ID), discordtest.StringOption("first", "them"))
			ch, ok := h.dc.Original(challenge.ID)
			require.True(t, ok)
			accept := h.sendWith(inFrench, h.dc.Button(ch.ID, alice, buttonFor(t, ch, ":accept:")))
			board := messageAfter(t, h.dc, accept, dm.ID, "the first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 && len(m.Files) > 0 })
			board = h.moveIn(board, alice)
			h.until(day(0, 22, 0))
			handOver := h.moveIn(board, bob)
			assert.NotContains(t, handOver.Notified, alice.ID, "the board that hands alice the turn at 22:00 is silent")
			h.until(day(0, 23, 0))
			give := h.commandWith(inFrench, dm.ID, bob, "give_time")
			given, ok := h.dc.Original(give.ID)
			require.True(t, ok)
			assert.Contains(t, given.Content, "<@"+alice.ID+">", "the time given is told to alice")
			assert.Empty(t, given.Notified, "silent at 23:00")

			// alice moves on Tuesday 22:30; bob's clock runs out on Friday
			// 22:30, in her quiet hours: the claim comes by DM, silent.
			h.until(day(2, 22, 30))
			g, err := h.store.Game(t.Context(), dm.ID)
			require.NoError(t, err)
			require.Equal(t, alice.ID, g.Player(g.ToMove()).UserID)
			h.moveIn(handOver, alice)
			h.until(day(5, 23, 0))
			var claimDM *discordtest.Message
			for _, m := range h.dmsTo(alice) {
				if strings.HasPrefix(m.Content, "⌛") {
					claimDM = m
				}
			}
			require.NotNil(t, claimDM, "the claim by DM")
			assert.Contains(t, claimDM.Content, "a dépassé son temps", "in French")
			assert.Empty(t, claimDM.Notified, "silent in her quiet hours")
			claim := h.sendWith(inFrench, h.dc.Button(claimDM.ID, alice, buttonFor(t, claimDM, ":claim-dm:")))
			r := h.dc.WaitResponse(t, claim.ID)
			assert.False(t, r.Ephemeral(), "the claim's DM is updated: %q", r.Content)
			_, err = h.store.Game(t.Context(), dm.ID)
			require.ErrorIs(t, err, storage.ErrNotFound, "the claim from the DM ended the game")
			h.dc.WaitUntil(t, "the final board by DM to bob", func() bool {
				return slices.ContainsFunc(h.dmsTo(bob), func(m *discordtest.Message) bool {
					return slices.ContainsFunc(m.Files, func(f discordtest.File) bool { return f.Name == "board.png" })
				})
			})

			// Game 2 on Saturday: alice moves, bob takes a vacation at
			// 22:00 and ends it, then never moves: an abort that tells both.
			h.until(day(6, 10, 0))
			challenge = h.commandWith(inFrench, dm.ID, bob, "challenge", discordtest.UserOption("opponent", alice.ID), discordtest.StringOption("first", "them"))
			ch, ok = h.dc.Original(challenge.ID)
			require.True(t, ok)
			accept = h.sendWith(inFrench, h.dc.Button(ch.ID, alice, buttonFor(t, ch, ":accept:")))
			board = messageAfter(t, h.dc, accept, dm.ID, "the first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 && len(m.Files) > 0 })
			h.moveIn(board, alice)
			h.until(day(6, 22, 0))
			before := len(h.dmsTo(alice))
			h.commandWith(inFrench, h.channel.ID, bob, "vacation", discordtest.StringOption("action", "start"))
			h.dc.WaitUntil(t, "alice told of bob's vacation by DM", func() bool { return len(h.dmsTo(alice)) > before })
			dms := h.dmsTo(alice)
			require.Len(t, dms, before+1, "alice is told of bob's vacation by DM")
			assert.Contains(t, dms[before].Content, "vacances", "in French")
			assert.Empty(t, dms[before].Notified, "silent at 22:00")
			status := h.reply(h.commandWith(inFrench, h.channel.ID, bob, "vacation", discordtest.StringOption("action", "status")))
			assert.Contains(t, status, "https://discord.com/channels/@me/"+dm.ID, "a DM game's link opens")
			assert.NotContains(t, status, "autre serveur", "a DM is not another server")
			h.commandWith(inFrench, h.channel.ID, bob, "vacation", discordtest.StringOption("action", "end"))
			g, err = h.store.Game(t.Context(), dm.ID)
			require.NoError(t, err)
			h.until(g.Deadline().Add(time.Hour))
			_, err = h.store.Game(t.Context(), dm.ID)
			require.ErrorIs(t, err, storage.ErrNotFound, "the game ended on bob's clock")
			dms = h.dmsTo(alice)
			final := dms[len(dms)-1]
			assert.Contains(t, final.Content, "n’a pas joué son premier coup", "alice, who waited, is told of the abort, in French")
			assert.Contains(t, final.Content, "votre adversaire n’a jamais commencé")

			// Every ping of alice came out of her quiet hours; the
			// notices of those hours came silent.
			silent := 0
			for _, m := range h.dc.Mentions() {
				if m.UserID != alice.ID {
					continue
				}
				if m.Notified {
					assert.False(t, quietForAlice(m.At), "alice pinged at %s in her quiet hours: %q", m.At, m.Content)
				} else if m.Why == discordtest.NotNotifiedSilent {
					silent++
				}
			}
			assert.GreaterOrEqual(t, silent, 4, "the hand-over, the time given, the claim and the vacation came silent")

			// No English sentence in the DM game nor in either player's DMs.
			var seen []string
			for _, c := range []string{dm.ID, h.dc.DMChannel(alice.ID).ID, h.dc.DMChannel(bob.ID).ID} {
				for _, m := range h.dc.Messages(c) {
					seen = append(seen, m.Content)
					for _, e := range m.Embeds {
						seen = append(seen, e.Title, e.Description)
					}
				}
			}
			assert.Empty(t, english(englishPhrases(t), seen), "every notice in the readers' language")
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// TestNoPingInQuietHoursInAServer: in a server, the message that says
// time was given and the one that says a clock ran out (claim or wait)
// come without a ping in the reader's quiet hours (21-09), as the board
// that hands her the turn; at 09:00, when they end, a board pings her.
func TestNoPingInQuietHoursInAServer(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newQuietHarness(t, mode)
			ch := h.channel.ID
			h.command(ch, h.alice, "notify", discordtest.StringOption("quiet_hours", "21-09"))
			// Sunday 09:00 UTC: bob challenges alice, who moves first.
			i := h.command(ch, h.bob, "challenge", h.userOption(h.alice), discordtest.StringOption("first", "them"), discordtest.StringOption("move_time", "1d"))
			msg := messageAfter(t, h.dc, i, ch, "the challenge", hasButton("Accept"))
			h.click(msg.ID, h.alice, buttons(msg.Components)["Accept"])
			h.boardAt(ch, 0)
			playAny(t, h) // alice
			playAny(t, h) // bob
			assert.Equal(t, []string{h.alice.ID}, h.boardAt(ch, 2).Notified, "at 09:00, when her quiet hours end, the board pings her")
			h.until(h.clock.Now().Add(7 * time.Hour)) // 16:00
			playAny(t, h)                             // alice
			playAny(t, h)                             // bob: alice's day runs to Monday 16:00

			h.until(h.clock.Now().Add(7 * time.Hour)) // 23:00
			give := h.command(ch, h.bob, "give_time")
			told := messageAfter(t, h.dc, give, ch, "the time given", func(m *discordtest.Message) bool { return strings.HasPrefix(m.Content, "⏳") })
			assert.Contains(t, told.Content, "<@"+h.alice.ID+">")
			assert.Empty(t, told.Notified, "no ping at 23:00, in alice's quiet hours")

			playAny(t, h) // alice, at 23:00: bob's day runs out on Monday 23:00
			assert.Equal(t, []string{h.bob.ID}, h.boardAt(ch, 5).Notified, "bob has no quiet hours")
			h.until(h.clock.Now().Add(24*time.Hour + time.Minute))
			var claim *discordtest.Message
			for _, m := range h.dc.Messages(ch) {
				if strings.HasPrefix(m.Content, "⌛") {
					claim = m
				}
			}
			require.NotNil(t, claim, "the claim message")
			assert.Contains(t, claim.Content, "<@"+h.alice.ID+">")
			assert.Empty(t, claim.Notified, "no ping at 23:00, in alice's quiet hours")
			for _, m := range h.dc.Notifications(h.alice.ID) {
				assert.False(t, quietForAlice(m.At), "alice pinged at %s in her quiet hours: %q", m.At, m.Content)
			}
		})
	}
}

// TestOneSittingPingsAtNight: a game under an hour pings at any hour,
// its players being at the board (game.MoveTime.Hushes).
func TestOneSittingPingsAtNight(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	ch := h.channel.ID
	h.command(ch, h.alice, "notify", discordtest.StringOption("quiet_hours", "21-09"))
	h.tick(13 * time.Hour) // 22:00
	g := h.challengeAndAccept(discordtest.StringOption("move_time", "10m"), discordtest.StringOption("first", "them"))
	require.True(t, g.Clock().OneSitting())
	require.Equal(t, h.bob.ID, g.Player(g.ToMove()).UserID)
	playAny(t, h) // bob hands alice the turn at 22:00
	b := h.boardAt(ch, 1)
	assert.Equal(t, []string{h.alice.ID}, b.Notified, "the board that hands alice the turn pings her at 22:00")
}

// TestDMChallengeInOpponentsLanguage: a challenge in a DM is addressed
// to the challenged player, in their language when the bot knows it
// (carol spoke English to it), else in the challenger's (bob never
// spoke to it).
func TestDMChallengeInOpponentsLanguage(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			h.command(h.channel.ID, h.carol, "notify") // in English
			toCarol := h.dc.AddPrivateChannel(h.alice, h.carol)
			i := h.commandWith(inFrench, toCarol.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.carol.ID))
			m, ok := h.dc.Original(i.ID)
			require.True(t, ok)
			assert.Contains(t, m.Content, "challenges you to a game", "in carol's English")
			assert.Contains(t, buttons(m.Components), "Accept")
			assert.NotContains(t, buttons(m.Components), "Accepter")

			toBob := h.dc.AddPrivateChannel(h.alice, h.bob)
			i = h.commandWith(inFrench, toBob.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.bob.ID))
			m, ok = h.dc.Original(i.ID)
			require.True(t, ok)
			assert.Contains(t, buttons(m.Components), "Accepter", "bob's language is not known: alice's French")
		})
	}
}

// TestKeepWaitingFromTheClaimDM: in a game where the bot cannot post,
// the claim comes by DM with buttons that work there: Keep waiting
// updates the DM (in alice's English), tells the late player by DM, in
// his language (French, as he played), that he may still move, and the
// game goes on.
func TestKeepWaitingFromTheClaimDM(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newQuietHarness(t, mode)
			dm := h.dc.AddPrivateChannel(h.alice, h.bob)
			i := h.command(dm.ID, h.bob, "challenge", discordtest.UserOption("opponent", h.alice.ID),
				discordtest.StringOption("first", "them"), discordtest.StringOption("move_time", "1h"))
			ch, ok := h.dc.Original(i.ID)
			require.True(t, ok)
			accept := h.click(ch.ID, h.alice, buttonFor(t, ch, ":accept:"))
			board := messageAfter(t, h.dc, accept, dm.ID, "the first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 && len(m.Files) > 0 })
			board = h.moveIn(board, h.alice)
			board = h.moveIn(board, h.bob)
			h.moveIn(board, h.alice)
			h.until(h.clock.Now().Add(time.Hour + time.Minute)) // bob's hour is out
			var claimDM *discordtest.Message
			for _, m := range h.dmsTo(h.alice) {
				if strings.HasPrefix(m.Content, "⌛") {
					claimDM = m
				}
			}
			require.NotNil(t, claimDM, "the claim by DM")
			assert.Equal(t, []string{h.alice.ID}, claimDM.Notified, "it pings alice, who has no quiet hours")
			before := len(h.dmsTo(h.bob))
			wait := h.click(claimDM.ID, h.alice, buttonFor(t, claimDM, ":claim-wait-dm:"))
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, h.dc.WaitResponse(t, wait.ID).Type)
			h.dc.WaitUntil(t, "bob told by DM", func() bool { return len(h.dmsTo(h.bob)) > before })
			assert.Contains(t, h.dmsTo(h.bob)[before].Content, "vous pouvez toujours jouer", "in bob's language: he played in French (moveIn)")
			updated, _ := h.dc.Message(claimDM.ID)
			assert.Contains(t, updated.Content, "You keep waiting")
			_, err := h.store.Game(t.Context(), dm.ID)
			assert.NoError(t, err, "the game goes on")
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// quietAtNight reports whether t falls in the quiet hours 22-10 UTC of
// TestEveryServerNoticeInQuietHours, which cover 09:00 (when its rounds
// start and end) and midnight (when a season ends).
func quietAtNight(t time.Time) bool { h := t.UTC().Hour(); return h >= 22 || h < 10 }

// TestEveryServerNoticeInQuietHours: in a server whose language is
// French, players (French, with quiet hours 22-10) receive, in both
// transports and by the fake clock, every notice of a tournament and a
// season inside their quiet hours: the pairings post with its bye, each
// game's first ping of its two players, a forfeit, an adjudication, the
// podium, the next round's pairings, the cancel of a second tournament,
// the season's top three, a challenge and a rematch offer. Each is sent and names them, none pings
// them inside their quiet hours (each mention then is silent or
// dropped), the reminders of the round come after them, and none says
// an English catalog sentence.
func TestEveryServerNoticeInQuietHours(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			french := func(c *cup) {
				h := c.h
				c.speak = inFrench
				text := h.reply(h.commandWith(func(i *discordgo.Interaction) { inFrench(i); asAdmin(i) }, h.channel.ID, h.alice, "settings", discordtest.StringOption("language", "fr")))
				require.NotEmpty(t, text)
				for _, u := range c.players {
					h.commandWith(inFrench, h.channel.ID, u, "notify", discordtest.StringOption("quiet_hours", "22-10"))
				}
			}
			c := startCupAfter(t, mode, 5, french, str("name", "Coupe"), num("rounds", 2), num("days_per_round", 2), str("move_time", "3d"))
			h := c.h
			players := map[string]bool{}
			for _, u := range c.players {
				players[u.ID] = true
			}
			// stage checks that what happened since the mentions before
			// named a player, and pinged none of them in quiet hours; it
			// counts the reminders, which come out of quiet hours.
			reminders := 0
			stage := func(what string, before int) int {
				t.Helper()
				all := h.dc.Mentions()
				named := 0
				for _, m := range all[before:] {
					if !players[m.UserID] {
						continue
					}
					named++
					if strings.HasPrefix(m.Content, "⏰") {
						reminders++
						assert.False(t, quietAtNight(m.At), "a reminder waits for quiet hours to end; came at %s: %q", m.At, m.Content)
					}
					if quietAtNight(m.At) {
						assert.False(t, m.Notified, "%s pings %s at %s, in quiet hours: %q", what, m.UserID, m.At, m.Content)
					}
				}
				assert.Positive(t, named, "%s names its players", what)
				return len(all)
			}
			seen := stage("round 1's pairings, its bye and each game's first ping", 0)
			r, chans := c.round(1)
			require.NotEmpty(t, r.Bye, "five players: a bye")
			require.Len(t, chans, 2)
			c.move(chans[0][0])
			c.move(chans[0][0]) // both moved: adjudicated at the deadline
			seen = stage("the boards that hand over the turn", seen)
			h.until(h.clock.Now().Add(48 * time.Hour)) // the round's deadline, Wednesday 09:00: board 2 untouched, a forfeit
			seen = stage("the reminders, the adjudication, the forfeit and round 2's pairings", seen)
			assert.Positive(t, reminders, "the players to move are reminded, after their quiet hours")
			_, round := c.stored(1).State()
			require.Equal(t, 2, round)
			_, chans2 := c.round(2)
			for i, p := range c.stored(1).Rounds()[1].Pairings {
				c.resign(chans2[i][0], c.byID[p.Second])
			}
			h.tick(time.Minute)
			seen = stage("the final boards and the podium", seen)
			phase, _ := c.stored(1).State()
			require.Equal(t, tournament.Finished, phase)

			// A second tournament, cancelled while its games are played.
			text, _ := c.tournament(h.alice, manager, "create", str("start", "1d"), str("name", "Coupe 2"), num("rounds", 2), num("days_per_round", 2), str("move_time", "3d"))
			require.NotEmpty(t, text)
			c.announced(2)
			for _, u := range c.players[:4] {
				c.answer(u, "join")
			}
			h.tick(24 * time.Hour)
			seen = stage("the second tournament's pairings", seen)
			_, i := c.tournament(h.alice, manager, "cancel")
			h.dc.WaitResponse(t, i.ID)
			phase, _ = c.stored(2).State()
			require.Equal(t, tournament.Cancelled, phase)
			seen = stage("the cancel", seen)

			// The season's top three, posted at midnight when the quarter ends.
			podium := h.dc.AddChannel("podium")
			h.commandWith(func(i *discordgo.Interaction) { inFrench(i); asAdmin(i) }, h.channel.ID, h.alice, "settings", discordtest.ChannelOption("season_channel", podium.ID))
			now := h.clock.Now()
			next := time.Date(now.Year(), (now.Month()-1)/3*3+4, 1, 0, 0, 0, 0, time.UTC)
			h.tick(next.Sub(now) + time.Minute)
			posts := h.dc.Messages(podium.ID)
			require.Len(t, posts, 2, "what the channel is for, then the season's top three")
			require.Len(t, posts[1].Embeds, 1)
			seen = stage("the season's top three", seen)

			// Still at night: bob challenges alice, she resigns, he offers a rematch.
			i = h.commandWith(inFrench, h.channel.ID, h.bob, "challenge", h.userOption(h.alice), discordtest.StringOption("move_time", "1d"))
			challenge := messageAfter(t, h.dc, i, h.channel.ID, "the challenge", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "<@"+h.alice.ID+">") })
			seen = stage("the challenge", seen)
			h.sendWith(inFrench, h.dc.Button(challenge.ID, h.alice, buttonFor(t, challenge, ":accept:")))
			h.boardAt(h.channel.ID, 0)
			c.resign(h.channel.ID, h.alice)
			final := h.board(h.channel.ID)
			rematch := h.sendWith(inFrench, h.dc.Button(final.ID, h.bob, buttonFor(t, final, ":rematch:")))
			messageAfter(t, h.dc, rematch, h.channel.ID, "the rematch offer to alice", func(m *discordtest.Message) bool {
				return strings.Contains(m.Content, "<@"+h.alice.ID+">") && len(buttons(m.Components)) > 0
			})
			stage("the rematch offer", seen)

			var texts []string
			for _, ch := range append([]string{h.channel.ID, podium.ID}, slices.Concat(chans[0], chans[1], chans2[0], chans2[1])...) {
				for _, m := range h.dc.Messages(ch) {
					texts = append(texts, messageTexts(m.Content, m.Embeds, m.Components, m.Files)...)
				}
			}
			assert.Empty(t, english(englishPhrases(t), texts), "every notice in the server's French")
			assert.Empty(t, h.dc.Violations())
		})
	}
}
