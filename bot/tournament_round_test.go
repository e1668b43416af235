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

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
)

// startCup starts, in a manual harness in mode with n players (alice
// organises), the tournament of opts, starting a day later: every player
// joins with /kulami tournament join, and the clock moves to the start.
func startCup(t *testing.T, mode string, n int, opts ...*discordgo.ApplicationCommandInteractionDataOption) *cup {
	t.Helper()
	return startCupAfter(t, mode, n, func(*cup) {}, opts...)
}

// startCupAfter is startCup with setup run first, before the tournament is
// created (a server's language, players' settings).
func startCupAfter(t *testing.T, mode string, n int, setup func(*cup), opts ...*discordgo.ApplicationCommandInteractionDataOption) *cup {
	t.Helper()
	c := newCup(t, mode, n)
	setup(c)
	text, _ := c.tournament(c.h.alice, manager, "create", append([]*discordgo.ApplicationCommandInteractionDataOption{str("start", "1d")}, opts...)...)
	require.NotEmpty(t, text)
	c.announced(1)
	for _, u := range c.players {
		c.answer(u, "join")
		require.True(t, joinedIn(c.stored(1), u.ID), "%s joined", u.Username)
	}
	c.h.tick(24 * time.Hour)
	phase, _ := c.stored(1).State()
	require.Equal(t, tournament.Playing, phase)
	require.Empty(t, c.stored(1).Pending(), "every game of round 1 is open")
	return c
}

// round returns round n of tournament 1 and the channels of its games, by
// board and game (see games).
func (c *cup) round(n int) (tournament.Round, [][]string) {
	c.h.t.Helper()
	st := c.stored(1)
	return st.Rounds()[n-1], games(c.h.t.(*testing.T), st, n)
}

// answer runs /kulami tournament sub as user and returns the answer.
func (c *cup) answer(user *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) string {
	c.h.t.Helper()
	text, _ := c.tournament(user, none, sub, opts...)
	return text
}

// said returns the messages of channel that contain every one of want.
func (c *cup) said(channel string, want ...string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range c.h.dc.Messages(channel) {
		if containsAll(m.Content, want...) {
			out = append(out, m)
		}
	}
	return out
}

// containsAll reports whether s contains every one of want.
func containsAll(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// pinged returns the notifications of user by messages that contain every
// one of want.
func (c *cup) pinged(user string, want ...string) []discordtest.Mention {
	var out []discordtest.Mention
	for _, m := range c.h.dc.Notifications(user) {
		if containsAll(m.Content, want...) {
			out = append(out, m)
		}
	}
	return out
}

// relative is how a board or a reminder shows the time t: <t:…:R>.
func relative(t time.Time) string { return fmt.Sprintf("<t:%d:R>", t.Unix()) }

// TestTournamentPlayerWhoNeverMovedNeverWins: with a move clock longer
// than the round (3 days against 2), a game nobody moved in is not
// adjudicated on the evaluation of the empty board at the round's
// deadline: the player to move, who never did, forfeits it, the other
// wins by forfeit, the board says so, and the forfeiter plays no more.
func TestTournamentPlayerWhoNeverMovedNeverWins(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Slow Cup"), num("rounds", 2), num("days_per_round", 2), str("move_time", "3d"))
	h := c.h
	r, chans := c.round(1)
	c.resign(chans[1][0], c.byID[r.Pairings[1].Second])
	h.tick(48 * time.Hour) // the round's deadline: board 1 untouched

	st := c.stored(1)
	tg, err := st.Game(tournament.GameRef{Round: 1, Board: 1, Game: 1})
	require.NoError(t, err)
	assert.False(t, tg.Adjudicated, "a game nobody moved in is not adjudicated")
	assert.Equal(t, r.Pairings[0].First, tg.NoShow, "the player to move never did")
	assert.Equal(t, tournament.SecondWon, tg.Result, "the other wins by forfeit")
	assert.Empty(t, c.said(chans[0][0], "is **adjudicated** by"))
	h.waitBoard(chans[0][0], "the final board says it was a forfeit", func(m *discordtest.Message) bool {
		return containsAll(m.Content, "**Game over.**", "wins by forfeit", "did not play")
	})
	_, round := st.State()
	require.Equal(t, 2, round, "round 2 is paired")
	assert.NotContains(t, playing(st.Rounds()[1]), tg.NoShow, "the forfeiter is withdrawn")
	assert.Contains(t, playing(st.Rounds()[1]), tg.Second)
}

// TestTournamentDoubleForfeit: in a duplicate pairing where neither
// player makes a move, in the game each moves first in, both forfeit:
// both lose both games (0–0), both threads say so, and neither is paired
// again.
func TestTournamentDoubleForfeit(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Twin Cup"), num("rounds", 2), num("days_per_round", 2), str("move_time", "3d"), str("duplicate", "on"))
	h := c.h
	r, chans := c.round(1)
	c.resign(chans[1][0], c.byID[r.Pairings[1].Second])
	c.resign(chans[1][1], c.byID[r.Pairings[1].First])
	h.tick(48 * time.Hour) // the round's deadline: board 1's two games untouched

	st := c.stored(1)
	p := st.Rounds()[0].Pairings[0]
	for _, g := range p.Games {
		assert.Equal(t, g.First, g.NoShow, "each forfeits the game they move first in")
		assert.False(t, g.Adjudicated)
	}
	standings := c.answer(h.carol, "standings")
	for _, id := range []string{p.First, p.Second} {
		assert.Contains(t, standings, "<@"+id+">: **0**", "a double forfeit gives nobody a point")
	}
	for _, ch := range chans[0] {
		for _, id := range []string{p.First, p.Second} {
			assert.NotEmpty(t, c.pinged(id, "double forfeit"), "%s is told in %s", id, ch)
		}
		assert.NotEmpty(t, c.said(ch, "Neither", "double forfeit"), "the thread %s says so", ch)
	}
	assert.True(t, slices.ContainsFunc(chans[0], func(ch string) bool {
		m := h.board(ch)
		return m != nil && strings.Contains(m.Content, "Double forfeit")
	}), "the board that made it a double forfeit says so")
	_, round := st.State()
	require.Equal(t, 2, round)
	assert.ElementsMatch(t, []string{r.Pairings[1].First, r.Pairings[1].Second}, slices.DeleteFunc(playing(st.Rounds()[1]), func(id string) bool { return id == "" }),
		"both absent players are withdrawn")
}

// TestTournamentForfeitOneTruth: a player whose clock runs out before
// their first move forfeits: the board says who wins by forfeit (not
// "aborted; it counts for nobody"), the pairings record the win, both
// players' histories and the game's record say it was won and lost by
// forfeit (not "called off, no result"), and the game is rated for
// nobody, so the leaderboard does not count it.
func TestTournamentForfeitOneTruth(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "True Cup"), num("rounds", 2), num("days_per_round", 3), str("move_time", "1d"))
	h := c.h
	r, chans := c.round(1)
	h.tick(25 * time.Hour) // every first player's clock runs out: both boards forfeited

	for i, p := range r.Pairings {
		h.waitBoard(chans[i][0], "the final board", func(m *discordtest.Message) bool {
			return containsAll(m.Content, "<@"+p.Second+"> wins by forfeit: <@"+p.First+"> did not play")
		})
		assert.Empty(t, c.said(chans[i][0], "counts for nobody"))
		tg, err := c.stored(1).Game(tournament.GameRef{Round: 1, Board: p.Board, Game: 1})
		require.NoError(t, err)
		assert.Equal(t, tournament.SecondWon, tg.Result)
		hist, err := c.db.History(t.Context(), h.dc.GuildID(), p.Second, 5, 0)
		require.NoError(t, err)
		require.Len(t, hist, 1)
		assert.Zero(t, hist[0].Rating, "a forfeit is not rated")

		for id, want := range map[string]string{p.Second: "Won by forfeit", p.First: "Lost by forfeit"} {
			i := h.command(chans[i][0], c.byID[id], "history")
			history := soleEmbed(t, h.dc.WaitResponse(t, i.ID)).Description
			assert.Contains(t, history, want+" (counts for the tournament only)")
			assert.NotContains(t, history, "no result")
		}
		i := h.command(chans[i][0], c.byID[p.Second], "export", discordtest.IntegerOption("game", int64(hist[0].GameID)))
		m := h.dc.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
		require.Len(t, m.Files, 1)
		assert.Contains(t, string(m.Files[0].Data), `[Result "Black wins by forfeit, Red did not make a first move"]`)
	}
	assert.Contains(t, c.answer(h.carol, "pairings", num("round", 1)), "–+", "the pairings mark the wins by forfeit")
	board := soleEmbed(t, h.dc.WaitResponse(t, h.command(h.channel.ID, h.carol, "leaderboard").ID))
	for _, p := range r.Pairings {
		assert.NotContains(t, board.Description, "<@"+p.Second+">", "the leaderboard counts no forfeit")
	}
}

// TestTournamentNoShowWhoseForfeitEndsTheRound: a forfeit that ends the
// round is not followed by an invitation to join again (the next round is
// paired at once): the player is told that they are withdrawn for good,
// and a join is then refused for that reason, not as a late join.
func TestTournamentNoShowWhoseForfeitEndsTheRound(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Last Cup"), num("rounds", 3), num("days_per_round", 3), str("move_time", "1d"))
	h := c.h
	r, chans := c.round(1)
	c.resign(chans[1][0], c.byID[r.Pairings[1].Second])
	noShow := r.Pairings[0].First
	h.tick(25 * time.Hour) // board 1's first player never moved: the round's last result
	h.tick(time.Minute)
	_, round := c.stored(1).State()
	require.Equal(t, 2, round)

	told := c.pinged(noShow, "withdrawn")
	require.Len(t, told, 1, "told once")
	assert.NotContains(t, told[0].Content, "join again", "not invited to what cannot be")
	assert.Contains(t, told[0].Content, "no coming back")
	_, i := c.tournament(c.byID[noShow], none, "join")
	text := h.refused(i, "too late to come back")
	assert.NotContains(t, text, "half its rounds: it is too late to join")
}

// TestTournamentNoShowToldOnce: a player who misses both games of a
// duplicate pairing, one after the other, is told once, at the first, that
// they are withdrawn and may join again while the round is played.
func TestTournamentNoShowToldOnce(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Once Cup"), num("rounds", 2), num("days_per_round", 3), str("move_time", "1d"), str("duplicate", "on"))
	h := c.h
	r, chans := c.round(1)
	noShow := r.Pairings[0].First
	c.resign(chans[1][0], c.byID[r.Pairings[1].Second])
	c.resign(chans[1][1], c.byID[r.Pairings[1].First])
	h.tick(12 * time.Hour)
	c.move(chans[0][1])    // game 2: its first player moves; the no-show never answers
	h.tick(13 * time.Hour) // game 1's clock runs out
	told := c.pinged(noShow, "withdrawn")
	require.Len(t, told, 1)
	assert.Contains(t, told[0].Content, "join again with **/kulami tournament join** while round 1 is played", "round 1 goes on: game 2 is played")
	h.tick(12 * time.Hour) // then game 2's
	for g := range 2 {
		tg, err := c.stored(1).Game(tournament.GameRef{Round: 1, Board: 1, Game: g + 1})
		require.NoError(t, err)
		require.Equal(t, noShow, tg.NoShow, "game %d is forfeited", g+1)
	}
	assert.Len(t, c.pinged(noShow, "withdrawn"), 1, "told once for two games")
}

// TestTournamentGameDueByTheRoundsDeadline: with a move clock longer than
// the round, a tournament game's board names the round's deadline, less a
// day kept for the reply before the first move, and its reminders come
// before it, naming it; a first move made once it has passed is refused,
// saying why; the reply is due by the round's deadline.
func TestTournamentGameDueByTheRoundsDeadline(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Due Cup"), num("rounds", 2), num("days_per_round", 2), str("move_time", "3d"))
	h := c.h
	st := c.stored(1)
	deadline := st.Rounds()[0].Deadline
	first := deadline.Add(-game.MaxReplyShare)
	for _, chans := range games(t, st, 1) {
		h.waitBoard(chans[0], "the first board names the first move's deadline", func(m *discordtest.Message) bool {
			return strings.Contains(m.Content, "your move — due "+relative(first))
		})
	}
	h.tick(12 * time.Hour)
	for _, chans := range games(t, st, 1) {
		assert.NotEmpty(t, c.said(chans[0], "⏰", relative(first)), "a reminder names the first move's deadline in %s", chans[0])
	}

	// The reply is due by the round's deadline, a day after a first move
	// made at the last minute.
	pairings := st.Rounds()[0].Pairings
	h.clock.Advance(first.Add(-time.Minute).Sub(h.clock.Now()))
	played := games(t, st, 1)[1][0]
	h.command(played, c.byID[pairings[1].First], "move", discordtest.StringOption("cell", "D4"))
	h.waitBoard(played, "the reply names the round's deadline", func(m *discordtest.Message) bool {
		return boardPly(m) == 1 && strings.Contains(m.Content, "your move — due "+relative(deadline))
	})

	h.clock.Advance(first.Sub(h.clock.Now())) // the first move's deadline, the game not yet closed
	thread := games(t, st, 1)[0][0]
	before := h.commits()
	i := h.command(thread, c.byID[pairings[0].First], "move", discordtest.StringOption("cell", "D4"))
	h.refused(i, fmt.Sprintf("The first move of this game was due <t:%d:f>, to leave the reply time before its round ends", first.Unix()), "no more moves")
	assert.Equal(t, before, h.commits(), "nothing is stored")
}

// TestTournamentStandingsAfterTheLastCompletedRound: the standings are
// titled by the last round complete, not the one paired; the bye is
// pinged in the pairings.
func TestTournamentStandingsAfterTheLastCompletedRound(t *testing.T) {
	c := startCup(t, "gateway", 5, str("name", "Bye Cup"), num("rounds", 3), num("days_per_round", 2))
	h := c.h
	st := c.stored(1)
	r := st.Rounds()[0]
	require.NotEmpty(t, r.Bye)
	assert.NotEmpty(t, c.pinged(r.Bye, "Bye"), "the bye is told")
	for i, chans := range games(t, st, 1) {
		c.resign(chans[0], c.byID[r.Pairings[i].Second])
	}
	h.tick(time.Minute)
	_, round := c.stored(1).State()
	require.Equal(t, 2, round)
	text := c.answer(h.carol, "standings")
	assert.Contains(t, text, "standings after round 1 of 3")
	assert.NotEmpty(t, c.pinged(c.stored(1).Rounds()[1].Bye, "Bye"), "round 2's bye is told")
}

// TestTournamentPodium: players tied share a place and a medal, and a
// withdrawn player takes none: of two winners of one round, the one who
// withdrew gets no medal, the other gold, and the two losers, tied, share
// silver.
func TestTournamentPodium(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Medal Cup"), num("rounds", 1), num("days_per_round", 2))
	h := c.h
	r, chans := c.round(1)
	c.resign(chans[0][0], c.byID[r.Pairings[0].Second])
	quitter := c.byID[r.Pairings[0].First]
	_, i := c.tournament(quitter, none, "leave")
	msg := h.answerMessage(i, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
	h.click(msg.ID, quitter, buttons(msg.Components)["Yes, withdraw"])
	require.False(t, joinedIn(c.stored(1), quitter.ID))
	c.resign(chans[1][0], c.byID[r.Pairings[1].Second])
	h.tick(time.Minute)

	final := c.said(h.channel.ID, "is over!")
	require.Len(t, final, 1)
	text := final[0].Content
	assert.Contains(t, text, "🥇 <@"+r.Pairings[1].First+">")
	assert.Contains(t, text, "🥈 <@"+r.Pairings[0].Second+">")
	assert.Contains(t, text, "🥈 <@"+r.Pairings[1].Second+">", "tied players share the medal")
	assert.NotContains(t, text, "🥉", "two at second place leave no third")
	assert.NotContains(t, text, "<@"+quitter.ID+">  ", "the withdrawn winner gets no medal")
	assert.NotContains(t, strings.SplitN(text, "\n", 2)[0], "<@"+quitter.ID+">", "the withdrawn winner is not on the podium")
}

// TestTournamentCancelMidRound: a tournament cancelled while its games
// are played (from another channel) is announced in its channel, pinging
// every player of a game in progress; the games go on as ordinary games under their own clocks
// (each is told so), nothing happens to them at the round's old deadline,
// nobody is told later that they were withdrawn, and its standings stay
// viewable, titled as cancelled.
func TestTournamentCancelMidRound(t *testing.T) {
	c := startCup(t, "gateway", 4, str("name", "Cut Cup"), num("rounds", 2), num("days_per_round", 2), str("move_time", "3d"))
	h := c.h
	st := c.stored(1)
	start := st.Rounds()[0].Paired
	chans := games(t, st, 1)
	c.move(chans[0][0])
	h.tick(time.Hour)

	lobby := h.dc.AddChannel("lobby")
	group := &discordgo.ApplicationCommandInteractionDataOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "tournament",
		Options: []*discordgo.ApplicationCommandInteractionDataOption{discordtest.Subcommand("cancel")}}
	i := h.dc.Command(lobby.ID, h.alice, "kulami", group)
	manager(i)
	h.send(i)
	a := h.answerTo(i)
	assert.True(t, a.ephemeral)
	assert.Contains(t, a.text, "**Cut Cup** is cancelled; its players are told in <#"+h.channel.ID+">")
	posts := c.said(h.channel.ID, "**Cut Cup** is cancelled", "go on as ordinary games")
	require.Len(t, posts, 1, "the cancel is posted in the tournament's channel")
	for _, u := range c.players {
		assert.Len(t, c.pinged(u.ID, "**Cut Cup** is cancelled"), 1, "%s, who has a game in progress, is pinged", u.Username)
	}
	for _, ch := range []string{chans[0][0], chans[1][0]} {
		h.dc.WaitUntil(t, "the game in "+ch+" is told", func() bool { return len(c.said(ch, "was cancelled: this game goes on")) == 1 })
	}
	h.tick(time.Minute) // the boards are edited
	h.waitBoard(chans[1][0], "the untouched game's board names its own clock's deadline", func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "due "+relative(start.Add(72*time.Hour)))
	})

	h.tick(47*time.Hour - time.Minute) // past the round's old deadline
	for _, ch := range []string{chans[0][0], chans[1][0]} {
		assert.Empty(t, c.said(ch, "is **adjudicated** by"), "no adjudication in %s", ch)
		assert.Empty(t, c.said(ch, "wins by forfeit"), "no forfeit in %s", ch)
	}
	h.tick(24 * time.Hour) // the untouched game's own clock runs out: an ordinary game aborted
	h.waitBoard(chans[1][0], "the game ends as an ordinary game", func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "did not make a first move in time")
	})
	for _, u := range c.players {
		assert.Empty(t, c.pinged(u.ID, "withdrawn"), "%s is not told of a withdrawal from a cancelled tournament", u.Username)
	}
	standings := c.answer(h.carol, "standings")
	assert.Contains(t, standings, "Cut Cup (cancelled)", "a cancelled tournament's standings stay viewable")
	assert.Contains(t, c.answer(h.carol, "pairings"), "Cut Cup")
	assert.Empty(t, h.dc.Violations())
}
