package bot_test

import (
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
	}, 10*time.Second, time.Millisecond, "the bot notes the board %s", boardID)
	return g
}

// playElsewhere plays the first hole of board's first menu for whoever is
// to move in g, and checks that the move was answered with a new message
// (type 4) that holds the new board and pinged the player to move next,
// and that the clicked board lost its menus. It returns the new board and
// the game (nil once it ended).
func (h *harness) playElsewhere(g *storage.Game, board *discordtest.Message, who map[string]*discordgo.User) (*discordtest.Message, *storage.Game) {
	h.t.Helper()
	var menu string
	for id := range menus(board) {
		if menu == "" || id < menu {
			menu = id
		}
	}
	require.NotEmpty(h.t, menu, "the board has menus")
	mover := who[g.Player(g.ToMove()).UserID]
	i := h.pick(board.ID, mover, menu, menus(board)[menu][0])
	r := h.dc.WaitResponse(h.t, i.ID)
	require.Equal(h.t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "the move is answered with a new message: %q", r.Content)
	next := h.dc.WaitOriginal(h.t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
	assert.Eventually(h.t, func() bool {
		old, _ := h.dc.Message(board.ID)
		return len(menus(old)) == 0
	}, 10*time.Second, time.Millisecond, "the board clicked loses its menus")
	now, err := h.store.Game(h.t.Context(), g.ChannelID)
	if err != nil {
		require.ErrorIs(h.t, err, storage.ErrNotFound)
		for _, p := range g.Players() {
			assert.Contains(h.t, next.Notified, p.UserID, "the final board pinged both players")
		}
		return next, nil
	}
	now = h.notedBoard(g.ChannelID, next.ID)
	assert.Equal(h.t, g.Ply()+1, now.Ply())
	assert.Equal(h.t, []string{now.Player(now.ToMove()).UserID}, next.Notified, "the new board pinged the player to move, only them")
	return next, now
}

// TestWholeGameWhereTheBotCannotPost plays a whole game, in both transports,
// in a DM between two users and in a group DM of three, where the bot is
// no member: the challenge, the acceptance and every move are answered with
// new messages that ping the player whose turn it becomes, old boards lose
// their menus by their interaction's token, the game ends rated on the
// everywhere ladder, and the bot never uses its token there (no request
// refused by the fake).
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
			} {
				t.Run(place.name, func(t *testing.T) {
					board, g := h.challengeElsewhere(place.ch, h.bob)
					assert.Equal(t, everywhere, g.GuildID, "kept under the everywhere key")
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
			assert.Equal(t, 2, total, "both games rated alice and bob on the everywhere ladder")
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
