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
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// daysGame is a game played over days through the fake Discord, on one of
// the stores: st is the store the bot runs on.
type daysGame struct {
	*harness
	st bot.Store
}

// newDaysGame starts a manual harness whose guild keeps its default
// timeouts (claim), on bbolt or on PostgreSQL.
func newDaysGame(t *testing.T, mode, backend string) *daysGame {
	t.Helper()
	if backend == "bbolt" {
		h := newHarnessWith(t, mode, func(h *harness) { h.manual, h.claims = true, true })
		return &daysGame{harness: h, st: h.store}
	}
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	h := newHarnessWith(t, mode, func(h *harness) {
		h.manual, h.claims = true, true
		h.wrap = func(*storage.Store) bot.Store { return pg }
		h.db = pg
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	return &daysGame{harness: h, st: pg}
}

// start is the harness's opening (open), returning the game first.
func (d *daysGame) start(opts ...*discordgo.ApplicationCommandInteractionDataOption) (*storage.Game, *discordtest.Message) {
	d.t.Helper()
	board, g := d.open(opts...)
	return g, board
}

// noted waits until the store knows board as the board of the channel's
// game: the bot notes a board just after it posts it, and the scheduler's
// work that a test runs next (tick) must find it noted however slowly the
// machine runs the bot.
func (d *daysGame) noted(board *discordtest.Message) {
	d.t.Helper()
	require.Eventually(d.t, func() bool {
		g, err := d.st.Game(d.t.Context(), d.channel.ID)
		return err == nil && g.BoardMessageID == board.ID
	}, hung, time.Millisecond, "the bot notes the board")
}

// game returns the game of the channel as the store has it.
func (d *daysGame) game() *storage.Game {
	d.t.Helper()
	g, err := d.st.Game(d.t.Context(), d.channel.ID)
	require.NoError(d.t, err)
	return g
}

// user returns the harness user who plays colour c in g.
func (d *daysGame) user(g *storage.Game, c engine.Color) *discordgo.User {
	if g.Player(c).UserID == d.alice.ID {
		return d.alice
	}
	return d.bob
}

// move plays cell for the player to move and returns the board that
// follows at ply.
func (d *daysGame) move(cell string, ply int) *discordtest.Message {
	d.t.Helper()
	g := d.game()
	d.command(d.channel.ID, d.user(g, g.ToMove()), "move", discordtest.StringOption("cell", cell))
	board := d.waitBoard(d.channel.ID, "the board at ply", func(m *discordtest.Message) bool { return boardPly(m) == ply })
	if len(menus(board)) > 0 { // the game goes on
		d.noted(board)
	}
	return board
}

// lastWith waits for the last message of the channel that contains text.
func (d *daysGame) lastWith(what, text string) *discordtest.Message {
	d.t.Helper()
	var m *discordtest.Message
	d.dc.WaitUntil(d.t, what, func() bool {
		ms := d.dc.Messages(d.channel.ID)
		for k := len(ms) - 1; k >= 0; k-- {
			if strings.Contains(ms[k].Content, text) {
				m = ms[k]
				return true
			}
		}
		return false
	})
	return m
}

// legal returns the legal holes of p.
func legal(p engine.Position) []engine.Cell { return p.Legal().Cells(p.Layout()) }

// TestPlayingOverDays plays one game over three simulated weeks, in both
// transports and on both stores: a clock with an increment (3d+1d) that
// pauses over weekends, for a player in New York; time given (and refused
// past the limit); a planned reply played with the move that sets it off;
// a vacation that stops the clock of the player to move; a clock that runs
// out (the claim message, Keep waiting, a late move); and a claim that
// ends the game; checking who each message notified: every message that
// hands the turn over pings the player to move, and nobody else is ever
// pinged.
func TestPlayingOverDays(t *testing.T) {
	t.Parallel()
	newYork, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	for _, backend := range backends {
		for _, mode := range modes {
			t.Run(backend+"/"+mode, func(t *testing.T) {
				t.Parallel()
				d := newDaysGame(t, mode, backend)
				ch := d.channel.ID
				d.command(ch, d.bob, "notify", discordtest.StringOption("timezone", "America/New_York"))
				d.tick(24 * time.Hour) // Monday 23 November 2026, 09:00 UTC, 04:00 in New York
				g, board := d.start(discordtest.StringOption("move_time", "3d+1d"), discordtest.StringOption("weekends", "pause"),
					discordtest.StringOption("first", "them"))
				assert.Equal(t, game.MoveTime{Start: 72 * time.Hour, Increment: 24 * time.Hour, Kind: game.WholeGame}, g.Clock())
				assert.Equal(t, game.Claim, g.Timeouts(), "claims are the default")
				assert.True(t, g.Weekends())
				first, second := d.bob, d.alice // bob moves first, in New York; alice in UTC
				require.Equal(t, first.ID, g.Player(engine.Red).UserID)
				assert.Equal(t, []string{first.ID}, board.Notified)
				assert.Contains(t, board.Content, "Clock 3d+1d")
				assert.Contains(t, board.Content, "Clocks pause over each player's weekend.")
				assert.NotContains(t, buttons(board.Components), "Give time", "the first board has its menus only")

				board = d.move("D4", 1)
				assert.Equal(t, []string{second.ID}, board.Notified, "each board notifies the player to move")
				board = d.move("D7", 2)
				assert.Equal(t, []string{first.ID}, board.Notified, "each board notifies the player to move")
				assert.Contains(t, board.Content, "starts their next turn with 4 days", "the increment was added to the clock of the player who moved")
				start := d.clock.Now()
				assert.Equal(t, start.Add(96*time.Hour), d.game().Deadline(), "4 days, all before Saturday in New York")

				// More time: twice a day, then the clock is full (6 days),
				// which now runs over a weekend in New York (48 hours more).
				d.refused(d.command(ch, first, "give_time"), "It's your turn")
				d.refused(d.command(ch, d.carol, "give_time"), "you can watch")
				d.click(board.ID, second, buttons(board.Components)["Give time"])
				told := d.lastWith("the message that gives time", "gave you more time")
				assert.Equal(t, []string{first.ID}, told.Notified, "the player given time is pinged")
				assert.Contains(t, told.Content, "your clock now holds 5 days")
				d.command(ch, second, "give_time")
				full := time.Date(2026, 12, 1, 4, 0, 0, 0, newYork) // 116 hours to Saturday 00:00, 28 after Monday 00:00
				assert.Equal(t, full, d.game().Deadline().In(newYork))
				d.refused(d.click(board.ID, second, buttons(board.Components)["Give time"]), "at most 6 days")
				assert.Equal(t, full, d.game().Deadline().In(newYork), "nothing stored")
				shown, _ := d.dc.Message(board.ID)
				assert.Contains(t, shown.Content, fmt.Sprintf("<t:%d:R>", full.Unix()), "the board shows the new deadline")
				d.refused(d.command(ch, second, "claim"), "no win to claim yet")

				// A conditional reply.
				p := d.game().Position()
				theirs := legal(p)[0]
				require.NoError(t, p.Play(theirs))
				mine := legal(p)[0]
				planner := d.click(board.ID, second, buttons(board.Components)["Plan replies"])
				r := d.dc.WaitResponse(t, planner.ID)
				require.True(t, r.Ephemeral(), "only the planner's owner sees it")
				msg := d.dc.WaitOriginal(t, planner.ID, func(*discordtest.Message) bool { return true })
				pick := func(value string) *discordtest.Response {
					t.Helper()
					m, _ := d.dc.Message(msg.ID)
					i := d.pick(msg.ID, second, menuOf(m, value), value)
					return d.dc.WaitResponse(t, i.ID)
				}
				pick(theirs.String())
				r = pick(theirs.String() + " " + mine.String())
				assert.Contains(t, r.Content, "if "+theirs.String()+" → "+mine.String())
				assert.Equal(t, []game.Line{{theirs, mine}}, d.game().Plan(engine.Black))

				d.tick(48 * time.Hour) // Wednesday
				board = d.move(theirs.String(), 4)
				assert.Contains(t, board.Content, "a reply planned in advance")
				assert.Contains(t, board.Content, "played **"+mine.String()+"**")
				assert.Equal(t, []string{first.ID}, board.Notified, "after the planned reply the turn is back with the player who moved")
				moves := d.game().Moves()
				require.Len(t, moves, 4)
				assert.True(t, moves[3].Planned)
				assert.Equal(t, d.clock.Now().Add(168*time.Hour), d.game().Deadline(), "4 days left + 1 day of increment + the weekend")

				// A vacation: bob's clock stops with the time it had; alice
				// is told, with a ping; his return gives it back, with a
				// reminder that pings him.
				d.tick(24 * time.Hour) // Thursday
				reminders := len(d.reminders(ch))
				away := vacation(d.harness, first, "start")
				assert.Contains(t, d.reply(away), "Your vacation has started")
				told = messageAfter(t, d.dc, away, ch, "the opponent told", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Yours runs as usual") })
				assert.Equal(t, []string{second.ID}, told.Notified, "the opponent is told, with a ping")
				left, stopped := d.game().Stopped()
				require.True(t, stopped)
				assert.Equal(t, 96*time.Hour, left)
				d.refused(vacation(d.harness, first, "start"), "You are on vacation already")
				assert.Contains(t, d.reply(vacation(d.harness, first, "status")), "your move, your clock is stopped")
				for range 5 {
					d.tick(24 * time.Hour)
				}
				assert.Len(t, d.reminders(ch), reminders, "no reminder while the clock is stopped")
				back := vacation(d.harness, first, "end") // Tuesday 1 December
				assert.Contains(t, d.reply(back), "Welcome back!")
				remind := messageAfter(t, d.dc, back, ch, "the reminder", func(m *discordtest.Message) bool { return strings.HasPrefix(m.Content, "⏰") })
				assert.Equal(t, []string{first.ID}, remind.Notified)
				deadline := d.game().Deadline()
				assert.Equal(t, time.Date(2026, 12, 7, 4, 0, 0, 0, newYork), deadline.In(newYork), "96 hours: 92 to Saturday, 4 after Monday")

				// The clock runs out: reminders, then the claim message.
				for d.clock.Now().Add(24 * time.Hour).Before(deadline) {
					d.tick(24 * time.Hour)
				}
				d.tick(deadline.Sub(d.clock.Now()) - time.Second)
				assert.Greater(t, len(d.reminders(ch)), reminders+1, "a reminder before the clock runs out")
				assert.Empty(t, containing(d.dc, ch, "ran out of time"), "not a second early")
				d.tick(time.Second)
				claim := d.lastWith("the claim message", "ran out of time")
				assert.Equal(t, []string{second.ID}, claim.Notified, "the claim message pings the opponent of the late player")
				claimButtons := buttons(claim.Components)
				require.Contains(t, claimButtons, "Claim the win")
				require.Contains(t, claimButtons, "Keep waiting")
				d.refused(d.click(claim.ID, d.carol, claimButtons["Claim the win"]), "you can watch")
				d.refused(d.click(claim.ID, first, claimButtons["Claim the win"]), "your own clock")
				d.refused(d.click(claim.ID, first, claimButtons["Keep waiting"]), "your own clock")
				d.click(claim.ID, second, claimButtons["Keep waiting"])
				waiting, _ := d.dc.Message(claim.ID)
				assert.Contains(t, waiting.Content, "keeps waiting")
				assert.Empty(t, waiting.Components)
				assert.False(t, d.game().Over())

				// Six days later the late player moves: the game goes on.
				d.tick(6 * 24 * time.Hour) // Sunday 13 December
				board = d.move(legal(d.game().Position())[0].String(), 5)
				assert.Equal(t, []string{second.ID}, board.Notified)
				assert.Contains(t, board.Content, "starts their next turn with 1 day", "a late move keeps only the increment")
				d.refused(d.click(claim.ID, second, claimButtons["Claim the win"]), "no win to claim yet")
				board = d.move(legal(d.game().Position())[0].String(), 6)
				assert.Equal(t, []string{first.ID}, board.Notified)
				deadline = d.game().Deadline()
				assert.Equal(t, time.Date(2026, 12, 15, 0, 0, 0, 0, newYork), deadline.In(newYork),
					"a Sunday in New York: the day starts on Monday 00:00")

				// The clock runs out again; this time the win is claimed.
				d.tick(deadline.Sub(d.clock.Now()))
				claim = d.lastWith("the second claim message", "ran out of time")
				require.NotEqual(t, claimButtons["Claim the win"], buttons(claim.Components)["Claim the win"], "a new message")
				assert.Equal(t, []string{second.ID}, claim.Notified)
				assert.GreaterOrEqual(t, d.clock.Now().Sub(start), 21*24*time.Hour, "three weeks of play")
				d.click(claim.ID, second, buttons(claim.Components)["Claim the win"])
				final := d.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
				assert.Contains(t, final.Content, "ran out of time (claimed)")
				assert.ElementsMatch(t, []string{first.ID, second.ID}, final.Notified)
				f, err := d.st.FinishedGame(t.Context(), d.dc.GuildID(), g.ID)
				require.NoError(t, err)
				assert.True(t, f.Result().Claimed)
				assert.Equal(t, engine.Black, f.Result().Winner)
				assert.Len(t, f.PlanLog(), 1, "the plan is kept in the record")

				i := d.command(ch, second, "history")
				history := soleEmbed(t, d.dc.WaitResponse(t, i.ID)).Description
				assert.Contains(t, history, "on time (claimed) · ⏱ 3d+1d")
				i = d.command(ch, second, "export", discordtest.IntegerOption("game", int64(g.ID)))
				m := d.dc.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
				require.Len(t, m.Files, 1)
				text := string(m.Files[0].Data)
				assert.Contains(t, text, `[MoveTime "3d+1d"]`)
				assert.Contains(t, text, `[Result "Black wins, Red ran out of time (claimed)"]`)
				assert.Contains(t, text, "{Plan of Black after move 2: "+theirs.String()+" "+mine.String()+"}")
				rec, err := engine.ParseRecord(text)
				require.NoError(t, err, "the plans are comments: the record reads as any other")
				assert.Len(t, rec.Moves, 6)

				// Who each message notified: a reminder the late player, a
				// board that hands the turn over the player to move; nobody
				// else, ever.
				for _, m := range d.dc.Messages(ch) {
					assert.Subset(t, []string{first.ID, second.ID}, m.Notified, "nobody else is pinged: %q", m.Content)
					if strings.HasPrefix(m.Content, "⏰") {
						assert.Equal(t, []string{first.ID}, m.Notified, "a reminder pings the player to move: %q", m.Content)
					}
				}
			})
		}
	}
}

// TestOvertimeRefusals: giving time, claiming, planning and a move time
// refused, each answered only to the one who asked, in words that say
// what to do, and nothing stored (no commit).
func TestOvertimeRefusals(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			d := newDaysGame(t, mode, "bbolt")
			ch := d.channel.ID
			g, _ := d.start(discordtest.StringOption("move_time", "1d"))
			first, second := d.user(g, engine.Red), d.user(g, engine.Black)
			d.move("D4", 1)
			d.move("D7", 2)
			board := d.boardAt(ch, 2)
			d.command(ch, d.carol, "help") // a user's first interaction notes their locale: a write of its own
			before, commits := d.game().State(), d.commits()
			unchanged := func(what string) {
				t.Helper()
				assert.Equal(t, before, d.game().State(), "%s: nothing stored", what)
				assert.Equal(t, commits, d.commits(), "%s: no commit", what)
			}

			d.refused(d.command(ch, d.carol, "give_time"), "you can watch")
			unchanged("give time by a spectator")
			d.click(board.ID, second, buttons(board.Components)["Give time"]) // 1 day: the clock holds 2, the limit
			before, commits = d.game().State(), d.commits()
			d.refused(d.click(board.ID, second, buttons(board.Components)["Give time"]), "at most 2 days")
			unchanged("give time past the limit")
			d.refused(d.command(ch, first, "give_time"), "It's your turn")
			unchanged("give time on one's own turn")

			d.refused(d.command(ch, first, "challenge", d.userOption(d.carol), discordtest.StringOption("move_time", "soon")), "is not a move time", "**3d+1d**")
			unchanged("a move time that does not parse")

			d.refused(d.command(ch, second, "claim"), "no win to claim yet", "<t:")
			d.refused(d.command(ch, first, "claim"), "no win to claim yet")
			d.refused(d.command(ch, d.carol, "claim"), "you can watch")
			unchanged("claims before the time ran out")

			d.refused(d.command(ch, d.carol, "plan"), "you can watch")
			d.refused(d.command(ch, first, "plan"), "It's your turn")
			i := d.command(ch, second, "plan")
			msg := d.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			menu := ""
			for id := range menus(msg) {
				menu = id
			}
			require.NotEmpty(t, menu, "the planner has a menu")
			d.refused(d.pick(msg.ID, second, menu, "D4"), "cannot be played there")
			d.refused(d.pick(msg.ID, second, menu, "Z99"), "cannot be played there")
			d.refused(d.pick(msg.ID, d.carol, menu, legal(d.game().Position())[0].String()), "you can watch")
			unchanged("plans refused")

			// A plan of 20 lines takes no 21st.
			p := d.game().Position()
			lines := fullPlan(p)
			require.Len(t, lines, game.MaxPlanLines)
			_, err := d.st.UpdateGame(t.Context(), ch, func(g *storage.Game) error { return g.SetPlan(engine.Black, lines, d.clock.Now()) })
			require.NoError(t, err)
			before, commits = d.game().State(), d.commits()
			var extra game.Line
			for _, x := range legal(p) {
				q := p
				require.NoError(t, q.Play(x))
				for _, y := range legal(q) {
					l := game.Line{x, y}
					if !slices.ContainsFunc(lines, func(o game.Line) bool { return o[0] == x }) && extra == nil {
						extra = l
					}
				}
			}
			require.NotNil(t, extra, "a move the plan does not answer")
			d.refused(d.pick(msg.ID, second, menu, extra[0].String()+" "+extra[1].String()), "at most 20 lines")
			unchanged("a 21st line")

			// The owner sees their plan and clears it.
			i = d.command(ch, second, "plan")
			r := d.dc.WaitResponse(t, i.ID)
			assert.Contains(t, r.Content, "20. if ")
			msg = d.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			d.refused(d.click(msg.ID, first, buttons(r.Components)["Clear plan"]), "It's your turn")
			assert.Len(t, d.game().Plan(engine.Black), game.MaxPlanLines, "not cleared by the opponent")
			d.click(msg.ID, second, buttons(r.Components)["Clear plan"])
			assert.Nil(t, d.game().Plan(engine.Black))
			cleared, _ := d.dc.Message(msg.ID)
			assert.Contains(t, cleared.Content, "No replies planned yet.")
		})
	}
}

// TestClaimWindowEnds: a win on time nobody claims within 7 days is given
// as under timeouts auto: the game ends, not claimed, and both players are
// pinged.
func TestClaimWindowEnds(t *testing.T) {
	t.Parallel()
	d := newDaysGame(t, "gateway", "bbolt")
	g, _ := d.start(discordtest.StringOption("move_time", "12h"))
	first, second := d.user(g, engine.Red), d.user(g, engine.Black)
	d.move("D4", 1)
	d.move("D7", 2)
	d.tick(12 * time.Hour)
	claim := d.lastWith("the claim message", "ran out of time")
	assert.Equal(t, []string{second.ID}, claim.Notified)
	d.tick(7*24*time.Hour - time.Second)
	assert.False(t, d.game().Over(), "the claim is open for 7 days")
	d.tick(time.Second)
	final := d.waitBoard(d.channel.ID, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
	assert.Contains(t, final.Content, "<@"+first.ID+"> ran out of time — <@"+second.ID+"> wins")
	assert.NotContains(t, final.Content, "claimed")
	assert.ElementsMatch(t, []string{first.ID, second.ID}, final.Notified)
	f, err := d.st.FinishedGame(t.Context(), d.dc.GuildID(), g.ID)
	require.NoError(t, err)
	assert.Equal(t, game.TimedOut, f.Result().Ending)
	assert.False(t, f.Result().Claimed)
}

// TestTimeoutsSetting: /kulami settings timeouts:auto makes the guild's
// new games end at once when a clock runs out; the settings say which.
func TestTimeoutsSetting(t *testing.T) {
	t.Parallel()
	d := newDaysGame(t, "http", "bbolt")
	ch := d.channel.ID
	shown := d.reply(d.command(ch, d.alice, "settings"))
	assert.Contains(t, shown, "**Timeouts**: claim")
	saved := d.reply(d.commandWith(asAdmin, ch, d.alice, "settings", discordtest.StringOption("timeouts", "auto")))
	assert.Contains(t, saved, "**Timeouts**: auto")
	g, _ := d.start()
	assert.Equal(t, game.Auto, g.Timeouts())
}

// TestMoveTimeAutocomplete: move_time suggests the clocks that start with
// what was typed, and says what is wrong with a typed one that is not.
func TestMoveTimeAutocomplete(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	suggest := func(typed string) []*discordgo.ApplicationCommandOptionChoice {
		t.Helper()
		i := h.dc.Autocomplete(h.channel.ID, h.alice, "kulami", discordtest.Subcommand("challenge", h.userOption(h.bob),
			&discordgo.ApplicationCommandInteractionDataOption{Name: "move_time", Type: discordgo.ApplicationCommandOptionString, Value: typed, Focused: true}))
		h.send(i)
		return h.dc.WaitResponse(t, i.ID).Choices
	}
	values := func(cs []*discordgo.ApplicationCommandOptionChoice) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Value.(string))
		}
		return out
	}
	all := values(suggest(""))
	assert.Contains(t, all, "3d", "the plain clocks")
	assert.Contains(t, all, "3d+1d", "clocks with an increment")
	assert.Contains(t, all, "5m+10s", "live clocks")
	got := suggest("3d+1")
	require.NotEmpty(t, got)
	assert.Equal(t, "3d+1d", got[0].Value)
	assert.Contains(t, got[0].Name, "at most 6 days")
	got = suggest("2d+12h")
	require.NotEmpty(t, got)
	assert.Equal(t, "2d+12h", got[0].Value, "a typed clock is offered as it is")
	got = suggest("soon")
	require.NotEmpty(t, got)
	assert.Contains(t, got[0].Name, "is not a move time")
	for _, v := range []string{"1m", "3m+2s", "5m", "10m", "5m+10s", "15m+10s"} {
		assert.Contains(t, all, v, "the live controls")
	}
	got = suggest("10")
	require.NotEmpty(t, got)
	assert.Equal(t, "10m · 10 minutes for the whole game", got[0].Name)
	got = suggest("3d")
	require.NotEmpty(t, got)
	assert.Equal(t, "3d · 3 days per move", got[0].Name)
	got = suggest("5s")
	require.NotEmpty(t, got)
	assert.Contains(t, got[0].Name, "is out of range")
}

// TestPlanDropped: a plan whose reply is no longer legal when its move
// comes (a plan stored under other rules) is dropped, its owner told by
// direct message, and the turn is theirs, pinged as any turn.
func TestPlanDropped(t *testing.T) {
	t.Parallel()
	d := newDaysGame(t, "gateway", "bbolt")
	g, _ := d.start()
	first, second := d.user(g, engine.Red), d.user(g, engine.Black)
	d.move("D4", 1)
	d.move("D7", 2)
	x := legal(d.game().Position())[0]
	_, err := d.st.UpdateGame(t.Context(), d.channel.ID, func(g *storage.Game) error {
		s := g.State()
		s.Plans[engine.Black] = []game.Line{{x, x}} // its reply is the hole just taken
		gg, err := game.Restore(s)
		if err != nil {
			return err
		}
		g.Game = gg
		return nil
	})
	require.NoError(t, err)
	board := d.move(x.String(), 3)
	assert.Equal(t, []string{second.ID}, board.Notified, "the owner of the dropped plan is to move")
	assert.NotContains(t, board.Content, "planned")
	assert.Nil(t, d.game().Plan(engine.Black))
	var note *discordtest.Message
	d.dc.WaitUntil(t, "the note to the plan's owner", func() bool {
		for _, m := range d.dc.Messages(d.dc.DMChannel(second.ID).ID) {
			if strings.Contains(m.Content, "was dropped") {
				note = m
				return true
			}
		}
		return false
	})
	assert.Contains(t, note.Content, "if "+x.String()+" → "+x.String())
	assert.Empty(t, d.dc.Messages(d.dc.DMChannel(first.ID).ID), "the opponent is told nothing of the plan")
}

// TestPlannedReplyOneCommit: the move that sets off a planned reply and
// the reply commit together, once.
func TestPlannedReplyOneCommit(t *testing.T) {
	t.Parallel()
	d := newDaysGame(t, "gateway", "bbolt")
	d.start()
	d.move("D4", 1)
	d.move("D7", 2)
	p := d.game().Position()
	lines := fullPlan(p)
	require.NotNil(t, lines)
	_, err := d.st.UpdateGame(t.Context(), d.channel.ID, func(g *storage.Game) error { return g.SetPlan(engine.Black, lines, d.clock.Now()) })
	require.NoError(t, err)
	before := d.commits()
	board := d.move(lines[0][0].String(), 4)
	require.Eventually(t, func() bool { return d.game().BoardMessageID == board.ID }, hung, time.Millisecond, "the board is noted")
	assert.Equal(t, uint64(1), d.commits()-before, "one commit for the move and its planned reply")
	assert.Equal(t, 4, d.game().Ply())
}

// TestPlanFirstMove: the planner offers the 64 holes of the first move in
// menus of 25 at most, and a reply planned to it is played with it.
func TestPlanFirstMove(t *testing.T) {
	t.Parallel()
	d := newDaysGame(t, "http", "bbolt")
	g, _ := d.start()
	second := d.user(g, engine.Black)
	i := d.command(d.channel.ID, second, "plan")
	msg := d.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
	m := menus(msg)
	require.Len(t, m, 3, "64 holes in three menus")
	holes := 0
	for _, values := range m {
		holes += len(values)
	}
	assert.Equal(t, 64, holes)
	d.pick(msg.ID, second, menuOf(msg, "H8"), "H8")
	msg, _ = d.dc.Message(msg.ID)
	p := d.game().Position()
	require.NoError(t, p.Play(mustCell(t, "H8")))
	reply := legal(p)[0].String()
	d.pick(msg.ID, second, menuOf(msg, "H8 "+reply), "H8 "+reply)
	board := d.move("H8", 2)
	assert.Contains(t, board.Content, "played **"+reply+"**, a reply planned in advance")
}

// mustCell parses a hole.
func mustCell(t *testing.T, s string) engine.Cell {
	t.Helper()
	c, err := engine.ParseCell(s)
	require.NoError(t, err)
	return c
}
