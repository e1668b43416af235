package bot_test

import (
	"context"
	"fmt"
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

// backends are the stores the flows of days run on.
var backends = []string{"bbolt", "postgres"}

// daysStore is what the tests of days read from the bot's store,
// whichever backend it is.
type daysStore interface {
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	Challenge(ctx context.Context, channelID string) (*storage.Challenge, error)
	UserSettings(ctx context.Context, userID string) (storage.UserSettings, error)
	Vacation(ctx context.Context, userID string) (*storage.Vacation, error)
}

// newDaysHarness is a manual harness (the test runs the scheduler with
// tick) on the backend, and the store the bot uses.
func newDaysHarness(t *testing.T, mode, backend string) (*harness, daysStore) {
	t.Helper()
	if backend == "bbolt" {
		h := newManualHarness(t, mode)
		return h, h.store
	}
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	h := newHarnessWith(t, mode, func(h *harness) {
		h.manual = true
		h.wrap = func(*storage.Store) bot.Store { return pg }
		h.db = pg
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	return h, pg
}

// onEveryStore runs test in parallel subtests, one in each transport on
// each backend, each with a manual harness and its store.
func onEveryStore(t *testing.T, test func(t *testing.T, h *harness, st daysStore)) {
	t.Helper()
	for _, backend := range backends {
		for _, mode := range modes {
			t.Run(backend+"/"+mode, func(t *testing.T) {
				t.Parallel()
				h, st := newDaysHarness(t, mode, backend)
				test(t, h, st)
			})
		}
	}
}

// vacation runs /kulami vacation action:action as user.
func vacation(h *harness, user *discordgo.User, action string) *discordgo.Interaction {
	h.t.Helper()
	return h.command(h.channel.ID, user, "vacation", discordtest.StringOption("action", action))
}

// containing returns the messages of a channel whose text holds s.
func containing(dc *discordtest.Server, channel, s string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range dc.Messages(channel) {
		if strings.Contains(m.Content, s) {
			out = append(out, m)
		}
	}
	return out
}

// TestVacationOverTwoWeeks plays a game over more than two simulated weeks
// in which the player to move goes on vacation: their clock stops, their
// opponent is told once, with a ping; a second start and an end by the
// opponent are refused; a day before the bank runs out the player gets a
// direct message; when it runs out their clock runs again with the time it
// had and they get one reminder, which pings them; the empty bank refuses
// a new vacation until a week has passed. In both transports, on both
// backends.
func TestVacationOverTwoWeeks(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, h *harness, st daysStore) {
		ch := h.channel.ID
		g := h.challengeAndAccept()
		first, second := h.players(g)
		move := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
		board := messageAfter(t, h.dc, move, ch, "the board after the first move", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
		assert.Equal(t, []string{second.ID}, notified(board), "the move hands the turn over with a ping")
		h.tick(time.Hour)

		start := vacation(h, second, "start")
		assert.True(t, h.dc.WaitResponse(t, start.ID).Ephemeral())
		assert.Contains(t, h.reply(start), "Your vacation has started. Your bank holds 14 days")
		told := messageAfter(t, h.dc, start, ch, "the opponent told", func(m *discordtest.Message) bool {
			return strings.Contains(m.Content, "Yours runs as usual")
		})
		assert.Equal(t, []string{first.ID}, notified(told), "the opponent is told, with a ping")
		g, err := st.Game(t.Context(), ch)
		require.NoError(t, err)
		left, stopped := g.Stopped()
		assert.True(t, stopped, "the clock of the player on vacation is stopped")
		assert.Equal(t, 71*time.Hour, left, "holding the time it had")
		assert.True(t, g.Deadline().IsZero())

		before, err := st.Vacation(t.Context(), second.ID)
		require.NoError(t, err)
		opponent, err := st.Vacation(t.Context(), first.ID)
		require.NoError(t, err, "the opponent's bank opened with the game")
		commits := h.commits() // the bbolt file's; PostgreSQL's bank is compared
		h.refused(vacation(h, second, "start"), "You are on vacation already")
		h.refused(vacation(h, first, "end"), "You are not on vacation")
		after, err := st.Vacation(t.Context(), second.ID)
		require.NoError(t, err)
		assert.Equal(t, before, after, "a refusal stores nothing")
		assert.Equal(t, commits, h.commits(), "no commit")
		after, err = st.Vacation(t.Context(), first.ID)
		require.NoError(t, err)
		assert.Equal(t, opponent, after, "nor changes the opponent's bank")
		status := vacation(h, second, "status")
		assert.Contains(t, h.reply(status), "your move, your clock is stopped")

		// Thirteen days: no reminder, no warning; the game waits.
		for range 12 {
			h.tick(24 * time.Hour)
		}
		h.tick(23 * time.Hour)
		assert.Empty(t, h.reminders(ch), "no reminder while the clock is stopped")
		dms := h.dc.Messages(h.dc.DMChannel(second.ID).ID)
		assert.Empty(t, dms, "no warning before a day is left")
		h.tick(time.Hour) // 13 days in: a day is left
		dms = h.dc.Messages(h.dc.DMChannel(second.ID).ID)
		require.Len(t, dms, 1, "a day before the bank runs out, one direct message")
		assert.Contains(t, dms[0].Content, "Your Kulami vacation runs out")
		h.tick(12 * time.Hour)
		assert.Len(t, h.dc.Messages(h.dc.DMChannel(second.ID).ID), 1, "the warning comes once")

		h.tick(12 * time.Hour) // 14 days: the bank ran out
		reminders := h.reminders(ch)
		require.Len(t, reminders, 1, "one reminder when the clock runs again")
		assert.Equal(t, []string{second.ID}, notified(reminders[0]))
		g, err = st.Game(t.Context(), ch)
		require.NoError(t, err)
		_, stopped = g.Stopped()
		assert.False(t, stopped)
		assert.Equal(t, h.clock.Now().Add(71*time.Hour), g.Deadline(), "the clock runs again with the time it had")
		v, err := st.Vacation(t.Context(), second.ID)
		require.NoError(t, err)
		assert.False(t, v.On())
		assert.Len(t, containing(h.dc, ch, "Yours runs as usual"), 1, "the opponent was told once")

		before, err = st.Vacation(t.Context(), second.ID)
		require.NoError(t, err)
		commits = h.commits()
		h.refused(vacation(h, second, "start"), "Your vacation bank is empty")
		after, err = st.Vacation(t.Context(), second.ID)
		require.NoError(t, err)
		assert.Equal(t, before, after, "a refusal stores nothing")
		assert.Equal(t, commits, h.commits(), "no commit")
		h.refused(vacation(h, second, "end"), "You are not on vacation")

		// The player moves; the game goes on.
		move = h.command(ch, second, "move", discordtest.StringOption("cell", "D7"))
		board = messageAfter(t, h.dc, move, ch, "the board after the return", func(m *discordtest.Message) bool { return boardPly(m) == 2 })
		assert.Equal(t, []string{first.ID}, notified(board), "every move hands the turn over with a ping")

		h.tick(7 * 24 * time.Hour) // a week after the vacation: a day more
		assert.Contains(t, h.reply(vacation(h, second, "status")), "Your vacation bank holds 1 day")
	})
}

// TestVacationEndedEarly: a player who ends their vacation gets their
// clock back with the time it had, one reminder, and the hours begun
// stay spent; a game that starts while a player is on vacation starts
// with their clock stopped, and their opponent is told; time given to
// them keeps their return date on the board.
func TestVacationEndedEarly(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h, st := newDaysHarness(t, mode, "bbolt")
			ch := h.channel.ID
			start := vacation(h, h.bob, "start")
			assert.Contains(t, h.reply(start), "Your vacation has started")
			g := h.challengeAndAccept(discordtest.StringOption("first", "them")) // bob moves first
			_, stopped := g.Stopped()
			assert.True(t, stopped, "bob's clock starts stopped")
			var told []*discordtest.Message
			h.dc.WaitUntil(t, "alice told", func() bool {
				told = containing(h.dc, ch, "Yours runs as usual")
				return len(told) > 0
			})
			require.Len(t, told, 1, "alice is told when the game starts")
			assert.Equal(t, []string{h.alice.ID}, notified(told[0]))
			returns := fmt.Sprintf("<t:%d:f>", h.clock.Now().Add(14*24*time.Hour).Unix()) // the bank of 14 days, from now
			assert.Contains(t, h.board(ch).Content, "is on vacation until "+returns+" at the latest: their clock is stopped with 3 days on it")
			board := h.board(ch)
			h.command(ch, h.alice, "give_time")
			h.dc.WaitUntil(t, "the board rewritten with the time given", func() bool {
				m, _ := h.dc.Message(board.ID)
				return strings.Contains(m.Content, "4 days on it")
			})
			shown, _ := h.dc.Message(board.ID)
			assert.Contains(t, shown.Content, "is on vacation until "+returns+" at the latest", "the board keeps the return date")

			h.tick(90 * time.Minute)
			end := vacation(h, h.bob, "end")
			assert.Contains(t, h.reply(end), "Welcome back! Your clocks run again")
			assert.Contains(t, h.reply(end), "13 days 22 hours left", "two hours begun, two hours spent")
			reminder := messageAfter(t, h.dc, end, ch, "the reminder", func(m *discordtest.Message) bool { return strings.HasPrefix(m.Content, "⏰") })
			assert.Equal(t, []string{h.bob.ID}, notified(reminder))
			reminders := h.reminders(ch)
			assert.Len(t, reminders, 1, "one reminder")
			g, err := st.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, h.clock.Now().Add(96*time.Hour), g.Deadline(), "the 3 days it had and the day given")
		})
	}
}

// TestVacationsOff: a server that turns vacations off refuses them, and
// stores nothing.
func TestVacationsOff(t *testing.T) {
	t.Parallel()
	h, st := newDaysHarness(t, "gateway", "bbolt")
	h.commandWith(manageServer, h.channel.ID, h.alice, "settings", discordtest.IntegerOption("vacation_days", 0))
	h.refused(vacation(h, h.bob, "start"), "Vacations are turned off on this server.")
	_, err := st.Vacation(t.Context(), h.bob.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")
	assert.Contains(t, h.reply(vacation(h, h.bob, "status")), "Vacations are turned off")
}

// manageServer gives the member of an interaction Manage Server.
func manageServer(i *discordgo.Interaction) {
	i.Member.Permissions |= discordgo.PermissionManageGuild
}

// TestWeekendPauseAcrossDaylightSaving plays a turn over a weekend that
// holds Europe's change to summer time, for a player in Paris with quiet
// hours: their clock stops from Saturday 00:00 to Monday 00:00 in Paris
// (47 hours that weekend), the reminder due in their quiet hours comes at
// their end, and every message that hands the turn over pings. In both
// transports, on both backends.
func TestWeekendPauseAcrossDaylightSaving(t *testing.T) {
	t.Parallel()
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	onEveryStore(t, func(t *testing.T, h *harness, st daysStore) {
		ch := h.channel.ID
		// Friday 26 March 2027, 17:00 in Paris; summer time begins on
		// Sunday the 28th.
		h.tick(time.Date(2027, 3, 26, 16, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
		set := h.command(ch, h.bob, "notify", discordtest.StringOption("timezone", "europe/paris"), discordtest.StringOption("quiet_hours", "22-08"))
		assert.Contains(t, h.reply(set), "**Time zone**: Europe/Paris")
		assert.Contains(t, h.reply(set), "**Quiet hours**: 22-08")
		g := h.challengeAndAccept(discordtest.StringOption("weekends", "pause"), discordtest.StringOption("first", "them"),
			discordtest.StringOption("move_time", "1d"))
		require.Equal(t, h.bob.ID, g.Player(g.ToMove()).UserID)
		assert.True(t, g.Weekends())
		board := h.board(ch)
		assert.Equal(t, []string{h.bob.ID}, notified(board))
		assert.Contains(t, board.Content, "Clocks pause over each player's weekend.")
		// 7 hours to Saturday 00:00, 17 after Monday 00:00 (summer
		// time by then).
		assert.Equal(t, time.Date(2027, 3, 29, 17, 0, 0, 0, paris), g.Deadline().In(paris))

		// On Saturday the board says bob's clock is paused until Monday
		// 00:00 in Paris.
		h.tick(time.Date(2027, 3, 27, 12, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
		again := h.command(ch, h.alice, "board")
		shown := messageAfter(t, h.dc, again, ch, "the board again", func(m *discordtest.Message) bool { return boardPly(m) == 0 })
		monday := time.Date(2027, 3, 29, 0, 0, 0, 0, paris)
		assert.Contains(t, shown.Content, fmt.Sprintf("bob's clock is paused for the weekend until <t:%d:f>.", monday.Unix()))
		assert.Empty(t, h.reminders(ch), "no reminder on the weekend")

		// Half the day left at Monday 05:00 in Paris, in the quiet
		// hours: the reminder comes at 08:00.
		h.tick(time.Date(2027, 3, 29, 5, 59, 0, 0, time.UTC).Sub(h.clock.Now()))
		assert.Empty(t, h.reminders(ch), "no ping over the weekend nor in the quiet hours")
		h.tick(time.Minute)
		reminders := h.reminders(ch)
		require.Len(t, reminders, 1, "the reminder at the end of the quiet hours")
		assert.Equal(t, []string{h.bob.ID}, notified(reminders[0]))

		move := h.command(ch, h.bob, "move", discordtest.StringOption("cell", "D4"))
		next := messageAfter(t, h.dc, move, ch, "alice's turn", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
		assert.Equal(t, []string{h.alice.ID}, notified(next), "the move hands the turn over with a ping")
		g, err = st.Game(t.Context(), ch)
		require.NoError(t, err)
		assert.Equal(t, h.clock.Now().Add(24*time.Hour), g.Deadline(), "alice, in UTC, plays on a Monday: a day")

		none := h.command(ch, h.alice, "notify")
		assert.Contains(t, h.reply(none), "**Time zone**: UTC. Set yours with **/kulami notify timezone:**")
	})
}

// TestNotifyRefusals: a time zone or quiet hours that do not read are
// refused, with what to write (the nearest zone names), and nothing is
// stored.
func TestNotifyRefusals(t *testing.T) {
	t.Parallel()
	h, st := newDaysHarness(t, "http", "bbolt")
	ch := h.channel.ID
	tests := []struct {
		name string
		opt  *discordgo.ApplicationCommandInteractionDataOption
		want string
	}{
		{"unknown zone", discordtest.StringOption("timezone", "Europe/Pariss"), "I do not know the time zone “Europe/Pariss”. Did you mean `Europe/Paris`"},
		{"a city alone", discordtest.StringOption("timezone", "Tokio"), "`Asia/Tokyo`"},
		{"not HH-HH", discordtest.StringOption("quiet_hours", "22:08"), "write them HH-HH"},
		{"an hour past 23", discordtest.StringOption("quiet_hours", "25-08"), "from 00 to 23"},
		{"empty", discordtest.StringOption("quiet_hours", "08-08"), "from 1 to 12 hours"},
		{"too long", discordtest.StringOption("quiet_hours", "18-08"), "from 1 to 12 hours"},
	}
	h.command(ch, h.alice, "help") // a user's first interaction notes their locale: a write of its own
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			commits := h.commits()
			h.refused(h.command(ch, h.alice, "notify", discordtest.StringOption("dm", "on"), tt.opt), tt.want)
			u, err := st.UserSettings(t.Context(), h.alice.ID)
			require.NoError(t, err)
			assert.Equal(t, storage.UserSettings{}, storage.UserSettings{DMReminders: u.DMReminders, TimeZone: u.TimeZone, Quiet: u.Quiet}, "nothing stored")
			assert.Equal(t, commits, h.commits(), "no commit")
		})
	}
	ac := h.dc.Autocomplete(ch, h.alice, "kulami", discordtest.Subcommand("notify", discordtest.Focused(discordtest.StringOption("timezone", "paris"))))
	h.send(ac)
	r := h.dc.WaitResponse(t, ac.ID)
	require.NotEmpty(t, r.Choices)
	assert.Equal(t, "Europe/Paris", r.Choices[0].Value)
}

// TestNoPingInQuietHours: quiet hours set during a game reach it (its
// reminders keep out of them from then on); a reminder the clock does not
// time, the one when a vacation ends, comes in them without a ping and
// without a direct message; the next, out of them, pings.
func TestNoPingInQuietHours(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h, st := newDaysHarness(t, mode, "bbolt")
			ch := h.channel.ID
			g := h.challengeAndAccept(discordtest.StringOption("first", "them")) // bob moves; begun Sunday 09:00 UTC
			require.Equal(t, h.bob.ID, g.Player(g.ToMove()).UserID)
			h.command(ch, h.bob, "notify", discordtest.StringOption("dm", "on"), discordtest.StringOption("quiet_hours", "18-23"))
			g, err := st.Game(t.Context(), ch)
			require.NoError(t, err)
			_, q := g.Local(g.ToMove())
			assert.Equal(t, "18-23", q.String(), "the running game knows them")

			vacation(h, h.bob, "start")
			h.tick(10 * time.Hour) // Sunday 19:00 UTC, quiet for bob
			end := vacation(h, h.bob, "end")
			reminder := messageAfter(t, h.dc, end, ch, "the reminder", func(m *discordtest.Message) bool { return strings.HasPrefix(m.Content, "⏰") })
			assert.Empty(t, notified(reminder), "no ping in quiet hours")
			assert.Empty(t, h.dc.Messages(h.dc.DMChannel(h.bob.ID).ID), "nor a direct message")
			g, err = st.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC), g.Deadline(),
				"72 hours would end on Wednesday 19:00, in the quiet hours: 6 hours after their end")

			h.tick(46 * time.Hour) // half time: Tuesday 17:00, not quiet
			reminders := h.reminders(ch)
			require.Len(t, reminders, 2)
			assert.Equal(t, []string{h.bob.ID}, notified(reminders[1]), "out of quiet hours, a ping")
			assert.Len(t, h.dc.Messages(h.dc.DMChannel(h.bob.ID).ID), 1, "and a direct message")
		})
	}
}

// TestComputerGameKnowsWhereYouLive: a game against the computer starts
// with the person's time zone and quiet hours, and their clock stopped if
// they are on vacation.
func TestComputerGameKnowsWhereYouLive(t *testing.T) {
	t.Parallel()
	h, st := newDaysHarness(t, "gateway", "bbolt")
	ch := h.channel.ID
	h.command(ch, h.alice, "notify", discordtest.StringOption("timezone", "Asia/Tokyo"), discordtest.StringOption("quiet_hours", "23-07"))
	assert.Contains(t, h.reply(vacation(h, h.alice, "start")), "Your vacation has started")
	h.command(ch, h.alice, "play", discordtest.StringOption("level", "easy"), discordtest.StringOption("first", "me"))
	h.waitBoard(ch, "the first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 })
	g, err := st.Game(t.Context(), ch)
	require.NoError(t, err)
	c, err := g.Seat(h.alice.ID)
	require.NoError(t, err)
	z, q := g.Local(c)
	assert.Equal(t, "Asia/Tokyo", z.String())
	assert.Equal(t, "23-07", q.String())
	_, stopped := g.Stopped()
	assert.True(t, stopped, "alice moves first, on vacation: her clock starts stopped")
}

// TestWeekendsServerDefault: a server that pauses weekends by default
// makes every new challenge pause them, unless the challenge says play;
// the settings show the default.
func TestWeekendsServerDefault(t *testing.T) {
	t.Parallel()
	h, _ := newDaysHarness(t, "http", "bbolt")
	set := h.commandWith(manageServer, h.channel.ID, h.alice, "settings", discordtest.StringOption("weekends", "pause"))
	assert.Contains(t, h.reply(set), "**Weekends**: pause (clocks stop on weekends)")
	board, g := h.open()
	assert.True(t, g.Weekends(), "the server's default")
	assert.Contains(t, board.Content, "Clocks pause over each player's weekend.")

	h.channel = h.dc.AddChannel("weekdays")
	g = h.challengeAndAccept(discordtest.StringOption("weekends", "play"))
	assert.False(t, g.Weekends(), "the challenge's choice")
}

// TestVacationNoticeOutOfQuietHours: the warning that a vacation runs out
// would come in the player's quiet hours; it comes when they end.
func TestVacationNoticeOutOfQuietHours(t *testing.T) {
	t.Parallel()
	h, st := newDaysHarness(t, "gateway", "bbolt")
	ch := h.channel.ID
	h.command(ch, h.bob, "notify", discordtest.StringOption("quiet_hours", "22-08"))
	h.tick(18 * time.Hour) // Monday 03:00 UTC
	vacation(h, h.bob, "start")
	v, err := st.Vacation(t.Context(), h.bob.ID)
	require.NoError(t, err)
	require.Equal(t, 3, v.Notice().Hour(), "a day before the end is 03:00, in the quiet hours")
	dms := func() []*discordtest.Message { return h.dc.Messages(h.dc.DMChannel(h.bob.ID).ID) }

	h.tick(13 * 24 * time.Hour)
	assert.Empty(t, dms(), "not at 03:00")
	h.tick(5*time.Hour - time.Minute)
	assert.Empty(t, dms(), "nor at 07:59")
	h.tick(time.Minute)
	require.Len(t, dms(), 1, "at 08:00, when the quiet hours end")
	assert.Contains(t, dms()[0].Content, "Your Kulami vacation runs out")
}

// TestTournamentGameKnowsWhereYouLive: a tournament's games start as a
// challenge's do: each player's time zone and quiet hours, the server's
// weekend pause, and the clock of a player on vacation stopped, their
// opponent told.
func TestTournamentGameKnowsWhereYouLive(t *testing.T) {
	t.Parallel()
	c := newCup(t, "gateway", 4)
	h := c.h
	ch := h.channel.ID
	h.commandWith(manageServer, ch, h.alice, "settings", discordtest.StringOption("weekends", "pause"))
	h.command(ch, h.bob, "notify", discordtest.StringOption("timezone", "Europe/Paris"), discordtest.StringOption("quiet_hours", "22-08"))
	text, _ := c.tournament(h.alice, manager, "create", discordtest.StringOption("name", "Winter Cup"), discordtest.IntegerOption("rounds", 1),
		discordtest.IntegerOption("days_per_round", 7), discordtest.StringOption("start", "1d"), discordtest.IntegerOption("max_players", 4))
	require.Contains(t, text, "Winter Cup")
	c.announced(1)
	for _, u := range c.players {
		c.tournament(u, func(*discordgo.Interaction) {}, "join")
	}
	assert.Contains(t, h.reply(vacation(h, h.carol, "start")), "Your vacation has started")
	h.tick(24 * time.Hour)
	st := c.stored(1)
	require.Empty(t, st.Pending(), "the round's games are open")
	seen := map[string]bool{}
	for _, chans := range games(t, st, 1) {
		for _, thread := range chans {
			g, err := c.db.Game(t.Context(), thread)
			require.NoError(t, err)
			assert.True(t, g.Weekends(), "the server pauses weekends")
			for col, p := range g.Players() {
				seen[p.UserID] = true
				z, q := g.Local(engine.Color(col))
				switch p.UserID {
				case h.bob.ID:
					assert.Equal(t, "Europe/Paris", z.String())
					assert.Equal(t, "22-08", q.String())
				case h.carol.ID:
					assert.False(t, g.AwaySince(engine.Color(col)).IsZero(), "carol starts away")
					if g.ToMove() == engine.Color(col) {
						_, stopped := g.Stopped()
						assert.True(t, stopped, "carol's clock starts stopped")
					}
					opp := g.Player(engine.Color(col).Other()).UserID
					var told []*discordtest.Message
					h.dc.WaitUntil(t, "carol's opponent told", func() bool {
						told = containing(h.dc, thread, "Yours runs as usual")
						return len(told) > 0
					})
					assert.Equal(t, []string{opp}, notified(told[0]))
				default:
					assert.Equal(t, "UTC", z.String())
				}
			}
		}
	}
	assert.True(t, seen[h.bob.ID] && seen[h.carol.ID], "bob and carol play")
}

// TestVacationStatusEveryServer: a vacation stops the player's clocks on
// every server, and status lists the games of every server, linking to
// those of another.
func TestVacationStatusEveryServer(t *testing.T) {
	t.Parallel()
	h, _ := newDaysHarness(t, "http", "bbolt")
	h.challengeAndAccept()
	other := h.dc.GuildID() + "1"
	gg, err := game.New(game.Config{Layout: engine.Square(), First: engine.Red, MoveTime: 24 * time.Hour,
		Players: [2]game.Player{{UserID: h.bob.ID, Name: "bob"}, {UserID: h.carol.ID, Name: "carol"}}}, h.clock.Now())
	require.NoError(t, err)
	require.NoError(t, h.store.CreateGame(t.Context(), &storage.Game{GuildID: other, ChannelID: "9000", Game: gg}))

	status := h.reply(vacation(h, h.bob, "status"))
	assert.Contains(t, status, "Your games, on every server")
	assert.Contains(t, status, "<#"+h.channel.ID+"> against alice")
	assert.Contains(t, status, "https://discord.com/channels/"+other+"/9000 (on another server) against carol: your move, your clock runs")
	vacation(h, h.bob, "start")
	status = h.reply(vacation(h, h.bob, "status"))
	assert.Contains(t, status, "(on another server) against carol: your move, your clock is stopped")
}

// playAny makes the player to move in the game of the harness's channel
// play its first legal hole, and waits for the board that follows.
func playAny(t *testing.T, h *harness) {
	t.Helper()
	g, err := h.store.Game(t.Context(), h.channel.ID)
	require.NoError(t, err)
	p := g.Position()
	toMove, _ := h.players(g)
	h.command(h.channel.ID, toMove, "move", discordtest.StringOption("cell", p.Legal().Cells(p.Layout())[0].String()))
	h.boardAt(h.channel.ID, g.Ply()+1)
}

// forgetBanks makes the harness's store one of a release before banks
// opened with a player's first game: the same records, without the
// vacation banks (an export imported into a new file, the bot restarted
// on it).
func forgetBanks(t *testing.T, h *harness) {
	t.Helper()
	h.stop()
	old, err := storage.Open(h.dbPath, storage.Options{})
	require.NoError(t, err)
	path := h.dbPath + ".old"
	s, err := storage.Open(path, storage.Options{})
	require.NoError(t, err)
	_, err = s.Import(t.Context(), func(ctx context.Context, fn func(storage.Record) error) error {
		return old.Export(ctx, func(r storage.Record) error {
			if kind, _ := r.Kind(); kind == "vacation" {
				return nil
			}
			return fn(r)
		})
	})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.NoError(t, old.Close())
	h.dbPath = path
	h.start()
}

// TestVacationBankGrows: the bank grows by a day every week from the
// player's first game, whether or not they ever took a vacation, and
// status says so, with the date of the next day: after five weeks of
// play it holds 19 days. A player of an earlier release, who has no bank,
// has it opened at their oldest running game. In both transports.
func TestVacationBankGrows(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		before bool // a player of an earlier release
	}{{"from the first game", false}, {"a player of an earlier release", true}} {
		for _, mode := range modes {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				h, _ := newDaysHarness(t, mode, "bbolt")
				g := h.challengeAndAccept()
				if tt.before {
					forgetBanks(t, h)
					_, err := h.store.Vacation(t.Context(), h.alice.ID)
					require.ErrorIs(t, err, storage.ErrNotFound, "no bank yet")
				}
				for range 18 { // five weeks and a day, a move every other day
					h.tick(2 * 24 * time.Hour)
					playAny(t, h)
				}
				h.tick(time.Hour)
				status := h.reply(vacation(h, h.alice, "status"))
				assert.Contains(t, status, "Your vacation bank holds 19 days (at most 30 days).")
				assert.Contains(t, status, fmt.Sprintf("It grows by a day at the end of every week since your first game (<t:%d:D>); the next day comes on <t:%d:D>.",
					g.Created().Unix(), g.Created().Add(6*7*24*time.Hour).Unix()))
				v, err := h.store.Vacation(t.Context(), h.alice.ID)
				require.NoError(t, err, "the bank is stored")
				assert.True(t, v.Joined.Equal(g.Created()), "from the game's start")
				start := h.reply(vacation(h, h.alice, "start"))
				assert.Contains(t, start, "Your bank holds 19 days")
			})
		}
	}
}
