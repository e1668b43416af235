package bot_test

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// club is a harness with as many members as a test needs, each known by
// name, whose user options resolve to them as Discord resolves them.
// Its helpers play each game in a channel of its own, so waiting for a
// board never scans a long channel.
type club struct {
	*harness
	users  map[string]*discordgo.User // by ID
	byName map[string]*discordgo.User
}

// newClub starts a harness whose members are alice, bob, carol and the
// users named.
func newClub(t testing.TB, mode string, names ...string) *club {
	t.Helper()
	return newClubWith(t, mode, func(*harness) {}, names...)
}

// newClubWith is newClub with setup changing the harness before the bot
// starts.
func newClubWith(t testing.TB, mode string, setup func(*harness), names ...string) *club {
	t.Helper()
	h := newHarnessWith(t, mode, setup)
	c := &club{harness: h, users: map[string]*discordgo.User{}, byName: map[string]*discordgo.User{}}
	for _, u := range []*discordgo.User{h.alice, h.bob, h.carol} {
		c.users[u.ID], c.byName[u.Username] = u, u
	}
	for _, n := range names {
		u := h.dc.AddUser(n)
		c.users[u.ID], c.byName[n] = u, u
	}
	return c
}

// user returns the member called name.
func (c *club) user(name string) *discordgo.User {
	c.t.Helper()
	u, ok := c.byName[name]
	require.True(c.t, ok, "no member called %s", name)
	return u
}

// cmd runs /kulami sub as u in channel and returns the interaction once
// it has its first response.
func (c *club) cmd(channel string, u *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	c.t.Helper()
	i := c.dc.Command(channel, u, "kulami", discordtest.Subcommand(sub, opts...))
	d := i.Data.(discordgo.ApplicationCommandInteractionData)
	for _, o := range opts {
		if o.Type != discordgo.ApplicationCommandOptionUser {
			continue
		}
		id := o.Value.(string)
		ru, ok := c.users[id]
		if !ok {
			ru = &discordgo.User{ID: id, Username: "stranger", GlobalName: "stranger"}
			if b := c.dc.BotUser(); b.ID == id {
				ru = b
			}
		}
		if d.Resolved == nil {
			d.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}}
		}
		d.Resolved.Users[id] = ru
	}
	i.Data = d
	c.send(i)
	c.dc.WaitResponse(c.t, i.ID)
	return i
}

// hasBoard reports whether m shows a board image.
func hasBoard(m *discordtest.Message) bool {
	for _, f := range m.Files {
		if f.Name == "board.png" {
			return true
		}
	}
	return false
}

// boardAfter waits for the board that follows i: the first board the bot
// posted in i's channel after i.
func (c *club) boardAfter(i *discordgo.Interaction) *discordtest.Message {
	c.t.Helper()
	return messageAfter(c.t, c.dc, i, i.ChannelID, "the board", hasBoard)
}

// game returns the game going on in channel.
func (c *club) game(channel string) *storage.Game {
	c.t.Helper()
	g, err := c.store.Game(c.t.Context(), channel)
	require.NoError(c.t, err)
	return g
}

// finished returns a finished game of the harness's guild.
func (c *club) finished(id uint64) *storage.FinishedGame {
	c.t.Helper()
	f, err := c.store.FinishedGame(c.t.Context(), c.dc.GuildID(), id)
	require.NoError(c.t, err)
	return f
}

// newGame has red challenge black in a new channel, red to move first,
// and black accept with the challenge's button; it returns the game once
// its first board is out. opts are further options of the challenge.
func (c *club) newGame(red, black *discordgo.User, opts ...*discordgo.ApplicationCommandInteractionDataOption) *storage.Game {
	c.t.Helper()
	ch := c.dc.AddChannel(fmt.Sprintf("%s-vs-%s", red.Username, black.Username))
	opts = append([]*discordgo.ApplicationCommandInteractionDataOption{
		discordtest.UserOption("opponent", black.ID), discordtest.StringOption("first", "me"),
	}, opts...)
	i := c.cmd(ch.ID, red, "challenge", opts...)
	msg := messageAfter(c.t, c.dc, i, ch.ID, "the challenge", hasButton("Accept"))
	require.Eventually(c.t, func() bool {
		ch, err := c.store.Challenge(c.t.Context(), ch.ID)
		return err == nil && ch.MessageID == msg.ID
	}, hung, time.Millisecond, "the challenge knows its message")
	accept := c.click(msg.ID, black, buttons(msg.Components)["Accept"])
	c.boardAfter(accept)
	g := c.game(ch.ID)
	require.Equal(c.t, red.ID, g.Player(engine.Red).UserID)
	return g
}

// playAI starts a game of u against the computer at level in a new
// channel, u moving first, and returns it once its first board is out.
func (c *club) playAI(u *discordgo.User, level string) *storage.Game {
	c.t.Helper()
	ch := c.dc.AddChannel(u.Username + "-vs-ai")
	c.boardAfter(c.cmd(ch.ID, u, "play", discordtest.StringOption("level", level), discordtest.StringOption("first", "me")))
	return c.game(ch.ID)
}

// toMove returns the member whose turn it is in the game of channel.
func (c *club) toMove(channel string) *discordgo.User {
	g := c.game(channel)
	return c.users[g.Player(g.ToMove()).UserID]
}

// playMoves plays cells in the game of channel with /kulami move, each by
// the player to move, and returns the last board.
func (c *club) playMoves(channel string, cells ...string) *discordtest.Message {
	c.t.Helper()
	var board *discordtest.Message
	for _, cell := range cells {
		board = c.boardAfter(c.cmd(channel, c.toMove(channel), "move", discordtest.StringOption("cell", cell)))
	}
	return board
}

// resign has u resign the game of channel with /kulami resign and its
// confirmation button, and returns the final board.
func (c *club) resign(channel string, u *discordgo.User) *discordtest.Message {
	c.t.Helper()
	i := c.cmd(channel, u, "resign")
	ask := c.dc.WaitOriginal(c.t, i.ID, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
	return c.boardAfter(c.click(ask.ID, u, buttons(ask.Components)["Yes, resign"]))
}

// agreeDraw has by offer a draw with /kulami draw and to accept it with
// the offer's button, and returns the final board.
func (c *club) agreeDraw(channel string, by, to *discordgo.User) *discordtest.Message {
	c.t.Helper()
	i := c.cmd(channel, by, "draw")
	offer := messageAfter(c.t, c.dc, i, channel, "the draw offer", hasButton("Accept draw"))
	assert.Contains(c.t, offer.Content, "<@"+to.ID+">", "the offer pings the opponent")
	return c.boardAfter(c.click(offer.ID, to, buttons(offer.Components)["Accept draw"]))
}

// abort has u call off the game of channel with /kulami abort, and
// returns the final board.
func (c *club) abort(channel string, u *discordgo.User) *discordtest.Message {
	c.t.Helper()
	return c.boardAfter(c.cmd(channel, u, "abort"))
}

// timeOut lets the clock run past the deadline of the player to move in
// the game of channel, and returns the final board the scheduler posts.
func (c *club) timeOut(channel string) *discordtest.Message {
	c.t.Helper()
	g := c.game(channel)
	require.False(c.t, g.Deadline().IsZero(), "the game has a clock")
	c.clock.Advance(g.Deadline().Sub(c.clock.Now()))
	return c.waitBoard(channel, "the board of the timed-out game", func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "ran out of time")
	})
}

// button returns the button of a message labelled label.
func buttonNamed(comps []discordgo.MessageComponent, label string) *discordgo.Button {
	for _, row := range comps {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			if b, ok := c.(*discordgo.Button); ok && b.Label == label {
				return b
			}
		}
	}
	return nil
}

var (
	shortGamesMu sync.Mutex
	shortGames   = map[string][]string{}
)

// shortGame returns the moves of a short game on the classic square, red
// moving first, that runs to its end (no legal hole left) with the result
// want under basic scoring: "red", "black" or "draw". It is the shortest of
// 50,000 seeded random playouts, found afresh (in about 50 ms) rather than
// kept as a pairing, so it follows the engine.
func shortGame(tb testing.TB, want string) []string {
	tb.Helper()
	shortGamesMu.Lock()
	defer shortGamesMu.Unlock()
	if g, ok := shortGames[want]; ok {
		return g
	}
	l := engine.Square()
	var best []string
	for seed := uint64(1); seed <= 50000; seed++ {
		r := engine.NewRand(seed)
		p := engine.NewPosition(l, engine.Red)
		var cells []string
		for !p.IsOver() && (best == nil || len(cells) < len(best)) {
			h := r.Pick(p.Legal())
			cells = append(cells, l.Cell(h).String())
			p.Apply(h)
		}
		if !p.IsOver() {
			continue
		}
		w, decided := p.Score(engine.Basic).Winner()
		got := "draw"
		if decided {
			got = map[engine.Color]string{engine.Red: "red", engine.Black: "black"}[w]
		}
		if got == want {
			best = cells
		}
	}
	require.NotNil(tb, best, "a game that ends %s", want)
	shortGames[want] = best
	return best
}

// glicko is a rating on the familiar scale, for the tests' own Glicko-2.
type glicko struct{ R, RD, Vol float64 }

// glickoScale is 173.7178, the paper's factor between the scales.
const glickoScale = 173.7178

func newcomer() glicko { return glicko{1500, 350, 0.06} }

// idle is p after periods rating periods without a game: the paper's step 6
// with no games, φ* = √(φ² + σ²) per period, on the familiar scale and
// capped at a newcomer's 350.
func (p glicko) idle(periods float64) glicko {
	if periods > 0 {
		p.RD = math.Min(math.Sqrt(p.RD*p.RD+periods*math.Pow(glickoScale*p.Vol, 2)), 350)
	}
	return p
}

// glicko2 rates one game of p against o, in which p scored s (1, ½ or 0),
// by steps 2 to 8 of Glickman's "Example of the Glicko-2 system" with
// τ = 0.5. It solves step 5 by plain bisection, not by the Illinois
// algorithm engine/rating uses, so that it checks the root, not repeats
// the code.
func glicko2(p, o glicko, s float64) glicko {
	mu, phi := (p.R-1500)/glickoScale, p.RD/glickoScale
	muj, phij := (o.R-1500)/glickoScale, o.RD/glickoScale
	g := 1 / math.Sqrt(1+3*phij*phij/(math.Pi*math.Pi))
	e := 1 / (1 + math.Exp(-g*(mu-muj)))
	v := 1 / (g * g * e * (1 - e))
	delta := v * g * (s - e)

	const tau = 0.5
	a := math.Log(p.Vol * p.Vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	lo, hi := a-1, a+1 // f(lo) > 0 > f(hi)
	for f(lo) < 0 {
		lo--
	}
	for f(hi) > 0 {
		hi++
	}
	for range 200 {
		if m := (lo + hi) / 2; f(m) > 0 {
			lo = m
		} else {
			hi = m
		}
	}
	vol := math.Exp((lo + hi) / 4)

	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*g*(s-e)
	return glicko{1500 + glickoScale*muNew, math.Min(glickoScale*phiNew, 350), vol}
}

// standing is what a test expects of a player's profile on a ladder.
type standing struct {
	id, name string
	r        glicko
	last     time.Time
	storage.Tally
	streak int
	best   *storage.BestWin
	trend  []float64 // the rating after each rated game
}

// shown is the rating as the bot writes it: rounded, "?" while provisional.
func (s *standing) shown() string {
	return shownRating(s.r)
}

func shownRating(r glicko) string {
	text := fmt.Sprintf("%.0f", r.R)
	if r.RD >= 110 {
		text += "?"
	}
	return text
}

// league is the tests' own account of a ladder of the guild: the games
// ended and what they did to the ratings, computed without the bot.
type league struct {
	ladder  storage.Ladder
	players map[string]*standing // by profile ID
	h2h     map[[2]string]storage.Tally
}

func newLeague(l storage.Ladder) *league {
	return &league{ladder: l, players: map[string]*standing{}, h2h: map[[2]string]storage.Tally{}}
}

func (l *league) standing(p game.Player) *standing {
	s := l.players[storage.ProfileID(p)]
	if s == nil {
		s = &standing{id: storage.ProfileID(p), r: newcomer()}
		l.players[s.id] = s
	}
	s.name = p.Name
	return s
}

// rate counts a rated game of the finished game f, in which red scored
// redScore, and returns both players' ratings before (after the time away,
// as the store counts it) and after it.
func (l *league) rate(f *storage.FinishedGame, redScore float64) (before, after [2]glicko) {
	at := f.Result().At
	var s [2]*standing
	for c := range s {
		s[c] = l.standing(f.Player(engine.Color(c)))
		before[c] = s[c].r
		if !s[c].last.IsZero() && at.After(s[c].last) {
			before[c] = s[c].r.idle(float64(at.Sub(s[c].last)) / float64(storage.DefaultRatingPeriod))
		}
	}
	score := [2]float64{redScore, 1 - redScore}
	for c := range s {
		o := 1 - c
		after[c] = glicko2(before[c], before[o], score[c])
		st := s[c]
		st.r, st.last = after[c], at
		st.trend = append(st.trend, after[c].R)
		t := l.h2h[[2]string{st.id, s[o].id}]
		switch score[c] {
		case 1:
			st.Wins++
			t.Wins++
			st.streak = max(st.streak, 0) + 1
			if st.best == nil || before[o].R > st.best.OpponentRating {
				st.best = &storage.BestWin{GameID: f.ID, OpponentID: s[o].id, OpponentName: s[o].name, OpponentRating: before[o].R}
			}
		case 0:
			st.Losses++
			t.Losses++
			st.streak = min(st.streak, 0) - 1
		default:
			st.Draws++
			t.Draws++
			st.streak = 0
		}
		l.h2h[[2]string{st.id, s[o].id}] = t
	}
	return before, after
}

// count rates the finished game f by its result, unless it was aborted,
// and returns the ratings before and after it as rate does.
func (l *league) count(f *storage.FinishedGame) (before, after [2]glicko, rated bool) {
	r := f.Result()
	switch {
	case !r.Rated():
		return before, after, false
	case r.Draw:
		before, after = l.rate(f, 0.5)
	case r.Winner == engine.Red:
		before, after = l.rate(f, 1)
	default:
		before, after = l.rate(f, 0)
	}
	return before, after, true
}

// vs returns the results of the player with profile ID a against b, from
// a's side.
func (l *league) vs(a, b string) *storage.Tally {
	t := l.h2h[[2]string{a, b}]
	return &t
}

// ranked returns the standings in the leaderboard's order: by rating,
// then games ended, then name (ignoring case) and ID.
func (l *league) ranked() []*standing {
	var out []*standing
	for _, s := range l.players {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.r.R != b.r.R:
			return a.r.R > b.r.R
		case a.Games() != b.Games():
			return a.Games() > b.Games()
		case !strings.EqualFold(a.name, b.name):
			return strings.ToLower(a.name) < strings.ToLower(b.name)
		}
		return a.id < b.id
	})
	return out
}

// check compares every stored profile of the ladder with the league's.
func (l *league) check(t testing.TB, store *storage.Store, guild string) {
	t.Helper()
	for id, want := range l.players {
		got, err := store.Profile(t.Context(), guild, id, l.ladder)
		require.NoError(t, err, "the profile of %s", want.name)
		assert.InDelta(t, want.r.R, got.Rating.Rating, 1e-6, "rating of %s", want.name)
		assert.InDelta(t, want.r.RD, got.Rating.RD, 1e-6, "RD of %s", want.name)
		assert.InDelta(t, want.r.Vol, got.Rating.Volatility, 1e-7, "volatility of %s", want.name)
		assert.Equal(t, want.Tally, got.Tally, "record of %s", want.name)
		assert.Equal(t, want.streak, got.Streak, "streak of %s", want.name)
		assert.Equal(t, want.name, got.Name, "name of %s", want.name)
		if want.best == nil {
			assert.Nil(t, got.BestWin, "best win of %s", want.name)
		} else if assert.NotNil(t, got.BestWin, "best win of %s", want.name) {
			assert.InDelta(t, want.best.OpponentRating, got.BestWin.OpponentRating, 1e-6)
			g := *got.BestWin
			g.OpponentRating = want.best.OpponentRating
			assert.Equal(t, *want.best, g, "best win of %s", want.name)
		}
	}
	_, total, err := store.Leaderboard(t.Context(), guild, l.ladder, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, len(l.players), total, "players on the %s ladder", l.ladder)
}
