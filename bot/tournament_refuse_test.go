package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/tournament"
)

// none leaves an interaction as it is.
func none(*discordgo.Interaction) {}

// str, num are options of the tournament commands.
var (
	str = discordtest.StringOption
	num = discordtest.IntegerOption
)

// refusedNothingStored checks that running /kulami tournament sub is
// refused, only to user, with a message containing want, and that the
// database committed nothing.
func (c *cup) refusedNothingStored(user *discordgo.User, change func(*discordgo.Interaction), want, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) {
	c.h.t.Helper()
	before := c.h.commits()
	_, i := c.tournament(user, change, sub, opts...)
	c.h.refused(i, want)
	assert.Equal(c.h.t, before, c.h.commits(), "nothing is stored when %s %s is refused", sub, want)
}

// TestTournamentRefusals: every way of getting a tournament command
// wrong that the issue lists is refused, in a message only the user sees
// that says what to do, and nothing is stored.
func TestTournamentRefusals(t *testing.T) {
	c := newCup(t, "gateway", 6)
	h := c.h
	for _, u := range c.players { // a user's first interaction notes their locale: not a refusal's write
		c.tournament(u, none, "list")
	}
	title := str("name", "Winter Swiss") // the tournament's name
	t.Run("create", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			user   *discordgo.User
			change func(*discordgo.Interaction)
			want   string
			opts   []*discordgo.ApplicationCommandInteractionDataOption
		}{
			{"without Manage Server", h.bob, none, "needs the **Manage Server** permission", []*discordgo.ApplicationCommandInteractionDataOption{title, str("start", "2d")}},
			{"too many rounds", h.alice, manager, "between 1 and 15", []*discordgo.ApplicationCommandInteractionDataOption{title, num("rounds", 16), str("start", "2d")}},
			{"no rounds", h.alice, manager, "between 1 and 15", []*discordgo.ApplicationCommandInteractionDataOption{title, num("rounds", 0), str("start", "2d")}},
			{"too many days", h.alice, manager, "between 1 and 30", []*discordgo.ApplicationCommandInteractionDataOption{title, num("days_per_round", 31), str("start", "2d")}},
			{"no days", h.alice, manager, "between 1 and 30", []*discordgo.ApplicationCommandInteractionDataOption{title, num("days_per_round", 0), str("start", "2d")}},
			{"a start it cannot read", h.alice, manager, "cannot read the start", []*discordgo.ApplicationCommandInteractionDataOption{title, str("start", "next tuesday")}},
			{"a start too far", h.alice, manager, "within the next 90 days", []*discordgo.ApplicationCommandInteractionDataOption{title, str("start", "91d")}},
			{"a start in the past", h.alice, manager, "within the next 90 days", []*discordgo.ApplicationCommandInteractionDataOption{title, str("start", "2020-01-01 10:00")}},
			{"when full without a limit", h.alice, manager, "give **max_players**", []*discordgo.ApplicationCommandInteractionDataOption{title, str("start", "when full")}},
			{"a name too long", h.alice, manager, "1 to 100 characters", []*discordgo.ApplicationCommandInteractionDataOption{str("name", strings.Repeat("x", 101)), str("start", "2d")}},
			{"a name that mentions everyone", h.alice, manager, "may not mention", []*discordgo.ApplicationCommandInteractionDataOption{str("name", "Cup @everyone"), str("start", "2d")}},
			{"a name that mentions someone", h.alice, manager, "may not mention", []*discordgo.ApplicationCommandInteractionDataOption{str("name", "Cup of <@"+h.bob.ID+">"), str("start", "2d")}},
			{"too few max players", h.alice, manager, "between 3 and 256", []*discordgo.ApplicationCommandInteractionDataOption{title, num("max_players", 2), str("start", "2d")}},
			{"more rounds than the players can pair", h.alice, manager, "the most is 5", []*discordgo.ApplicationCommandInteractionDataOption{title, num("rounds", 8), num("max_players", 6), str("start", "2d")}},
			{"a layout not offered", h.alice, manager, "Pick the layout", []*discordgo.ApplicationCommandInteractionDataOption{title, str("layout", "hex"), str("start", "2d")}},
			{"rules not offered", h.alice, manager, "Pick the rules", []*discordgo.ApplicationCommandInteractionDataOption{title, str("rules", "chess"), str("start", "2d")}},
			{"a move time not offered", h.alice, manager, "Pick a move time", []*discordgo.ApplicationCommandInteractionDataOption{title, str("move_time", "2w"), str("start", "2d")}},
		} {
			t.Run(tc.name, func(t *testing.T) { c.refusedNothingStored(tc.user, tc.change, tc.want, "create", tc.opts...) })
		}
	})

	t.Run("the tournament role may create", func(t *testing.T) {
		role := "777000777"
		h.commandWith(manager, h.channel.ID, h.alice, "settings", &discordgo.ApplicationCommandInteractionDataOption{
			Name: "tournament_role", Type: discordgo.ApplicationCommandOptionRole, Value: role})
		c.refusedNothingStored(h.bob, none, "or the role <@&"+role+">", "create", title, str("start", "2d"))
		text, _ := c.tournament(h.bob, func(i *discordgo.Interaction) { i.Member.Roles = []string{role} }, "create",
			str("name", "Role Cup"), num("rounds", 1), num("max_players", 3), str("start", "2d"))
		assert.Contains(t, text, "**Role Cup** (number 1) is created")
		c.announced(1)
	})

	// Role Cup: 3 players at most, 1 round, starting in 2 days.
	t.Run("join", func(t *testing.T) {
		c.tournament(h.alice, none, "join")
		c.refusedNothingStored(h.alice, none, "already in **Role Cup**", "join")
		c.tournament(h.bob, none, "join")
		c.tournament(h.carol, none, "join")
		c.refusedNothingStored(c.players[3], none, "**Role Cup** is full", "join", num("tournament", 1))
		c.refusedNothingStored(c.players[3], none, "no tournament number 9", "join", num("tournament", 9))
		c.refusedNothingStored(h.carol, none, "Only the organiser of **Role Cup**", "start")
	})

	t.Run("start with too few players", func(t *testing.T) {
		text, _ := c.tournament(h.alice, manager, "create", str("name", "Small Cup"), num("rounds", 3), str("start", "3d"))
		require.Contains(t, text, "(number 2)")
		c.announced(2)
		c.tournament(h.alice, none, "join", num("tournament", 2))
		c.tournament(h.bob, none, "join", num("tournament", 2))
		c.refusedNothingStored(h.alice, none, "at least 3 players", "start", num("tournament", 2))
		c.tournament(h.carol, none, "join", num("tournament", 2))
		c.tournament(c.players[3], none, "join", num("tournament", 2))
		c.tournament(c.players[4], none, "join", num("tournament", 2))
		c.tournament(c.players[4], none, "leave", num("tournament", 2)) // before the start: simply out
		c.refusedNothingStored(c.players[4], none, "do not play in **Small Cup**", "leave", num("tournament", 2))
	})

	t.Run("start with more rounds than the players can pair", func(t *testing.T) {
		text, _ := c.tournament(h.alice, manager, "create", str("name", "Long Cup"), num("rounds", 4), str("start", "3d"))
		require.Contains(t, text, "(number 3)")
		c.announced(3)
		for _, u := range c.players[:3] {
			c.tournament(u, none, "join", num("tournament", 3))
		}
		c.refusedNothingStored(h.alice, none, "the most is 3", "start", num("tournament", 3))
		events := len(h.dc.ScheduledEvents())
		text, _ = c.tournament(h.alice, none, "cancel", num("tournament", 3))
		assert.Contains(t, text, "**Long Cup** is cancelled")
		assert.Len(t, h.dc.ScheduledEvents(), events-1, "its scheduled event is deleted")
		c.refusedNothingStored(c.players[3], none, "**Long Cup** was cancelled", "join", num("tournament", 3))
	})

	t.Run("leave after the start is a withdrawal, confirmed first", func(t *testing.T) {
		c.tournament(h.alice, none, "start", num("tournament", 2))
		h.tick(time.Minute) // round 1's games open
		c.refusedNothingStored(h.alice, none, "has started already", "start", num("tournament", 2))
		c.refusedNothingStored(h.alice, none, "round from 1 to 1", "pairings", num("tournament", 2), num("round", 2))
		before := h.commits()
		_, i := c.tournament(h.bob, none, "leave", num("tournament", 2))
		r := h.dc.WaitResponse(t, i.ID)
		assert.True(t, r.Ephemeral())
		assert.Contains(t, h.reply(i), "withdraws you from its next rounds")
		assert.Equal(t, before, h.commits(), "nothing is stored before the confirmation")
		msg := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
		stay := h.click(msg.ID, h.bob, buttons(r.Components)["Stay in"])
		assert.Contains(t, h.dc.WaitResponse(t, stay.ID).Content, "You stay in **Small Cup**")
		assert.True(t, joinedIn(c.stored(2), h.bob.ID))
		yes := h.click(msg.ID, h.bob, buttons(r.Components)["Yes, withdraw"])
		assert.Contains(t, h.dc.WaitResponse(t, yes.ID).Content, "You have withdrawn from **Small Cup**")
		assert.False(t, joinedIn(c.stored(2), h.bob.ID))

		st := c.stored(2)
		ch := games(t, st, 1)[0][0]
		g, err := h.store.Game(t.Context(), ch)
		require.NoError(t, err)
		h.refused(h.command(ch, c.byID[g.Player(g.ToMove()).UserID], "abort"), "cannot be aborted")
	})

	t.Run("a late join, then the tournament is over", func(t *testing.T) {
		text, _ := c.tournament(c.players[4], none, "join", num("tournament", 2))
		assert.Contains(t, text, "You joined **Small Cup**", "a player may join until half the rounds are paired")
		st := c.stored(2)
		for _, chans := range games(t, st, 1) {
			g, err := h.store.Game(t.Context(), chans[0])
			require.NoError(t, err)
			c.resign(chans[0], c.byID[g.Player(g.ToMove()).UserID])
		}
		h.tick(time.Minute) // round 2, with the late joiner
		st = c.stored(2)
		_, n := st.State()
		require.Equal(t, 2, n)
		assert.Contains(t, playing(st.Rounds()[1]), c.players[4].ID, "the late joiner plays round 2")
		c.refusedNothingStored(c.players[5], none, "too late to join", "join", num("tournament", 2))
		for n := 2; n <= 3; n++ {
			for _, chans := range games(t, c.stored(2), n) {
				g, err := h.store.Game(t.Context(), chans[0])
				require.NoError(t, err)
				c.resign(chans[0], c.byID[g.Player(g.ToMove()).UserID])
			}
			h.tick(time.Minute)
		}
		phase, _ := c.stored(2).State()
		require.Equal(t, tournament.Finished, phase)
		c.refusedNothingStored(h.bob, none, "**Small Cup** is over", "join", num("tournament", 2))
	})
}

// joinedIn reports whether user plays in st and has not withdrawn.
func joinedIn(st interface{ Players() []tournament.Player }, user string) bool {
	for _, p := range st.Players() {
		if p.ID == user {
			return !p.Withdrawn
		}
	}
	return false
}

// playing lists the players of a round, the bye included.
func playing(r tournament.Round) []string {
	out := []string{r.Bye}
	for _, p := range r.Pairings {
		out = append(out, p.First, p.Second)
	}
	return out
}

// TestTournamentWithoutEventPermission: where the bot may not create
// events, the tournament is created and announced without one, and the
// log says why.
func TestTournamentWithoutEventPermission(t *testing.T) {
	h := newManualHarness(t, "http")
	c := &cup{h: h, players: []*discordgo.User{h.alice}, byID: map[string]*discordgo.User{h.alice.ID: h.alice}, db: h.store, speak: none}
	text, _ := c.tournament(h.alice, manager, "create", str("name", "Quiet Cup"), str("start", "2026-12-20 18:00"))
	assert.Contains(t, text, "**Quiet Cup** (number 1) is created")
	c.announced(1)
	assert.Empty(t, h.dc.ScheduledEvents())
	assert.Contains(t, h.logs.String(), "no scheduled event for a tournament: the bot may not create events")
	assert.Empty(t, h.dc.Violations())
}

// TestTournamentStartsOnItsOwn: a tournament that starts when full starts
// with its last player; one whose start time comes with too few players
// is cancelled, and its channel told.
func TestTournamentStartsOnItsOwn(t *testing.T) {
	c := newCup(t, "http", 3)
	h := c.h
	text, _ := c.tournament(h.alice, manager, "create", str("name", "Full Cup"), num("rounds", 2), num("max_players", 3), str("start", "when full"))
	require.Contains(t, text, "(number 1)")
	c.announced(1)
	text, _ = c.tournament(h.alice, manager, "create", str("name", "Early Cup"), str("start", "2d"))
	require.Contains(t, text, "(number 2)")
	c.announced(2)
	c.tournament(h.alice, none, "join", num("tournament", 2))
	for _, u := range c.players {
		c.tournament(u, none, "join", num("tournament", 1))
	}
	h.tick(time.Minute)
	st := c.stored(1)
	phase, round := st.State()
	assert.Equal(t, tournament.Playing, phase, "full, it starts")
	assert.Equal(t, 1, round)
	assert.Empty(t, st.Pending(), "its games are open")

	h.tick(48 * time.Hour)
	phase, _ = c.stored(2).State()
	assert.Equal(t, tournament.Cancelled, phase, "one player at its start time")
	h.dc.WaitUntil(t, "the channel is told", func() bool {
		for _, m := range h.dc.Messages(h.channel.ID) {
			if strings.Contains(m.Content, "**Early Cup** could not start: it needs at least 3 players, and only 1 joined") {
				return true
			}
		}
		return false
	})
}

// TestTournamentTooManyRoundsToStart: a tournament whose players at its
// start time cannot play its rounds without meeting twice (4 players, 5
// rounds) is cancelled, and its channel told that reason, not that it
// lacks players.
func TestTournamentTooManyRoundsToStart(t *testing.T) {
	c := newCup(t, "http", 4)
	h := c.h
	text, _ := c.tournament(h.alice, manager, "create", str("name", "Long Cup"), num("rounds", 5), str("start", "1d"))
	require.Contains(t, text, "(number 1)")
	c.announced(1)
	for _, u := range c.players {
		c.tournament(u, none, "join")
		require.True(t, joinedIn(c.stored(1), u.ID))
	}
	h.tick(24 * time.Hour)
	phase, _ := c.stored(1).State()
	require.Equal(t, tournament.Cancelled, phase, "4 players cannot play 5 rounds")
	told := func() []string {
		var out []string
		for _, m := range h.dc.Messages(h.channel.ID) {
			if strings.Contains(m.Content, "**Long Cup** could not start") {
				out = append(out, m.Content)
			}
		}
		return out
	}
	h.dc.WaitUntil(t, "the channel is told", func() bool { return len(told()) == 1 })
	assert.Contains(t, told()[0], "it asks for 5 rounds, and its 4 players can play only 3 without meeting twice")
	assert.NotContains(t, told()[0], "at least 3 players")
}
