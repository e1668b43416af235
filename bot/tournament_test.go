package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
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
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// cup is a harness with a server of players for tournaments: alice
// organises (she has Manage Server).
type cup struct {
	h       *harness
	players []*discordgo.User
	byID    map[string]*discordgo.User
	db      cupStore // the bot's store
}

// cupStore is what a cup reads of the bot's store.
type cupStore interface {
	Tournament(ctx context.Context, guildID string, id uint64) (*storage.Tournament, error)
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	History(ctx context.Context, guildID, userID string, limit int, before uint64) ([]storage.HistoryEntry, error)
}

// newCup starts a manual harness in mode with n players (alice, bob,
// carol and more); the bot may create scheduled events.
func newCup(t *testing.T, mode string, n int) *cup {
	return newCupWith(t, mode, n, nil)
}

// newCupWith is newCup on the store db (the harness's bbolt file if nil).
func newCupWith(t *testing.T, mode string, n int, db bot.Store) *cup {
	h := newHarnessWith(t, mode, func(h *harness) {
		h.manual = true
		if db != nil {
			h.wrap = func(*storage.Store) bot.Store { return db }
		}
	}, discordtest.WithAppPermissions(discordtest.DefaultAppPermissions|discordgo.PermissionManageEvents))
	c := &cup{h: h, players: []*discordgo.User{h.alice, h.bob, h.carol}, byID: map[string]*discordgo.User{}, db: db}
	if db == nil {
		c.db = h.store
	}
	for len(c.players) < n {
		c.players = append(c.players, h.dc.AddUser(fmt.Sprintf("player%02d", len(c.players)+1)))
	}
	for _, u := range c.players {
		c.byID[u.ID] = u
	}
	return c
}

// manager gives the member of an interaction Manage Server.
func manager(i *discordgo.Interaction) { i.Member.Permissions |= discordgo.PermissionManageGuild }

// tournament runs /kulami tournament sub with options as user in the
// harness channel, change altering the interaction first, and returns
// the text of the answer.
func (c *cup) tournament(user *discordgo.User, change func(*discordgo.Interaction), sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) (string, *discordgo.Interaction) {
	c.h.t.Helper()
	group := &discordgo.ApplicationCommandInteractionDataOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "tournament",
		Options: []*discordgo.ApplicationCommandInteractionDataOption{discordtest.Subcommand(sub, opts...)}}
	i := c.h.dc.Command(c.h.channel.ID, user, "kulami", group)
	change(i)
	c.h.send(i)
	return c.h.reply(i), i
}

// stored returns the tournament id of the guild as stored.
func (c *cup) stored(id uint64) *storage.Tournament {
	c.h.t.Helper()
	st, err := c.db.Tournament(c.h.t.Context(), c.h.dc.GuildID(), id)
	require.NoError(c.h.t, err)
	return st
}

// announced waits until the announcement of the tournament id is posted
// and noted (the answer to create comes first).
func (c *cup) announced(id uint64) {
	c.h.t.Helper()
	require.Eventually(c.h.t, func() bool { return c.stored(id).AnnouncementID != "" }, hung, time.Millisecond)
}

// resign resigns the game of thread for user, with /kulami resign and its
// button.
func (c *cup) resign(thread string, user *discordgo.User) {
	c.h.t.Helper()
	i := c.h.command(thread, user, "resign")
	r := c.h.dc.WaitResponse(c.h.t, i.ID)
	msg := c.h.dc.WaitOriginal(c.h.t, i.ID, func(*discordtest.Message) bool { return true })
	c.h.click(msg.ID, user, buttons(r.Components)["Yes, resign"])
	c.h.waitBoard(thread, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "resigned") })
}

// move plays a legal move for the player to move in the game of thread,
// with /kulami move.
func (c *cup) move(thread string) {
	c.h.t.Helper()
	g, err := c.db.Game(c.h.t.Context(), thread)
	require.NoError(c.h.t, err)
	p := g.Position()
	r := engine.NewRand(uint64(g.Ply()))
	cell := p.Layout().Cell(r.Pick(p.Legal()))
	ply := g.Ply()
	c.h.command(thread, c.byID[g.Player(g.ToMove()).UserID], "move", discordtest.StringOption("cell", cell.String()))
	c.h.boardAt(thread, ply+1)
}

// games returns the channels of the games of round n of st, by board and
// game (board-1, game-1).
func games(t *testing.T, st *storage.Tournament, n int) [][]string {
	t.Helper()
	r := st.Rounds()[n-1]
	out := make([][]string, len(r.Pairings))
	for i, p := range r.Pairings {
		for g := range p.Games {
			ch := st.Opened[tournament.GameRef{Round: n, Board: p.Board, Game: g + 1}.String()]
			require.NotEmpty(t, ch, "game %d.%d.%d is opened", n, p.Board, g+1)
			out[i] = append(out[i], ch)
		}
	}
	return out
}

// checkPings checks that the first message of each game of round n pings
// both its players.
func (c *cup) checkPings(st *storage.Tournament, n int) {
	t := c.h.t
	r := st.Rounds()[n-1]
	for i, chans := range games(t.(*testing.T), st, n) {
		p := r.Pairings[i]
		for _, ch := range chans {
			var notified []string
			for _, m := range c.h.dc.NotifiedIn(ch) {
				if strings.Contains(m.Content, "round "+fmt.Sprint(n)+", board") {
					notified = append(notified, m.UserID)
				}
			}
			assert.ElementsMatch(t, []string{p.First, p.Second}, notified, "the pairing message of round %d board %d notifies both players", n, p.Board)
		}
	}
}

// checkDuplicate checks that the two games of each pairing of round n
// are on the same board, each player moving first in one.
func (c *cup) checkDuplicate(st *storage.Tournament, n int) {
	t := c.h.t
	r := st.Rounds()[n-1]
	boards := map[string]bool{}
	for i, chans := range games(t.(*testing.T), st, n) {
		require.Len(t, chans, 2)
		g1, err := c.db.Game(t.Context(), chans[0])
		require.NoError(t, err)
		g2, err := c.db.Game(t.Context(), chans[1])
		require.NoError(t, err)
		assert.Equal(t, g1.Layout().String(), g2.Layout().String(), "one board for both games of a pairing")
		boards[g1.Layout().String()] = true
		p := r.Pairings[i]
		assert.Equal(t, [2]string{p.First, p.Second}, [2]string{g1.Player(engine.Red).UserID, g1.Player(engine.Black).UserID})
		assert.Equal(t, [2]string{p.Second, p.First}, [2]string{g2.Player(engine.Red).UserID, g2.Player(engine.Black).UserID})
	}
	assert.Len(t, boards, len(r.Pairings), "a random board of its own for each pairing")
}

// createOptions are the options of the 12-player tournament.
func createOptions() []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{
		discordtest.StringOption("name", "Autumn Swiss"),
		discordtest.IntegerOption("rounds", 4),
		discordtest.IntegerOption("days_per_round", 3),
		discordtest.StringOption("duplicate", "on"),
		discordtest.StringOption("layout", "random"),
		discordtest.StringOption("move_time", "1d"),
		discordtest.StringOption("start", "1d"),
		discordtest.IntegerOption("max_players", 12),
	}
}

// announce creates the tournament of createOptions and has every player
// join with the announcement's Join button; it returns the announcement.
func (c *cup) announce() *discordtest.Message {
	t := c.h.t
	text, i := c.tournament(c.h.alice, manager, "create", createOptions()...)
	require.Contains(t, text, "Autumn Swiss")
	ann := messageAfter(t, c.h.dc, i, c.h.channel.ID, "the announcement", hasButton("Join"))
	c.announced(1)
	for _, u := range c.players {
		c.h.click(ann.ID, u, buttons(ann.Components)["Join"])
	}
	return ann
}

// TestTournamentWhole plays a whole tournament through the fake Discord
// with a fake clock: 12 players, 4 rounds of duplicate boards, a no-show
// and an adjudication; every pairing message pings its players, and the
// final standings are posted with their image and kept. In gateway mode
// all of it; over HTTP the key path (announcement, joins, start, round 1's
// games, standings).
func TestTournamentWhole(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			c := newCup(t, mode, 12)
			h := c.h
			ann := c.announce()
			h.dc.WaitUntil(t, "the announcement lists 12 players", func() bool {
				m, _ := h.dc.Message(ann.ID)
				return strings.Contains(m.Content, "(12/12)")
			})
			events := h.dc.ScheduledEvents()
			require.Len(t, events, 1, "a scheduled event for the start")
			assert.Equal(t, "Autumn Swiss", events[0].Name)
			assert.True(t, events[0].Start.Equal(h.clock.Now().Add(24*time.Hour)))

			h.tick(24 * time.Hour) // the start
			st := c.stored(1)
			phase, round := st.State()
			require.Equal(t, tournament.Playing, phase)
			require.Equal(t, 1, round)
			require.Empty(t, st.Pending(), "every game of round 1 is open")
			c.checkPings(st, 1)
			if mode == "http" {
				text, _ := c.tournament(h.bob, func(*discordgo.Interaction) {}, "standings")
				assert.Contains(t, text, "standings after round 1 of 4")
				return
			}
			c.playRounds()
		})
	}
}

// playRounds plays the four rounds of the tournament of announce, started:
// in round 1 one player never moves (a no-show, who is told and joins
// again before round 2), in round 3 one game is
// left unfinished at the deadline (adjudicated); every other game ends by
// resignation of its pairing's second player in game 1 and its first in
// game 2.
func (c *cup) playRounds() {
	t, h := c.h.t.(*testing.T), c.h
	var noShow string
	for n := 1; n <= 4; n++ {
		st := c.stored(1)
		c.checkPings(st, n)
		c.checkDuplicate(st, n)
		r := st.Rounds()[n-1]
		chans := games(t, st, n)
		for i, p := range r.Pairings {
			switch {
			case n == 1 && i == len(r.Pairings)-1:
				noShow = p.First // moves first in game 1, never moves
				c.move(chans[i][1])
				h.tick(25 * time.Hour) // both clocks run out before any of their moves
			case n == 3 && i == 0:
				c.resign(chans[i][1], c.byID[p.Second])
			default:
				c.resign(chans[i][0], c.byID[p.Second])
				c.resign(chans[i][1], c.byID[p.First])
			}
		}
		if n == 1 {
			h.dc.WaitUntil(t, "the no-show is told", func() bool {
				return slices.ContainsFunc(h.dc.Notifications(noShow), func(m discordtest.Mention) bool { return strings.Contains(m.Content, "withdrawn") })
			})
			assert.False(t, joinedIn(c.stored(1), noShow), "the no-show is withdrawn")
			text, _ := c.tournament(c.byID[noShow], func(*discordgo.Interaction) {}, "join")
			assert.Contains(t, text, "You joined **Autumn Swiss**", "a no-show may join again before the next round")
		}
		if n == 3 {
			for range 3 { // moves within each day, not finished at the deadline
				c.move(chans[0][0])
				h.tick(20 * time.Hour)
			}
			c.move(chans[0][0])
			h.tick(20 * time.Hour)
			h.dc.WaitUntil(t, "the adjudication is posted", func() bool {
				return slices.ContainsFunc(h.dc.Messages(chans[0][0]), func(m *discordtest.Message) bool { return strings.Contains(m.Content, "adjudicated") })
			})
			c.checkAdjudicated(chans[0][0], tournament.GameRef{Round: 3, Board: r.Pairings[0].Board, Game: 1})
		}
		h.tick(time.Minute) // the next round is paired and opened, or the final standings posted
	}
	st := c.stored(1)
	phase, _ := st.State()
	require.Equal(t, tournament.Finished, phase)
	assert.True(t, st.FinalPosted)
	for _, p := range st.Players() {
		assert.False(t, p.Withdrawn, "the no-show joined again")
	}
	assert.Contains(t, playing(st.Rounds()[1]), noShow, "the no-show plays round 2")
	g, err := st.Game(tournament.GameRef{Round: 1, Board: len(st.Rounds()[0].Pairings), Game: 1})
	require.NoError(t, err)
	assert.Equal(t, noShow, g.NoShow, "the game is kept as a no-show")
	adjudicated := 0
	for _, r := range st.Rounds() {
		for _, p := range r.Pairings {
			for _, g := range p.Games {
				if g.Adjudicated {
					adjudicated++
					assert.True(t, g.Reason == "exact solver" || strings.HasPrefix(g.Reason, "hard evaluation "), "by the solver or hard's evaluation: %s", g.Reason)
				}
			}
		}
	}
	assert.Equal(t, 1, adjudicated)
	final := h.dc.Messages(h.channel.ID)
	last := final[len(final)-1]
	assert.Contains(t, last.Content, "is over!")
	require.Len(t, last.Files, 1)
	assert.Equal(t, "standings.png", last.Files[0].Name)
	text, _ := c.tournament(h.carol, func(*discordgo.Interaction) {}, "standings")
	assert.Contains(t, text, "is over!", "the final standings are kept")
}

// checkAdjudicated checks the game ref, adjudicated in thread: the thread
// says it was adjudicated and by what (with 16 marbles placed, by hard's
// evaluation), then shows the final board saying so; the game ended
// adjudicated with the tournament's verdict and is rated for both
// players, and the history says so.
func (c *cup) checkAdjudicated(thread string, ref tournament.GameRef) {
	t, h := c.h.t.(*testing.T), c.h
	msgs := h.dc.Messages(thread)
	i := slices.IndexFunc(msgs, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "is **adjudicated** by") })
	require.GreaterOrEqual(t, i, 0, "the thread says the game is adjudicated")
	assert.Contains(t, msgs[i].Content, "the hard computer's evaluation (", "and by what")
	h.dc.WaitUntil(t, "the final board is posted", func() bool {
		return slices.ContainsFunc(h.dc.Messages(thread)[i:], func(m *discordtest.Message) bool {
			return strings.Contains(m.Content, "not finished by the deadline and is **adjudicated**")
		})
	})
	tg, err := c.stored(1).Game(ref)
	require.NoError(t, err)
	require.True(t, tg.Adjudicated)
	want := map[tournament.Result][2]game.Outcome{tournament.FirstWon: {game.Won, game.Lost},
		tournament.SecondWon: {game.Lost, game.Won}, tournament.Drawn: {game.Drawn, game.Drawn}}[tg.Result]
	for i, id := range []string{tg.First, tg.Second} {
		hist, err := c.db.History(t.Context(), h.dc.GuildID(), id, 20, 0)
		require.NoError(t, err)
		j := slices.IndexFunc(hist, func(e storage.HistoryEntry) bool { return e.Ending == game.Adjudicated })
		require.GreaterOrEqual(t, j, 0, "the game of %s ended adjudicated", id)
		assert.Equal(t, want[i], hist[j].Outcome, "the game's result is the tournament's, for %s", id)
		assert.NotZero(t, hist[j].Rating, "the adjudicated game is rated for %s", id)
	}
	asked := h.command(h.channel.ID, c.byID[tg.First], "history")
	assert.Contains(t, soleEmbed(t, h.dc.WaitResponse(t, asked.ID)).Description, "by adjudication", "the history says how it ended")
}

// TestTournamentRoundsPairedOnceByTwoBots, on PostgreSQL: two bots on one
// store that wake at the same time for a tournament's start, then for its
// round's end, pair each round once and open each game once, pinged once.
func TestTournamentRoundsPairedOnceByTwoBots(t *testing.T) {
	t.Parallel()
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	c := newCupWith(t, "gateway", 4, pg)
	h := c.h
	t.Cleanup(func() { h.stop(); pg.Close() })
	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Clock: h.clock, MoveTime: h.moveTime, AITime: 300 * time.Millisecond})
	t.Cleanup(func() { other.Close(hung) })
	text, _ := c.tournament(h.alice, manager, "create", str("name", "Twin Cup"), num("rounds", 2), str("start", "1d"))
	require.Contains(t, text, "is created")
	c.announced(1)
	for _, u := range c.players {
		c.tournament(u, none, "join")
	}
	both := func() {
		var wg sync.WaitGroup
		for _, b := range []*bot.Bot{h.bot, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				assert.False(t, b.RunDue(t.Context()), "the scheduled work succeeded")
			}()
		}
		wg.Wait()
	}
	pings := func(n int) {
		st := c.stored(1)
		_, round := st.State()
		require.Equal(t, n, round, "round %d is paired once", n)
		require.Len(t, st.Rounds()[n-1].Pairings, 2)
		for _, chans := range games(t, st, n) {
			var posted int
			for _, m := range h.dc.Messages(chans[0]) {
				if strings.Contains(m.Content, fmt.Sprintf("round %d, board", n)) {
					posted++
				}
			}
			assert.Equal(t, 1, posted, "the game of %s is opened and pinged once", chans[0])
		}
		threads := 0
		for _, ch := range h.dc.Channels() {
			if strings.HasPrefix(ch.Name, fmt.Sprintf("Twin Cup R%d", n)) {
				threads++
			}
		}
		assert.Equal(t, 2, threads, "one thread per game of round %d", n)
	}
	h.clock.Advance(24 * time.Hour)
	both()
	pings(1)
	for _, chans := range games(t, c.stored(1), 1) {
		g, err := pg.Game(t.Context(), chans[0])
		require.NoError(t, err)
		c.resign(chans[0], c.byID[g.Player(g.ToMove()).UserID])
	}
	h.clock.Advance(time.Minute)
	both()
	pings(2)
}
