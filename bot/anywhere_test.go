package bot_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// everywhere is the guild key of the games outside the servers that added
// the bot, and of their ladder.
const everywhere = ""

// users returns the harness's users by ID, and the strangers given.
func (h *harness) users(more ...*discordgo.User) map[string]*discordgo.User {
	out := map[string]*discordgo.User{}
	for _, u := range append([]*discordgo.User{h.alice, h.bob, h.carol}, more...) {
		out[u.ID] = u
	}
	return out
}

// challengeElsewhere has alice challenge opponent in ch, a place the bot
// is not in, and opponent accept; it checks that the challenge is the
// command's own answer, a new message that pinged the opponent, and
// returns the first board once the store knows it, and the game.
func (h *harness) challengeElsewhere(ch *discordgo.Channel, opponent *discordgo.User) (*discordtest.Message, *storage.Game) {
	h.t.Helper()
	i := h.command(ch.ID, h.alice, "challenge", discordtest.UserOption("opponent", opponent.ID))
	r := h.dc.WaitResponse(h.t, i.ID)
	require.Equal(h.t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "the challenge is the answer: %q", r.Content)
	require.False(h.t, r.Ephemeral())
	msg, ok := h.dc.Original(i.ID)
	require.True(h.t, ok)
	assert.Contains(h.t, msg.Notified, opponent.ID, "the challenge pinged the opponent")
	accept := h.click(msg.ID, opponent, buttons(r.Components)["Accept"])
	board := messageAfter(h.t, h.dc, accept, ch.ID, "the first board", func(m *discordtest.Message) bool {
		return boardPly(m) == 0 && len(m.Files) > 0
	})
	g := h.notedBoard(ch.ID, board.ID)
	assert.Contains(h.t, board.Notified, g.Player(g.ToMove()).UserID, "the first board pinged the first mover")
	return board, g
}

// notedBoard waits until the store knows boardID as the board of the game
// in channel, and returns the game.
func (h *harness) notedBoard(channel, boardID string) *storage.Game {
	h.t.Helper()
	var g *storage.Game
	require.Eventually(h.t, func() bool {
		var err error
		g, err = h.store.Game(h.t.Context(), channel)
		return err == nil && g.BoardMessageID == boardID
	}, hung, time.Millisecond, "the bot notes the board %s", boardID)
	return g
}

// playElsewhere plays the first hole of board's first menu for whoever is
// to move in g, and checks that the move was answered with a new message
// (type 4) that holds the new board and pinged the player to move next,
// and that the clicked board lost its menus. It returns the new board and
// the game (nil once it ended).
func (h *harness) playElsewhere(g *storage.Game, board *discordtest.Message, who map[string]*discordgo.User) (*discordtest.Message, *storage.Game) {
	h.t.Helper()
	return h.playOn(g, board, who, true)
}

// playOn is playElsewhere, which checks that the clicked board lost its
// menus only if retires: a board answered before a restart keeps them,
// since the token that edits it is gone with the process.
func (h *harness) playOn(g *storage.Game, board *discordtest.Message, who map[string]*discordgo.User, retires bool) (*discordtest.Message, *storage.Game) {
	h.t.Helper()
	menu := firstMenu(board)
	require.NotEmpty(h.t, menu, "the board has menus")
	mover := who[g.Player(g.ToMove()).UserID]
	i := h.pick(board.ID, mover, menu, menus(board)[menu][0])
	r := h.dc.WaitResponse(h.t, i.ID)
	require.Equal(h.t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "the move is answered with a new message: %q", r.Content)
	next := h.dc.WaitOriginal(h.t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
	if retires {
		assert.Eventually(h.t, func() bool {
			old, _ := h.dc.Message(board.ID)
			return len(menus(old)) == 0
		}, hung, time.Millisecond, "the board clicked loses its menus")
	}
	if _, err := h.store.Game(h.t.Context(), g.ChannelID); err != nil {
		require.ErrorIs(h.t, err, storage.ErrNotFound)
		for _, p := range g.Players() {
			assert.Contains(h.t, next.Notified, p.UserID, "the final board pinged both players")
		}
		return next, nil
	}
	now := h.notedBoard(g.ChannelID, next.ID)
	assert.Equal(h.t, g.Ply()+1, now.Ply())
	assert.Equal(h.t, []string{now.Player(now.ToMove()).UserID}, next.Notified, "the new board pinged the player to move, only them")
	return next, now
}

// TestWholeGameWhereTheBotCannotPost plays a whole game, in both transports,
// in a DM between two users, in a group DM of three and in a server that
// did not add the bot, where the bot is no member: the challenge, the
// acceptance and every move are answered with new messages that ping the
// player whose turn it becomes, old boards lose their menus by their
// interaction's token, the game ends rated on the everywhere ladder, and
// the bot never uses its token there (no request refused by the fake).
func TestWholeGameWhereTheBotCannotPost(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			who := h.users()
			for _, place := range []struct {
				name string
				ch   *discordgo.Channel
			}{
				{"DM", h.dc.AddPrivateChannel(h.alice, h.bob)},
				{"group DM", h.dc.AddPrivateChannel(h.alice, h.bob, h.carol)},
				{"server without the bot", h.dc.AddForeignChannel("elsewhere", true)},
			} {
				t.Run(place.name, func(t *testing.T) {
					board, g := h.challengeElsewhere(place.ch, h.bob)
					assert.Equal(t, everywhere, g.GuildID, "kept under the everywhere key")
					assert.Equal(t, place.ch.GuildID, g.ServerID, "with the server it is played in, if any")
					id := g.ID
					for g != nil {
						board, g = h.playElsewhere(g, board, who)
					}
					assert.Contains(t, buttons(board.Components), "Rematch", "the final board offers a rematch")
					f, err := h.store.FinishedGame(t.Context(), everywhere, id)
					require.NoError(t, err)
					assert.True(t, f.Result().Rated())
				})
			}
			top, total, err := h.store.Leaderboard(t.Context(), everywhere, storage.Human, 0, 10)
			require.NoError(t, err)
			assert.Equal(t, 2, total, "the games rated alice and bob on the everywhere ladder")
			assert.Len(t, top, 2)
			for _, m := range h.dc.Messages(h.channel.ID) {
				t.Errorf("the server's channel got a message: %q", m.Content)
			}
			assert.Empty(t, h.dc.Violations(), "no request refused by the fake")
		})
	}
}

// TestChallengeElsewhereRefused checks the bad challenges where the bot
// cannot post, in both transports: each is refused privately with what to
// do, and nothing is stored: a challenge to yourself, to a bot, to the
// bot itself (the computer plays only in servers), to someone not in the
// DM or group DM, a second challenge in a group DM whose game runs, and
// any in a server that forbids its members external apps (every answer
// would be private).
func TestChallengeElsewhereRefused(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			dm := h.dc.AddPrivateChannel(h.alice, h.bob)
			group := h.dc.AddPrivateChannel(h.alice, h.bob, h.carol)
			strict := h.dc.AddForeignChannel("strict", false)
			robot := &discordgo.User{ID: "424242424242", Username: "robot", Bot: true}
			asBot := func(i *discordgo.Interaction) {
				d := i.Data.(discordgo.ApplicationCommandInteractionData)
				d.Resolved.Users[robot.ID] = robot
				i.Data = d
			}
			h.refused(h.command(dm.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.alice.ID)), "can't play yourself")
			h.refused(h.commandWith(asBot, dm.ID, h.alice, "challenge", discordtest.UserOption("opponent", robot.ID)), "robot", "bot")
			text := h.refused(h.commandWith(asBot, group.ID, h.alice, "challenge", discordtest.UserOption("opponent", robot.ID)), "robot", "challenge a person in this conversation")
			assert.NotContains(t, text, "To play the computer, use **/kulami play**", "a group DM refuses /kulami play: it is not suggested as if it worked there")
			h.refused(h.command(dm.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.dc.BotUser().ID)), "need a server that added me", "/kulami play")
			h.refused(h.command(dm.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.carol.ID)), "carol is not in this conversation")
			h.refused(h.command(strict.ID, h.alice, "challenge", discordtest.UserOption("opponent", h.bob.ID)), "can't be played here")
			for _, ch := range []*discordgo.Channel{dm, strict} {
				_, err := h.store.Challenge(t.Context(), ch.ID)
				assert.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")
			}

			h.challengeElsewhere(group, h.bob)
			h.refused(h.command(group.ID, h.carol, "challenge", discordtest.UserOption("opponent", h.alice.ID)), "alice", "bob")
			assert.Empty(t, h.dc.Violations(), "no request refused by the fake")
		})
	}
}

// dmsTo returns the bot's DMs to a user so far.
func (h *harness) dmsTo(u *discordgo.User) []*discordtest.Message {
	return h.dc.Messages(h.dc.DMChannel(u.ID).ID)
}

// TestRemindersAndTimeoutsByDM checks, in both transports and by the fake
// clock, a game in a DM where the bot cannot post, between alice and a
// player who can receive no DM (dave: no shared server, no install): the
// reminder goes by DM to alice when it is her move, the game's state is
// the same after a restart (a move on its board still plays, a click on
// a board from before it is refused as out of date, and its Refresh shows
// the current board anew), the timeout's final
// board goes by DM to alice, dave's DMs are refused by Discord (50007,
// no violation), and dave's next click on an old board shows him how the
// game ended.
func TestRemindersAndTimeoutsByDM(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			dave := h.dc.AddStranger("dave")
			who := h.users(dave)
			dm := h.dc.AddPrivateChannel(h.alice, dave)
			board, g := h.challengeElsewhere(dm, dave)
			if g.Player(g.ToMove()).UserID == dave.ID {
				board, g = h.playElsewhere(g, board, who) // alice to move: she gets the reminder
			}
			require.Equal(t, h.alice.ID, g.Player(g.ToMove()).UserID)
			before := len(h.dmsTo(h.alice))
			h.tick(g.Wake().Sub(h.clock.Now()))
			dms := h.dmsTo(h.alice)
			require.Len(t, dms, before+1, "a reminder by DM")
			assert.Contains(t, dms[before].Content, "your move in Kulami against dave")
			assert.Contains(t, dms[before].Content, "https://discord.com/channels/@me/"+dm.ID+"/"+board.ID, "it links to the board")

			h.restart()
			again, err := h.store.Game(t.Context(), dm.ID)
			require.NoError(t, err)
			assert.Equal(t, g.Ply(), again.Ply(), "the same game after the restart")
			assert.Equal(t, board.ID, again.BoardMessageID)
			old := board
			_, g = h.playOn(again, board, who, false)
			require.NotNil(t, g)
			mover := who[g.Player(g.ToMove()).UserID]
			stale := h.pick(old.ID, mover, firstMenu(old), menus(old)[firstMenu(old)][1])
			h.refused(stale, "out of date")
			refresh := h.click(old.ID, h.alice, buttons(old.Components)["Refresh"])
			r := h.dc.WaitResponse(t, refresh.ID)
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "Refresh on an old board: %q", r.Content)
			board = h.dc.WaitOriginal(t, refresh.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
			assert.Equal(t, g.Ply(), h.notedBoard(dm.ID, board.ID).Ply(), "the current board, shown anew")

			requestsBefore := len(h.dc.Requests())
			for g != nil {
				h.tick(g.Wake().Sub(h.clock.Now()))
				if g, err = h.store.Game(t.Context(), dm.ID); errors.Is(err, storage.ErrNotFound) {
					g = nil
				}
			}
			last := h.dmsTo(h.alice)
			require.NotEmpty(t, last)
			assert.True(t, slices.ContainsFunc(last[len(last)-1].Files, func(f discordtest.File) bool { return f.Name == "board.png" }), "the final board by DM")
			refused := 0
			for _, r := range h.dc.Requests()[requestsBefore:] {
				if r.Status == 403 {
					refused++
				}
			}
			assert.Positive(t, refused, "Discord refused the DMs to dave")

			click := h.pick(board.ID, dave, firstMenu(board), menus(board)[firstMenu(board)][0])
			r = h.dc.WaitResponse(t, click.ID)
			assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
			final := h.dc.WaitOriginal(t, click.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
			assert.Contains(t, buttons(final.Components), "Rematch", "the click shows the final board")
			assert.Contains(t, final.Content, "time", "it says the game was lost on time")
			assert.Empty(t, h.dc.Violations(), "no request refused by the fake but the DMs Discord refuses")
		})
	}
}

// firstMenu returns the custom ID of a board's first hole menu.
func firstMenu(m *discordtest.Message) string {
	first := ""
	for id := range menus(m) {
		if first == "" || id < first {
			first = id
		}
	}
	return first
}

// TestResignDrawRematchElsewhere checks, in both transports, the rest of a
// game in a group DM where the bot cannot post, each an answer and never
// a post: Refresh on the current board tells its clicker privately, a
// draw offer is a new message that pings the opponent (declined by its
// button), resigning answers with the final board pinging both players,
// and Rematch with a new challenge pinging the other player, whose
// acceptance starts the next game there; /kulami games mine:true links to
// the board, and /kulami leaderboard ladder:everywhere ranks the players.
func TestResignDrawRematchElsewhere(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			who := h.users()
			group := h.dc.AddPrivateChannel(h.alice, h.bob, h.carol)
			board, g := h.challengeElsewhere(group, h.bob)
			board, g = h.playElsewhere(g, board, who)

			refresh := h.click(board.ID, h.carol, buttons(board.Components)["Refresh"])
			h.refused(refresh, "the current one")

			mine := h.command(group.ID, h.alice, "games", &discordgo.ApplicationCommandInteractionDataOption{Name: "mine", Type: discordgo.ApplicationCommandOptionBoolean, Value: true})
			r := h.dc.WaitResponse(t, mine.ID)
			require.NotEmpty(t, r.Embeds)
			assert.True(t, r.Ephemeral())
			assert.Contains(t, r.Embeds[0].Description, "https://discord.com/channels/@me/"+group.ID+"/"+board.ID, "a link to the board")

			mover, other := who[g.Player(g.ToMove()).UserID], who[g.Player(g.ToMove().Other()).UserID]
			offer := h.command(group.ID, mover, "draw")
			r = h.dc.WaitResponse(t, offer.ID)
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
			offered, _ := h.dc.Original(offer.ID)
			assert.Equal(t, []string{other.ID}, offered.Notified, "the offer pinged the opponent")
			h.click(offered.ID, other, buttons(r.Components)["Decline"])

			resign := h.click(board.ID, mover, buttons(board.Components)["Resign"])
			ask := h.dc.WaitResponse(t, resign.ID)
			sure := h.dc.WaitOriginal(t, resign.ID, func(*discordtest.Message) bool { return true })
			yes := h.click(sure.ID, mover, buttons(ask.Components)["Yes, resign"])
			final := messageAfter(t, h.dc, yes, group.ID, "the final board", hasButton("Rematch"))
			assert.ElementsMatch(t, []string{h.alice.ID, h.bob.ID}, final.Notified, "the final board pinged both players")
			_, err := h.store.Game(t.Context(), group.ID)
			require.ErrorIs(t, err, storage.ErrNotFound, "the game ended")

			rematch := h.click(final.ID, h.bob, buttons(final.Components)["Rematch"])
			r = h.dc.WaitResponse(t, rematch.ID)
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "the rematch offer is the answer: %q", r.Content)
			again, _ := h.dc.Original(rematch.ID)
			assert.Equal(t, []string{h.alice.ID}, again.Notified, "the rematch pinged the other player")
			accept := h.click(again.ID, h.alice, buttons(r.Components)["Accept"])
			next := messageAfter(t, h.dc, accept, group.ID, "the rematch's board", func(m *discordtest.Message) bool { return boardPly(m) == 0 })
			h.notedBoard(group.ID, next.ID)

			lb := h.command(h.channel.ID, h.carol, "leaderboard", discordtest.StringOption("ladder", "everywhere"))
			r = h.dc.WaitResponse(t, lb.ID)
			require.NotEmpty(t, r.Embeds)
			assert.Contains(t, r.Embeds[0].Title, "everywhere")
			assert.Contains(t, r.Embeds[0].Description, "alice")
			assert.Contains(t, r.Embeds[0].Description, "bob")
			assert.Empty(t, h.dc.Violations(), "no request refused by the fake")
		})
	}
}

// TestExportElsewhereOnlyToItsPlayers checks that outside the servers a
// finished game's record, asked for by number, goes to its players and
// not to someone else, who is told there is no such game.
func TestExportElsewhereOnlyToItsPlayers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	dm := h.dc.AddPrivateChannel(h.alice, h.bob)
	board, g := h.challengeElsewhere(dm, h.bob)
	board, g = h.playElsewhere(g, board, h.users())
	mover := h.users()[g.Player(g.ToMove()).UserID]
	resign := h.click(board.ID, mover, buttons(board.Components)["Resign"])
	ask := h.dc.WaitResponse(t, resign.ID)
	sure := h.dc.WaitOriginal(t, resign.ID, func(*discordtest.Message) bool { return true })
	yes := h.click(sure.ID, mover, buttons(ask.Components)["Yes, resign"])
	messageAfter(t, h.dc, yes, dm.ID, "the final board", hasButton("Rematch"))

	game := discordtest.IntegerOption("game", int64(g.ID))
	elsewhere := h.dc.AddPrivateChannel(h.alice, h.carol)
	export := h.command(elsewhere.ID, h.alice, "export", game)
	m := h.dc.WaitOriginal(t, export.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
	assert.Equal(t, "kulami-"+strconv.FormatUint(g.ID, 10)+".kgn", m.Files[0].Name, "a player gets the record")
	refusal := h.refused(h.command(elsewhere.ID, h.carol, "export", game), "#"+strconv.FormatUint(g.ID, 10))
	assert.Contains(t, refusal, "outside the servers", "no server is named where there is none")
	assert.NotContains(t, refusal, "in this server")
	assert.Empty(t, h.dc.Violations())
}

// TestEmptyListsElsewhereNameNoServer checks that outside the servers
// that added the bot, before any game, /kulami history, games and stats
// say so without naming a server, where there is none.
func TestEmptyListsElsewhereNameNoServer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	dm := h.dc.AddPrivateChannel(h.alice, h.bob)
	mine := &discordgo.ApplicationCommandInteractionDataOption{Name: "mine", Type: discordgo.ApplicationCommandOptionBoolean, Value: true}
	for _, tc := range []struct {
		name    string
		command string
		options []*discordgo.ApplicationCommandInteractionDataOption
		want    string
	}{
		{"history", "history", nil, "No finished games outside the servers"},
		{"games", "games", []*discordgo.ApplicationCommandInteractionDataOption{mine}, "You have no game going on"},
		{"own stats", "stats", nil, "You have no rated games outside the servers"},
		{"another's stats", "stats", []*discordgo.ApplicationCommandInteractionDataOption{discordtest.UserOption("player", h.bob.ID)}, "no rated games outside the servers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := h.command(dm.ID, h.alice, tc.command, tc.options...)
			r := h.dc.WaitResponse(t, i.ID)
			text := r.Content
			for _, e := range r.Embeds {
				text += e.Description
			}
			assert.True(t, r.Ephemeral(), "answered only to the asker")
			assert.Contains(t, text, tc.want)
			assert.NotContains(t, text, "server yet")
			assert.NotContains(t, text, "in this server")
		})
	}
	assert.Empty(t, h.dc.Violations())
}
