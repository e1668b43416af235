package bot_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// ended is a finished game as a test saw it end: the stored game, its
// final board and the ratings the test computed for it.
type ended struct {
	f             *storage.FinishedGame
	board         *discordtest.Message
	before, after [2]glicko
	rated         bool
}

// ratingFooter is the footer the final board of a rated game must show.
func ratingFooter(p ended) string {
	var parts []string
	provisional := false
	for c, pl := range p.f.Players() {
		parts = append(parts, fmt.Sprintf("%s %s → %s (%s)", pl.Name,
			shownRating(p.before[c]), shownRating(p.after[c]), signed(p.after[c].R-p.before[c].R)))
		provisional = provisional || p.before[c].RD >= 110
	}
	prefix := "Ratings: "
	if p.f.Ladder() == storage.AI {
		prefix = "Ratings vs the computer: "
	}
	if provisional {
		return prefix + strings.Join(parts, " · ") + "\n" + firstGamesNote
	}
	return prefix + strings.Join(parts, " · ")
}

// firstGamesNote is what a final board adds when a provisional rating
// moved: why by so much.
const firstGamesNote = "? = provisional: a rating moves a lot in its first games, whatever the score, until it settles after about 13 games."

// signed is a change of rating in whole points with its sign, "+0" for
// no change.
func signed(d float64) string {
	switch r := math.Round(d); {
	case r > 0:
		return fmt.Sprintf("+%.0f", r)
	case r < 0:
		return fmt.Sprintf("%.0f", r)
	}
	return "+0"
}

// historyLine is the line of /kulami history for game p of the player of
// colour c.
func historyLine(p ended, c engine.Color) string {
	f := p.f
	outcome := map[game.Outcome]string{game.Won: "Won", game.Lost: "Lost", game.Drawn: "Drew", game.NoContest: "Called off, no result"}
	line := fmt.Sprintf("`#%d` <t:%d:d> vs **%s** — %s", f.ID, f.Result().At.Unix(), f.Player(c.Other()).Name, outcome[f.Result().Outcome(c)])
	if f.Result().Ending != game.Aborted {
		line += fmt.Sprintf(" %d–%d", f.Result().Score[c].Total, f.Result().Score[c.Other()].Total)
	}
	line += map[game.Ending]string{game.Resigned: " by resignation", game.TimedOut: " on time",
		game.DrawAgreed: " by agreement"}[f.Result().Ending]
	if p.rated {
		line += " (" + signed(p.after[c].R-p.before[c].R) + ")"
	}
	return line
}

// embed returns the one embed of a response.
func soleEmbed(t testing.TB, r *discordtest.Response) *discordgo.MessageEmbed {
	t.Helper()
	require.Len(t, r.Embeds, 1, "the answer is one embed")
	return r.Embeds[0]
}

// fields returns an embed's fields by name.
func embedFields(e *discordgo.MessageEmbed) map[string]string {
	out := map[string]string{}
	for _, f := range e.Fields {
		out[f.Name] = f.Value
	}
	return out
}

// tallyText is a record in words, as stats writes it.
func tallyText(t storage.Tally) string {
	n := func(k int, one, many string) string {
		if k == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", k, many)
	}
	return n(t.Wins, "win", "wins") + ", " + n(t.Losses, "loss", "losses") + ", " + n(t.Draws, "draw", "draws")
}

// streakText is a streak as stats writes it.
func streakText(n int) string {
	switch {
	case n == 1:
		return "1 win in a row"
	case n > 1:
		return fmt.Sprintf("%d wins in a row", n)
	case n == -1:
		return "1 loss in a row"
	case n < -1:
		return fmt.Sprintf("%d losses in a row", -n)
	}
	return "none"
}

// checkStats checks the stats embed of s against the league, seen by a
// caller whose results against s are vs (nil when the caller is s).
func checkStats(t testing.TB, e *discordgo.MessageEmbed, s *standing, vs *storage.Tally) {
	t.Helper()
	assert.Equal(t, "Kulami stats: "+s.name, e.Title)
	f := embedFields(e)
	r := fmt.Sprintf("**%s**\nmost likely between %.0f and %.0f", s.shown(), s.r.R-2*s.r.RD, s.r.R+2*s.r.RD)
	if n := rating.GamesToSettle(rating.Rating{Rating: s.r.R, RD: s.r.RD, Volatility: s.r.Vol}); s.r.RD >= rating.ProvisionalRD {
		require.Positive(t, n)
		r += fmt.Sprintf("\nprovisional: about %d more game", n)
		if n > 1 {
			r += "s"
		}
		r += " to settle"
	}
	assert.Equal(t, r, f["Rating"], "rating of %s", s.name)
	games := fmt.Sprintf("%d games", s.Games())
	if s.Games() == 1 {
		games = "1 game"
	}
	assert.Equal(t, tallyText(s.Tally)+"\n"+games, f["Record"], "record of %s", s.name)
	assert.Equal(t, streakText(s.streak), f["Streak"], "streak of %s", s.name)
	if s.best != nil {
		assert.Equal(t, fmt.Sprintf("%s (%.0f), game #%d", s.best.OpponentName, s.best.OpponentRating, s.best.GameID), f["Best win"], "best win of %s", s.name)
	} else {
		assert.NotContains(t, f, "Best win", "%s has beaten nobody", s.name)
	}
	trend := s.trend[max(0, len(s.trend)-10):]
	if name := fmt.Sprintf("Trend (last %d games)", len(trend)); len(trend) > 1 && assert.Contains(t, f, name, "trend of %s", s.name) {
		spark, change, _ := strings.Cut(f[name], "\n")
		assert.Equal(t, len(trend), utf8.RuneCountInString(spark), "one bar a game")
		first, last := trend[0], trend[len(trend)-1]
		assert.Equal(t, fmt.Sprintf("%.0f → %.0f (%s)", first, last, signed(last-first)), change, "trend of %s", s.name)
		bars := []rune(spark)
		for k := 1; k < len(trend); k++ {
			if trend[k] > trend[k-1] {
				assert.GreaterOrEqual(t, bars[k], bars[k-1], "the sparkline of %s rises with the rating", s.name)
			} else {
				assert.LessOrEqual(t, bars[k], bars[k-1], "the sparkline of %s falls with the rating", s.name)
			}
		}
	} else if len(trend) <= 1 {
		for name := range f {
			assert.NotContains(t, name, "Trend", "no trend after one game")
		}
	}
	if vs == nil {
		assert.NotContains(t, f, "You against them", "no head-to-head with yourself")
	} else if vs.Games() == 0 {
		assert.Equal(t, "no games yet", f["You against them"])
	} else {
		assert.Equal(t, tallyText(*vs), f["You against them"], "the caller's record against %s", s.name)
	}
}

// TestRatings plays one game of each ending through the commands and
// checks the stored profiles against ratings computed here, the final
// boards, and then the history, the stats and the exports of those games.
func TestRatings(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			c := newClub(t, mode, "dave")
			alice, bob, carol, dave := c.alice, c.bob, c.carol, c.user("dave")
			guild := c.dc.GuildID()
			lobby := c.dc.AddChannel("lobby").ID
			human := newLeague(storage.Human)
			var games []ended
			// end checks a game that has just ended on board: the store
			// against the league, and the rating line of the board.
			end := func(g *storage.Game, board *discordtest.Message) ended {
				t.Helper()
				p := ended{f: c.finished(g.ID), board: board}
				p.before, p.after, p.rated = human.count(p.f)
				human.check(t, c.store, guild)
				require.Contains(t, board.Content, "**Game over.**")
				if !p.rated {
					assert.Empty(t, board.Embeds, "no final score for a game that counts for nobody")
				} else {
					require.Len(t, board.Embeds, 1, "the final board has the score")
					require.NotNil(t, board.Embeds[0].Footer, "the final board shows the rating change")
					assert.Equal(t, ratingFooter(p), board.Embeds[0].Footer.Text)
					// The store rates with engine/rating from the ratings
					// it had before the game.
					redScore := map[game.Outcome]rating.Outcome{game.Won: rating.Win, game.Drawn: rating.Draw, game.Lost: rating.Loss}[p.f.Result().Outcome(engine.Red)]
					red, black := rating.Rate(p.f.Ratings[engine.Red].Before, p.f.Ratings[engine.Black].Before, redScore)
					assert.Equal(t, [2]rating.Rating{red, black}, [2]rating.Rating{p.f.Ratings[engine.Red].After, p.f.Ratings[engine.Black].After})
					for k := range p.before {
						assert.InDelta(t, p.before[k].RD, p.f.Ratings[k].Before.RD, 1e-6, "RD before, with the time away")
					}
				}
				games = append(games, p)
				return p
			}

			t.Run("empty ladder", func(t *testing.T) {
				for _, ladder := range []string{"human", "ai"} {
					i := c.cmd(lobby, alice, "leaderboard", discordtest.StringOption("ladder", ladder))
					r := c.dc.WaitResponse(t, i.ID)
					assert.Contains(t, soleEmbed(t, r).Description, "No rated games yet")
					assert.Empty(t, r.Components, "no pages to turn")
				}
			})

			t.Run("normal end", func(t *testing.T) {
				g := c.newGame(alice, bob)
				board := c.playMoves(g.ChannelID, shortGame(t, "red")...)
				p := end(g, board)
				s := p.f.Result().Score
				assert.Equal(t, game.Normal, p.f.Result().Ending)
				assert.Contains(t, board.Content, fmt.Sprintf("<@%s> wins %d–%d against <@%s>!", alice.ID, s[engine.Red].Total, s[engine.Black].Total, bob.ID))

				// By hand, from the paper. Both players are new: r = 1500,
				// RD = 350, σ = 0.06, so μ = 0 and φ = 350/173.7178 =
				// 2.0147619 for both.
				//   g(φ) = 1/√(1 + 3φ²/π²) = 1/√(1 + 1.2338687) = 0.6690694
				//   E = 1/(1 + exp(−g(φ)(μ − μj))) = 1/(1 + e⁰) = 0.5
				//   v = 1/(g² E (1 − E)) = 1/(0.4476539 · 0.25) = 8.9354749
				//   Δ = v g (s − E) = 8.9354749 · 0.6690694 · 0.5 = 2.9892265
				// Step 5: a = ln σ² = −5.6268214. Δ² = 8.9354749 is less than
				// φ² + v = 12.9947403, so the root of f lies below a: f(a − τ)
				// = 2.0 > 0 brackets it, and it is at x = −5.6268322, so
				// σ' = e^(x/2) = 0.0599997: one game between equals barely moves
				// the volatility.
				//   φ* = √(φ² + σ'²) = √(4.0592654 + 0.0036000) = 2.0156551
				//   φ' = 1/√(1/φ*² + 1/v) = 1/√(0.2461317 + 0.1119135) = 1.6712102
				//   μ' = μ ± φ'² g (s − E) = ±2.7929436 · 0.6690694 · 0.5 = ±0.9343366
				// Step 8: r' = 1500 ± 173.7178 · 0.9343366 = 1662.3109 and
				// 1337.6891, RD' = 173.7178 · 1.6712102 = 290.3190 for both.
				winner, err := c.store.Profile(t.Context(), guild, alice.ID, storage.Human)
				require.NoError(t, err)
				loser, err := c.store.Profile(t.Context(), guild, bob.ID, storage.Human)
				require.NoError(t, err)
				assert.InDelta(t, 1662.3109, winner.Rating.Rating, 1e-4)
				assert.InDelta(t, 1337.6891, loser.Rating.Rating, 1e-4)
				assert.InDelta(t, 290.3190, winner.Rating.RD, 1e-4)
				assert.InDelta(t, 290.3190, loser.Rating.RD, 1e-4)
				assert.InDelta(t, 0.0599997, winner.Rating.Volatility, 1e-7)
				assert.Equal(t, "Ratings: alice 1500? → 1662? (+162) · bob 1500? → 1338? (-162)\n"+firstGamesNote, board.Embeds[0].Footer.Text)
			})

			t.Run("resignation", func(t *testing.T) {
				c.clock.Advance(48 * time.Hour) // RD grows with time away
				g := c.newGame(bob, alice)
				board := c.playMoves(g.ChannelID, "D4", "A4")
				// bob resigns with the Resign button of the board.
				i := c.click(board.ID, bob, buttons(board.Components)["Resign"])
				r := c.dc.WaitResponse(t, i.ID)
				assert.True(t, r.Ephemeral(), "only bob is asked")
				ask := c.dc.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
				final := c.boardAfter(c.click(ask.ID, bob, buttons(ask.Components)["Yes, resign"]))
				p := end(g, final)
				assert.Equal(t, game.Resigned, p.f.Result().Ending)
				assert.Equal(t, engine.Black, p.f.Result().Winner, "alice, black, wins")
				assert.Contains(t, final.Content, fmt.Sprintf("<@%s> resigned — <@%s> wins.", bob.ID, alice.ID))
				assert.Greater(t, p.before[engine.Red].RD, 290.3190, "bob's RD grew in two days away")
			})

			t.Run("timeout", func(t *testing.T) {
				g := c.newGame(carol, alice, discordtest.StringOption("move_time", "1h"))
				c.playMoves(g.ChannelID, "D4", "D7", "F7")
				final := c.timeOut(g.ChannelID)
				p := end(g, final)
				assert.Equal(t, game.TimedOut, p.f.Result().Ending)
				assert.Equal(t, engine.Red, p.f.Result().Winner, "alice ran out of time; carol wins")
				assert.Contains(t, final.Content, fmt.Sprintf("<@%s> ran out of time — <@%s> wins.", alice.ID, carol.ID))
			})

			t.Run("agreed draw", func(t *testing.T) {
				g := c.newGame(bob, carol)
				final := c.agreeDraw(g.ChannelID, bob, carol)
				p := end(g, final)
				assert.Equal(t, game.DrawAgreed, p.f.Result().Ending)
				assert.True(t, p.f.Result().Draw)
				assert.Contains(t, final.Content, "Drawn by agreement.")
			})

			t.Run("abort", func(t *testing.T) {
				var before []*storage.Profile
				for _, u := range []*discordgo.User{alice, bob, carol} {
					p, err := c.store.Profile(t.Context(), guild, u.ID, storage.Human)
					require.NoError(t, err)
					before = append(before, p)
				}
				g := c.newGame(alice, carol)
				c.playMoves(g.ChannelID, "D4")
				final := c.abort(g.ChannelID, carol)
				p := end(g, final)
				assert.Equal(t, game.Aborted, p.f.Result().Ending)
				assert.Equal(t, [2]storage.RatingChange{}, p.f.Ratings, "an aborted game is not rated")
				assert.Contains(t, final.Content, "called off; it counts for nobody")
				for k, u := range []*discordgo.User{alice, bob, carol} {
					after, err := c.store.Profile(t.Context(), guild, u.ID, storage.Human)
					require.NoError(t, err)
					assert.Equal(t, before[k], after, "the abort changed nothing for %s", u.Username)
				}
			})
			require.Len(t, games, 5, "every game ended")

			t.Run("history", func(t *testing.T) {
				// alice's own: every game she ended, latest first.
				i := c.cmd(lobby, alice, "history")
				r := c.dc.WaitResponse(t, i.ID)
				assert.True(t, r.Ephemeral())
				e := soleEmbed(t, r)
				assert.Equal(t, "Recent Kulami games of alice", e.Title)
				var want []string
				for k := len(games) - 1; k >= 0; k-- {
					if color, err := games[k].f.Seat(alice.ID); err == nil {
						want = append(want, historyLine(games[k], color))
					}
				}
				assert.Equal(t, strings.Join(want, "\n"), e.Description)
				assert.Contains(t, e.Description, "Called off, no result")
				assert.Contains(t, e.Description, "on time")
				assert.Contains(t, e.Description, "by resignation")

				// carol's, asked by bob.
				i = c.cmd(lobby, bob, "history", discordtest.UserOption("player", carol.ID))
				e = soleEmbed(t, c.dc.WaitResponse(t, i.ID))
				assert.Equal(t, "Recent Kulami games of carol", e.Title)
				want = nil
				for k := len(games) - 1; k >= 0; k-- {
					if color, err := games[k].f.Seat(carol.ID); err == nil {
						want = append(want, historyLine(games[k], color))
					}
				}
				assert.Equal(t, strings.Join(want, "\n"), e.Description)
				assert.Contains(t, e.Description, "by agreement")

				// Someone who never ended.
				i = c.cmd(lobby, alice, "history", discordtest.UserOption("player", dave.ID))
				e = soleEmbed(t, c.dc.WaitResponse(t, i.ID))
				assert.Equal(t, "Recent Kulami games of dave", e.Title)
				assert.Equal(t, "No finished games in this server yet.", e.Description)
			})

			t.Run("stats", func(t *testing.T) {
				h2h := func(a, b *discordgo.User) *storage.Tally { return human.vs(a.ID, b.ID) }
				// alice's, asked by bob: from bob's side, 0–2.
				i := c.cmd(lobby, bob, "stats", discordtest.UserOption("player", alice.ID))
				r := c.dc.WaitResponse(t, i.ID)
				assert.False(t, r.Ephemeral(), "stats are for everyone to see")
				checkStats(t, soleEmbed(t, r), human.players[alice.ID], h2h(bob, alice))
				assert.Equal(t, storage.Tally{Losses: 2}, *h2h(bob, alice))
				f := embedFields(soleEmbed(t, r))
				assert.Equal(t, "1 loss in a row", f["Streak"], "alice lost her last rated game on time")
				assert.Equal(t, fmt.Sprintf("bob (1500), game #%d", games[0].f.ID), f["Best win"], "bob was 1500 before game 1, 1338 before game 2")
				assert.Contains(t, f, "Trend (last 3 games)", "the abort is not in the trend")

				// Everyone's own, and each other's.
				for _, me := range []*discordgo.User{alice, bob, carol} {
					e := soleEmbed(t, c.dc.WaitResponse(t, c.cmd(lobby, me, "stats").ID))
					checkStats(t, e, human.players[me.ID], nil)
					for _, them := range []*discordgo.User{alice, bob, carol} {
						if them != me {
							i := c.cmd(lobby, me, "stats", discordtest.UserOption("player", them.ID))
							checkStats(t, soleEmbed(t, c.dc.WaitResponse(t, i.ID)), human.players[them.ID], h2h(me, them))
						}
					}
				}

				// Nobody's.
				c.refused(c.cmd(lobby, alice, "stats", discordtest.UserOption("player", dave.ID)), "dave has no rated games in this server yet")
				c.refused(c.cmd(lobby, dave, "stats"), "You have no rated games in this server yet", "/kulami challenge")
			})

			t.Run("export", func(t *testing.T) {
				export := func(channel string, opts ...*discordgo.ApplicationCommandInteractionDataOption) (*discordtest.Message, *engine.Record) {
					t.Helper()
					i := c.cmd(channel, alice, "export", opts...)
					m := c.dc.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
					assert.True(t, m.Ephemeral(), "the record goes to the caller only")
					require.Len(t, m.Files, 1)
					assert.True(t, strings.HasSuffix(m.Files[0].Name, ".kgn"), "a .kgn file: %s", m.Files[0].Name)
					rec, err := engine.ParseRecord(string(m.Files[0].Data))
					require.NoError(t, err, "the attachment is a record")
					return m, rec
				}
				for _, p := range games {
					f := p.f
					m, rec := export(lobby, discordtest.IntegerOption("game", int64(f.ID)))
					assert.Equal(t, fmt.Sprintf("kulami-%d.kgn", f.ID), m.Files[0].Name)
					assert.Equal(t, f.RecordText, string(m.Files[0].Data), "the stored record, as it is")
					moveCount := fmt.Sprintf("%d moves.", f.Ply())
					if f.Ply() == 1 {
						moveCount = "1 move."
					}
					assert.Contains(t, m.Content, fmt.Sprintf("Game #%d: %s vs %s, %s", f.ID, f.Player(engine.Red).Name, f.Player(engine.Black).Name, moveCount))
					var moves []string
					for _, mv := range f.Moves() {
						moves = append(moves, mv.Cell.String())
					}
					assert.Equal(t, moves, rec.Moves, "the same moves")
					pos, err := rec.Replay()
					require.NoError(t, err, "the record replays")
					assert.Equal(t, f.Result().Score, pos.Score(f.Rules()), "the replay scores as stored")
					assert.Equal(t, f.Result().Ending == game.Normal, pos.IsOver())
					res, _ := rec.Tag("Result")
					assert.Equal(t, f.Result().String(), res)
					red, _ := rec.Tag("Red")
					assert.Equal(t, f.Player(engine.Red).Name, red)
				}

				// The game going on in a channel.
				g := c.newGame(alice, bob)
				moves := shortGame(t, "red")[:3]
				c.playMoves(g.ChannelID, moves...)
				g = c.game(g.ChannelID)
				m, rec := export(g.ChannelID)
				assert.Equal(t, fmt.Sprintf("kulami-%d.kgn", g.ID), m.Files[0].Name)
				assert.Equal(t, moves, rec.Moves)
				res, _ := rec.Tag("Result")
				assert.Equal(t, "*", res, "the game goes on")
				pos, err := rec.Replay()
				require.NoError(t, err)
				want := g.Position()
				assert.Equal(t, want.Score(g.Rules()), pos.Score(g.Rules()))
				assert.Equal(t, 3, pos.Ply())

				// What cannot be exported.
				c.refused(c.cmd(lobby, alice, "export", discordtest.IntegerOption("game", 9999)), "no finished game #9999", "/kulami history")
				c.refused(c.cmd(lobby, alice, "export"), "no game in this channel", "game:")
			})
		})
	}
}

// pairing is a game of a league: red challenges black, red moves first,
// and the game ends as end says: "red" or "black" wins (the other
// resigns), "draw" (agreed), "abort" (called off by black) or "time" (red
// runs out of time).
type pairing struct{ red, black, end string }

// leaguePairings are a few dozen games among thirteen players: alice and
// bob play fifteen games against each other, so that their ratings stop
// being provisional, and everyone plays a few.
func leaguePairings() []pairing {
	fs := []pairing{
		{"dave", "erin", "red"}, {"frank", "grace", "red"}, {"heidi", "ivan", "draw"},
		{"judy", "mallory", "red"}, {"niaj", "olivia", "red"}, {"carol", "dave", "red"},
		{"erin", "frank", "red"}, {"grace", "heidi", "draw"}, {"ivan", "judy", "red"},
		{"mallory", "niaj", "red"}, {"olivia", "carol", "red"}, {"dave", "judy", "abort"},
		{"carol", "alice", "red"}, {"bob", "mallory", "red"}, {"alice", "olivia", "draw"},
		{"erin", "heidi", "abort"}, {"frank", "ivan", "time"}, {"grace", "niaj", "black"},
	}
	for k, aliceWins := range []bool{true, false, true, true, false, true, false, true, true, false, true, false, true, true, false} {
		f := pairing{"alice", "bob", "black"}
		if k%2 == 1 {
			f.red, f.black = "bob", "alice"
		}
		if aliceWins == (f.red == "alice") {
			f.end = "red"
		}
		fs = append(fs, f)
	}
	return fs
}

// play plays a pairing through the commands and returns the game as it
// finished.
func (c *club) play(f pairing) *storage.FinishedGame {
	c.t.Helper()
	red, black := c.user(f.red), c.user(f.black)
	var opts []*discordgo.ApplicationCommandInteractionDataOption
	if f.end == "time" {
		opts = append(opts, discordtest.StringOption("move_time", "1h"))
	}
	g := c.newGame(red, black, opts...)
	switch f.end {
	case "red":
		c.resign(g.ChannelID, black)
	case "black":
		c.resign(g.ChannelID, red)
	case "draw":
		c.agreeDraw(g.ChannelID, black, red)
	case "abort":
		c.abort(g.ChannelID, black)
	case "time":
		c.playMoves(g.ChannelID, "D4", "D7") // both have moved: a timeout counts
		c.timeOut(g.ChannelID)
	}
	return c.finished(g.ID)
}

// leaderboardLine is a player's line on the leaderboard at rank (from 1).
func leaderboardLine(rank int, s *standing) string {
	medal := map[int]string{1: "🥇", 2: "🥈", 3: "🥉"}[rank]
	if medal == "" {
		medal = fmt.Sprintf("`%2d.`", rank)
	}
	return fmt.Sprintf("%s **%s** — %s · %d–%d–%d", medal, s.name, s.shown(), s.Wins, s.Losses, s.Draws)
}

// TestLeaderboard plays a few dozen games in a guild and checks that the
// leaderboard, everyone's stats and the history match what happened.
func TestLeaderboard(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			c := newClub(t, mode, "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj", "olivia", "zoe")
			guild := c.dc.GuildID()
			lobby := c.dc.AddChannel("lobby").ID
			human, computer := newLeague(storage.Human), newLeague(storage.AI)
			var games []ended
			for _, f := range leaguePairings() {
				c.clock.Advance(6 * time.Hour) // a game every six hours: ratings decay between them
				p := ended{f: c.play(f)}
				p.before, p.after, p.rated = human.count(p.f)
				games = append(games, p)
			}
			require.GreaterOrEqual(t, len(games), 30, "a few dozen games")
			human.check(t, c.store, guild)
			ranked := human.ranked()
			require.Len(t, ranked, 13)
			var provisional, established int
			for _, s := range ranked {
				if s.r.RD >= rating.ProvisionalRD {
					provisional++
				} else {
					established++
				}
			}
			require.NotZero(t, provisional, "someone's rating is provisional")
			require.NotZero(t, established, "someone's rating is established")
			var want []string
			for k, s := range ranked {
				want = append(want, leaderboardLine(k+1, s))
			}

			// page checks a leaderboard page: its lines, footer and buttons.
			page := func(e *discordgo.MessageEmbed, comps []discordgo.MessageComponent, p int) {
				t.Helper()
				assert.Equal(t, "Kulami leaderboard", e.Title)
				assert.Equal(t, strings.Join(want[10*(p-1):min(10*p, len(want))], "\n"), e.Description, "page %d", p)
				require.NotNil(t, e.Footer)
				assert.Contains(t, e.Footer.Text, fmt.Sprintf("Page %d of 2 · 13 players", p))
				assert.Contains(t, e.Footer.Text, "? = provisional")
				prev, next := buttonNamed(comps, "Previous"), buttonNamed(comps, "Next")
				require.NotNil(t, prev, "a Previous button")
				require.NotNil(t, next, "a Next button")
				assert.Equal(t, p == 1, prev.Disabled, "Previous is disabled on the first page only")
				assert.Equal(t, p == 2, next.Disabled, "Next is disabled on the last page only")
			}

			t.Run("pages", func(t *testing.T) {
				i := c.cmd(lobby, c.carol, "leaderboard")
				r := c.dc.WaitResponse(t, i.ID)
				assert.False(t, r.Ephemeral(), "the leaderboard is for everyone")
				page(soleEmbed(t, r), r.Components, 1)
				var marked int
				for _, line := range strings.Split(soleEmbed(t, r).Description, "\n") {
					if strings.Contains(line, "?") {
						marked++
					}
				}
				assert.Equal(t, 8, marked, "on page 1, all but alice and bob (%d and %d games) are provisional",
					human.players[c.alice.ID].Games(), human.players[c.bob.ID].Games())
				msg := c.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })

				next := c.click(msg.ID, c.user("dave"), buttonNamed(r.Components, "Next").CustomID)
				r = c.dc.WaitResponse(t, next.ID)
				assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, "the page turns in place")
				page(soleEmbed(t, r), r.Components, 2)

				prev := c.click(msg.ID, c.carol, buttonNamed(r.Components, "Previous").CustomID)
				r = c.dc.WaitResponse(t, prev.ID)
				assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
				page(soleEmbed(t, r), r.Components, 1)
				m, _ := c.dc.Message(msg.ID)
				assert.Equal(t, r.Embeds[0].Description, m.Embeds[0].Description, "the message shows the page")

				r = c.dc.WaitResponse(t, c.cmd(lobby, c.carol, "leaderboard", discordtest.IntegerOption("page", 2)).ID)
				page(soleEmbed(t, r), r.Components, 2)
				r = c.dc.WaitResponse(t, c.cmd(lobby, c.carol, "leaderboard", discordtest.IntegerOption("page", 9)).ID)
				page(soleEmbed(t, r), r.Components, 2)
			})

			t.Run("a player who left", func(t *testing.T) {
				// mallory has left the guild. The fake cannot take a member
				// away, so this checks what makes it harmless: the bot
				// shows the names it stored and never asks Discord for a
				// member, on the leaderboard or anywhere else.
				mallory := human.players[c.user("mallory").ID]
				assert.Contains(t, want, leaderboardLine(slices.Index(ranked, mallory)+1, mallory))
				i := c.cmd(lobby, c.alice, "stats", discordtest.UserOption("player", mallory.id))
				checkStats(t, soleEmbed(t, c.dc.WaitResponse(t, i.ID)), mallory, human.vs(c.alice.ID, mallory.id))
				for _, r := range c.dc.Requests() {
					assert.NotContains(t, r.Route, "/members", "%s %s: the bot never needs a member", r.Method, r.Path)
					assert.False(t, r.Method == "GET" && strings.HasPrefix(r.Route, "/users/"), "%s %s: the bot never looks a user up", r.Method, r.Path)
				}
			})

			t.Run("stats", func(t *testing.T) {
				// Everyone's, as carol sees them.
				for _, s := range ranked {
					var i *discordgo.Interaction
					var vs *storage.Tally
					if s.id == c.carol.ID {
						i = c.cmd(lobby, c.carol, "stats")
					} else {
						i = c.cmd(lobby, c.carol, "stats", discordtest.UserOption("player", s.id))
						vs = human.vs(c.carol.ID, s.id)
					}
					checkStats(t, soleEmbed(t, c.dc.WaitResponse(t, i.ID)), s, vs)
				}
			})

			t.Run("history", func(t *testing.T) {
				for _, name := range []string{"alice", "mallory", "heidi"} {
					u := c.user(name)
					var lines []string
					for k := len(games) - 1; k >= 0 && len(lines) < 10; k-- {
						if color, err := games[k].f.Seat(u.ID); err == nil {
							lines = append(lines, historyLine(games[k], color))
						}
					}
					i := c.cmd(lobby, c.bob, "history", discordtest.UserOption("player", u.ID))
					e := soleEmbed(t, c.dc.WaitResponse(t, i.ID))
					assert.Equal(t, strings.Join(lines, "\n"), e.Description, "the history of %s", name)
				}
			})

			t.Run("computer ladder", func(t *testing.T) {
				g := c.playAI(c.alice, "easy")
				final := c.resign(g.ChannelID, c.alice)
				p := ended{f: c.finished(g.ID), board: final}
				p.before, p.after, p.rated = computer.count(p.f)
				computer.check(t, c.store, guild)
				human.check(t, c.store, guild) // the human ladder did not move
				assert.Equal(t, "Ratings vs the computer: alice 1500? → 1338? (-162) · Kulami AI (easy) 1500? → 1662? (+162)\n"+firstGamesNote, final.Embeds[0].Footer.Text)
				assert.Equal(t, ratingFooter(p), final.Embeds[0].Footer.Text)

				r := c.dc.WaitResponse(t, c.cmd(lobby, c.carol, "leaderboard", discordtest.StringOption("ladder", "ai")).ID)
				e := soleEmbed(t, r)
				assert.Equal(t, "Kulami leaderboard: games against the computer", e.Title)
				var lines []string
				for k, s := range computer.ranked() {
					lines = append(lines, leaderboardLine(k+1, s))
				}
				assert.Equal(t, "🥇 **Kulami AI (easy)** — 1662? · 1–0–0\n🥈 **alice** — 1338? · 0–1–0", e.Description)
				assert.Equal(t, strings.Join(lines, "\n"), e.Description)
				assert.Empty(t, r.Components, "one page, no buttons")

				r = c.dc.WaitResponse(t, c.cmd(lobby, c.carol, "leaderboard").ID)
				page(soleEmbed(t, r), r.Components, 1)

				e = soleEmbed(t, c.dc.WaitResponse(t, c.cmd(lobby, c.alice, "stats").ID))
				assert.Equal(t, "1338? · 0–1–0", embedFields(e)["Against the computer"])

				// zoe has played only the computer: her stats show that.
				zoe := c.user("zoe")
				g = c.playAI(zoe, "easy")
				final = c.resign(g.ChannelID, zoe)
				p = ended{f: c.finished(g.ID), board: final}
				p.before, p.after, p.rated = computer.count(p.f)
				computer.check(t, c.store, guild)
				r = c.dc.WaitResponse(t, c.cmd(lobby, zoe, "stats").ID)
				e = soleEmbed(t, r)
				assert.Equal(t, "Kulami stats: zoe", e.Title)
				assert.Contains(t, e.Description, "No rated games against people")
				assert.Equal(t, computer.players[zoe.ID].shown()+" · 0–1–0", embedFields(e)["Against the computer"])
				e = soleEmbed(t, c.dc.WaitResponse(t, c.cmd(lobby, c.carol, "stats", discordtest.UserOption("player", zoe.ID)).ID))
				assert.Equal(t, computer.players[zoe.ID].shown()+" · 0–1–0", embedFields(e)["Against the computer"])
			})
		})
	}
}
