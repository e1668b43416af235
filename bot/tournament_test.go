package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
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
	db      cupStore                     // the bot's store
	speak   func(*discordgo.Interaction) // the players' locales in their commands (none: Discord's default)
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
	var clock *fakeClock
	h := newHarnessWith(t, mode, func(h *harness) {
		h.manual, clock = true, h.clock
		if db != nil {
			h.wrap = func(*storage.Store) bot.Store { return db }
		}
	}, discordtest.WithAppPermissions(discordtest.DefaultAppPermissions|discordgo.PermissionManageEvents),
		discordtest.WithClock(func() time.Time { // each mention is recorded at the bot's time
			if clock == nil {
				return newFakeClock().Now()
			}
			return clock.Now()
		}))
	c := &cup{h: h, players: []*discordgo.User{h.alice, h.bob, h.carol}, byID: map[string]*discordgo.User{}, db: db, speak: none}
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

// restart restarts the bot on the same database, as a server restart
// does, and reads the new store.
func (c *cup) restart() {
	c.h.restart()
	c.db = c.h.store
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
	c.speak(i)
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
	i := c.h.commandWith(c.speak, thread, user, "resign")
	c.h.dc.WaitResponse(c.h.t, i.ID)
	msg := c.h.dc.WaitOriginal(c.h.t, i.ID, func(*discordtest.Message) bool { return true })
	c.h.sendWith(c.speak, c.h.dc.Button(msg.ID, user, buttonFor(c.h.t.(*testing.T), msg, ":resign-yes:")))
	c.h.waitBoard(thread, "the final board, which offers no move", func(m *discordtest.Message) bool { return firstMenu(m) == "" })
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
	c.h.commandWith(c.speak, thread, c.byID[g.Player(g.ToMove()).UserID], "move", discordtest.StringOption("cell", cell.String()))
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

// createOptions are the options of the whole tournament: 4 rounds of 2
// days, duplicate, random boards, a 3-day move clock (longer than a
// round), starting in a day, at most 8 players.
func createOptions() []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{
		discordtest.StringOption("name", "Winter Swiss"),
		discordtest.IntegerOption("rounds", 4),
		discordtest.IntegerOption("days_per_round", 2),
		discordtest.StringOption("duplicate", "on"),
		discordtest.StringOption("layout", "random"),
		discordtest.StringOption("move_time", "3d"),
		discordtest.StringOption("start", "1d"),
		discordtest.IntegerOption("max_players", 8),
	}
}

// announce creates the tournament of createOptions and has every player
// join with the announcement's Join button; it returns the announcement.
func (c *cup) announce() *discordtest.Message {
	t := c.h.t
	text, i := c.tournament(c.h.alice, manager, "create", createOptions()...)
	require.Contains(t, text, "Winter Swiss")
	ann := messageAfter(t, c.h.dc, i, c.h.channel.ID, "the announcement", hasButton("Join"))
	c.announced(1)
	for _, u := range c.players {
		c.h.click(ann.ID, u, buttons(ann.Components)["Join"])
	}
	return ann
}

// TestTournamentWhole plays a whole tournament through the fake Discord
// with a fake clock, reading what the players read: 7 players, 4 rounds
// of 2 days with duplicate boards and a 3-day move clock; in round 1 one
// player never moves (two forfeits, told once, not invited back: the round
// ends with them), one pairing is adjudicated and the bot restarts at the
// round's deadline; in round 2 one player withdraws; a second tournament
// is cancelled mid-round, its game going on as an ordinary game. Each
// round's pairings name its deadline and ping its bye, each game's first
// message pings its players and its board names the round's deadline,
// the standings are titled by the last complete round, and the final
// standings give medals by place, shared by ties, none to the withdrawn.
func TestTournamentWhole(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			c := newCup(t, mode, 7)
			h := c.h
			ann := c.announce()
			h.dc.WaitUntil(t, "the announcement lists 7 players", func() bool {
				m, _ := h.dc.Message(ann.ID)
				return strings.Contains(m.Content, "(7/8)")
			})
			events := h.dc.ScheduledEvents()
			require.Len(t, events, 1, "a scheduled event for the start")
			assert.Equal(t, "Winter Swiss", events[0].Name)
			assert.True(t, events[0].Start.Equal(h.clock.Now().Add(24*time.Hour)))
			side := c.sideCup()

			h.tick(24 * time.Hour) // the start of both
			c.playWinter(side)
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// sideCup creates a second tournament, "Side Cup", starting with the
// first, that alice, bob and carol join; it returns its number.
func (c *cup) sideCup() uint64 {
	t := c.h.t
	text, _ := c.tournament(c.h.alice, manager, "create", str("name", "Side Cup"), num("rounds", 2), num("days_per_round", 2),
		str("move_time", "3d"), str("start", "1d"))
	require.Contains(t, text, "(number 2)")
	c.announced(2)
	for _, u := range c.players[:3] {
		require.Contains(t, c.answer(u, "join", num("tournament", 2)), "You joined **Side Cup**")
	}
	return 2
}

// checkRoundPosts checks what the players of round n of the tournament
// read when it is paired: the pairings, posted once, name the round's
// deadline and ping the bye; each game's first message pings its two
// players; each board says the player to move is due by the round's
// deadline (before their 3-day clock runs out).
func (c *cup) checkRoundPosts(st *storage.Tournament, n int) {
	t, h := c.h.t.(*testing.T), c.h
	r := st.Rounds()[n-1]
	title := fmt.Sprintf("🏆 **Winter Swiss**, round %d of 4, to be played by <t:%d:f>:", n, r.Deadline.Unix())
	assert.Len(t, c.said(h.channel.ID, title), 1, "round %d's pairings are posted once, with its deadline", n)
	if r.Bye != "" {
		assert.Len(t, c.pinged(r.Bye, title, "Bye (a won round): <@"+r.Bye+">"), 1, "round %d's bye is told", n)
	}
	c.checkPings(st, n)
	c.checkDuplicate(st, n)
	for _, chans := range games(t, st, n) {
		for _, ch := range chans {
			h.waitBoard(ch, "the first board names the round's deadline less the reply's day", func(m *discordtest.Message) bool {
				return strings.Contains(m.Content, "your move — due "+relative(r.Deadline.Add(-game.MaxReplyShare)))
			})
		}
	}
}

// playWinter plays the four rounds of Winter Swiss, started, and cancels
// the Side Cup (number side) during round 1.
func (c *cup) playWinter(side uint64) {
	t, h := c.h.t.(*testing.T), c.h
	st := c.stored(1)
	c.checkRoundPosts(st, 1)
	r := st.Rounds()[0]
	chans := games(t, st, 1)
	require.Len(t, r.Pairings, 3, "7 players: 3 pairings and a bye")
	assert.Contains(t, c.answer(h.carol, "standings", num("tournament", 1)), "standings before round 1 of 4 is complete")

	// Round 1. Board 1 plays on past the deadline; board 2 resigns; on
	// board 3 the pairing's first player never moves.
	noShow, present := r.Pairings[2].First, r.Pairings[2].Second
	var adjudicated []uint64 // the IDs of board 1's games, left to the deadline
	for _, ch := range chans[0] {
		for range 4 {
			c.move(ch)
		}
		g, err := c.db.Game(t.Context(), ch)
		require.NoError(t, err)
		adjudicated = append(adjudicated, g.ID)
	}
	c.resign(chans[1][0], c.byID[r.Pairings[1].Second])
	c.resign(chans[1][1], c.byID[r.Pairings[1].First])
	c.move(chans[2][1]) // the present player moves first in game 2; the no-show never answers

	// The Side Cup is cancelled a day into its round, its game in
	// progress after one move.
	sideGame := games(t, c.stored(side), 1)[0][0]
	c.move(sideGame)
	h.tick(24 * time.Hour)
	text, _ := c.tournament(h.alice, manager, "cancel", num("tournament", int64(side)))
	assert.Contains(t, text, "**Side Cup** is cancelled")
	assert.Contains(t, text, "go on as ordinary games")
	sg, err := c.db.Game(t.Context(), sideGame)
	require.NoError(t, err)
	for _, p := range sg.Players() {
		assert.Len(t, c.pinged(p.UserID, "**Side Cup** is cancelled"), 1, "the cancel pings %s, whose game goes on", p.Name)
	}
	h.dc.WaitUntil(t, "the Side Cup's game is told it goes on", func() bool {
		return len(c.said(sideGame, "**Side Cup** was cancelled: this game goes on as an ordinary game")) == 1
	})
	sideDue := sg.Moves()[0].At.Add(72 * time.Hour)
	h.tick(time.Minute) // the board is edited
	h.waitBoard(sideGame, "its board names its own clock's deadline", func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "due "+relative(sideDue))
	})

	// The bot restarts at the round's deadline, then does what is due
	// there, once.
	h.clock.Advance(r.Deadline.Sub(h.clock.Now()))
	c.restart()
	h.tick(0)
	st = c.stored(1)
	_, round := st.State()
	require.Equal(t, 2, round, "round 1 closed and round 2 paired")
	for g := range 2 {
		c.checkAdjudicated(chans[0][g], adjudicated[g], tournament.GameRef{Round: 1, Board: 1, Game: g + 1})
		ref := tournament.GameRef{Round: 1, Board: 3, Game: g + 1}
		tg, err := st.Game(ref)
		require.NoError(t, err)
		assert.Equal(t, noShow, tg.NoShow, "game %v is forfeited", ref)
		assert.False(t, tg.Adjudicated)
		h.waitBoard(chans[2][g], "the final board says who wins by forfeit", func(m *discordtest.Message) bool {
			return strings.Contains(m.Content, "<@"+present+"> wins by forfeit: <@"+noShow+"> did not play")
		})
	}
	told := c.pinged(noShow, "withdrawn")
	require.Len(t, told, 1, "the no-show is told once for two games")
	assert.Contains(t, told[0].Content, "join again with **/kulami tournament join** while round 1 is played",
		"the first move was due a day before the deadline: the no-show is told while the round is played")
	pairings := c.answer(h.carol, "pairings", num("tournament", 1), num("round", 1))
	assert.Contains(t, pairings, "Board 3: <@"+noShow+"> – <@"+present+"> –+ · +–", "two wins by forfeit for the present player")
	assert.Contains(t, pairings, "+– or –+ won by forfeit")
	assert.Empty(t, c.said(sideGame, "is **adjudicated** by"), "the cancelled tournament's game is not adjudicated")
	assert.Empty(t, c.said(sideGame, "wins by forfeit"))

	// Round 2: 6 players, no bye; one withdraws and resigns their games.
	st = c.stored(1)
	c.checkRoundPosts(st, 2)
	r = st.Rounds()[1]
	assert.NotContains(t, playing(r), noShow)
	assert.Contains(t, c.answer(h.carol, "standings", num("tournament", 1)), "standings after round 1 of 4")
	withdrawn := r.Pairings[0].Second
	_, i := c.tournament(c.byID[withdrawn], none, "leave", num("tournament", 1))
	msg := h.answerMessage(i, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
	h.click(msg.ID, c.byID[withdrawn], buttons(msg.Components)["Yes, withdraw"])
	c.resignAll(2)
	h.tick(time.Minute)

	// Rounds 3 and 4: 5 players, 2 pairings and a bye each.
	for n := 3; n <= 4; n++ {
		st = c.stored(1)
		c.checkRoundPosts(st, n)
		require.Len(t, st.Rounds()[n-1].Pairings, 2)
		assert.NotContains(t, playing(st.Rounds()[n-1]), withdrawn)
		assert.Contains(t, c.answer(h.carol, "standings", num("tournament", 1)), fmt.Sprintf("standings after round %d of 4", n-1))
		c.resignAll(n)
		h.tick(time.Minute)
	}

	st = c.stored(1)
	phase, _ := st.State()
	require.Equal(t, tournament.Finished, phase)
	final := c.said(h.channel.ID, "**Winter Swiss** is over!")
	require.Len(t, final, 1, "the final standings are posted once")
	require.Len(t, final[0].Files, 1)
	assert.Equal(t, "standings.png", final[0].Files[0].Name)
	c.checkMedals(final[0].Content)
	assert.Contains(t, c.answer(h.carol, "standings", num("tournament", 1)), "is over!", "the final standings are kept")

	side1 := c.answer(h.carol, "standings", num("tournament", int64(side)))
	assert.Contains(t, side1, "**Side Cup (cancelled)**", "a cancelled tournament's standings stay viewable")
	for _, u := range c.players {
		for _, m := range c.pinged(u.ID, "withdrawn") {
			assert.NotContains(t, m.Content, "Side Cup", "nobody is withdrawn from a cancelled tournament")
		}
	}
}

// resignAll ends every game of round n of Winter Swiss by resignation:
// each pairing's second player resigns game 1, its first game 2.
func (c *cup) resignAll(n int) {
	t := c.h.t.(*testing.T)
	st := c.stored(1)
	r := st.Rounds()[n-1]
	for i, chans := range games(t, st, n) {
		c.resign(chans[0], c.byID[r.Pairings[i].Second])
		c.resign(chans[1], c.byID[r.Pairings[i].First])
	}
}

// medalLine reads a line of the final standings as a player does: the
// rank, the player and whether they withdrew.
var medalLine = regexp.MustCompile(`^(\d+)\. <@(\d+)>: .*?( \(withdrawn\))?$`)

// checkMedals checks the podium of the final standings post text against
// its own standings lines: each player still in at rank 1, 2 or 3 among
// those still in (players tied sharing it) has that medal, and no one
// else, withdrawn players none.
func (c *cup) checkMedals(text string) {
	t := c.h.t
	lines := strings.Split(text, "\n")
	podium := lines[0]
	type row struct {
		rank      int
		id        string
		withdrawn bool
	}
	var rows []row
	for _, l := range lines[2:] {
		m := medalLine.FindStringSubmatch(l)
		require.NotNil(t, m, "a standings line: %q", l)
		rank, _ := strconv.Atoi(m[1])
		rows = append(rows, row{rank, m[2], m[3] != ""})
	}
	medals := map[int]string{1: "🥇", 2: "🥈", 3: "🥉"}
	placed, last, lastPlace := 0, -1, 0
	withdrawn := 0
	for _, r := range rows {
		if r.withdrawn {
			withdrawn++
			assert.NotContains(t, podium, "<@"+r.id+">", "no medal for a withdrawn player")
			continue
		}
		place := placed + 1
		if r.rank == last {
			place = lastPlace
		}
		placed, last, lastPlace = placed+1, r.rank, place
		if place <= 3 {
			assert.Contains(t, podium, medals[place]+" <@"+r.id+">", "rank %d among the players still in", place)
		} else {
			assert.NotContains(t, podium, "<@"+r.id+">")
		}
	}
	assert.Equal(t, 2, withdrawn, "the no-show and the player who withdrew")
}

// checkAdjudicated checks the game ref, adjudicated in thread: the thread
// says it was adjudicated and by what (with 16 marbles placed, by hard's
// evaluation), then shows the final board saying so; the game ended
// adjudicated with the tournament's verdict and is rated for both
// players, and the history says so.
func (c *cup) checkAdjudicated(thread string, gameID uint64, ref tournament.GameRef) {
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
		j := slices.IndexFunc(hist, func(e storage.HistoryEntry) bool { return e.GameID == gameID })
		require.GreaterOrEqual(t, j, 0, "the game of %s is in their history", id)
		assert.Equal(t, game.Adjudicated, hist[j].Ending, "the game of %s ended adjudicated", id)
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
