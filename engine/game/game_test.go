package game_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// t0 is when the games of the tests begin.
var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// The players of the tests.
var (
	alice    = game.Player{UserID: "1001", Name: "alice"}
	bob      = game.Player{UserID: "1002", Name: "bob"}
	computer = game.Player{UserID: "9000", Name: "Kulami", AI: "hard"}
)

// moveTime is the move time of the tests' games.
const moveTime = 10 * time.Hour

// config returns the config of a test game: alice (Red, first) against
// bob on the square board, full rules, moveTime a move; each change edits
// it.
func config(changes ...func(*game.Config)) game.Config {
	cfg := game.Config{
		Layout: engine.Square(), Rules: engine.Full, First: engine.Red,
		Players: [2]game.Player{alice, bob}, MoveTime: moveTime,
	}
	for _, change := range changes {
		change(&cfg)
	}
	return cfg
}

// againstComputer makes alice (Red) play the computer.
func againstComputer(cfg *game.Config) { cfg.Players[engine.Black] = computer }

// noClock makes a game without a move time.
func noClock(cfg *game.Config) { cfg.MoveTime = 0 }

// mustNew starts a test game at t0 (see config).
func mustNew(tb testing.TB, changes ...func(*game.Config)) *game.Game {
	tb.Helper()
	g, err := game.New(config(changes...), t0)
	require.NoError(tb, err)
	return g
}

// turnStart returns when the turn of g began: its last move, or its
// start.
func turnStart(g *game.Game) time.Time {
	if m := g.Moves(); len(m) > 0 {
		return m[len(m)-1].At
	}
	return g.Created()
}

// next returns the time of the next move of g: a minute after its turn
// began.
func next(g *game.Game) time.Time { return turnStart(g).Add(time.Minute) }

// mustCell parses a coordinate that the test knows to be valid.
func mustCell(tb testing.TB, s string) engine.Cell {
	tb.Helper()
	c, err := engine.ParseCell(s)
	require.NoError(tb, err)
	return c
}

// mustPlay plays cells (coordinates such as "D4") in g, each by the
// player to move, a minute after the turn began; the test knows them to be
// legal.
func mustPlay(tb testing.TB, g *game.Game, cells ...string) {
	tb.Helper()
	for _, s := range cells {
		require.NoError(tb, g.Play(g.ToMove(), g.Ply(), mustCell(tb, s), next(g)), "move %d (%s)", g.Ply()+1, s)
	}
}

// mustPlayCells is mustPlay for cells.
func mustPlayCells(tb testing.TB, g *game.Game, cells []engine.Cell) {
	tb.Helper()
	for _, c := range cells {
		require.NoError(tb, g.Play(g.ToMove(), g.Ply(), c, next(g)), "move %d (%v)", g.Ply()+1, c)
	}
}

// randomGame returns the moves of a game on l, Red first, of random legal
// moves drawn with seed, up to its end.
func randomGame(l *engine.Layout, seed uint64) []engine.Cell {
	r, p := engine.NewRand(seed), engine.NewPosition(l, engine.Red)
	var moves []engine.Cell
	for !p.IsOver() {
		h := r.Pick(p.Legal())
		moves = append(moves, l.Cell(h))
		p.Apply(h)
	}
	return moves
}

// findGame returns the moves of the first random game on l (see
// randomGame, seeds 1, 2, …) that places all 56 marbles, if full, or that
// ends with the player to move blocked, if not.
func findGame(tb testing.TB, l *engine.Layout, full bool) []engine.Cell {
	tb.Helper()
	for seed := uint64(1); seed <= 100_000; seed++ {
		if m := randomGame(l, seed); (len(m) == engine.MaxPly) == full {
			return m
		}
	}
	require.FailNow(tb, "no random game found", "full: %v", full)
	return nil
}

// mustFinish plays out g with the moves of a game found by findGame.
func mustFinish(tb testing.TB, g *game.Game, full bool) {
	tb.Helper()
	mustPlayCells(tb, g, findGame(tb, g.Layout(), full))
	require.True(tb, g.Over())
}

// refuse checks that change returns want and leaves g as it was.
func refuse(t *testing.T, g *game.Game, want error, change func() error) {
	t.Helper()
	before := g.State()
	assert.ErrorIs(t, change(), want)
	assert.Equal(t, before, g.State(), "a refused change altered the game")
}

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		cfg      game.Config
		deadline time.Time
	}{
		{"people with a clock", config(), t0.Add(moveTime)},
		{"black first", config(func(c *game.Config) { c.First = engine.Black }), t0.Add(moveTime)},
		{"no clock", config(noClock), time.Time{}},
		{"irregular board", config(func(c *game.Config) { c.Layout = engine.RandomIrregular(7) }), t0.Add(moveTime)},
		{"person first against the computer", config(againstComputer), t0.Add(moveTime)},
		{"computer first", config(againstComputer, func(c *game.Config) { c.First = engine.Black }), time.Time{}},
		{"computer without a user ID", config(func(c *game.Config) { c.Players[engine.Red] = game.Player{Name: "bot", AI: "easy"} }), time.Time{}},
		{"two computers", config(func(c *game.Config) {
			c.Players = [2]game.Player{{Name: "easy", AI: "easy"}, {Name: "hard", AI: "hard"}}
		}), time.Time{}},
		{"basic rules", config(func(c *game.Config) { c.Rules = engine.Basic }), t0.Add(moveTime)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := game.New(tt.cfg, t0)
			require.NoError(t, err)
			assert.True(t, tt.cfg.Layout.Equal(g.Layout()))
			assert.Equal(t, tt.cfg.Rules, g.Rules())
			assert.Equal(t, tt.cfg.First, g.First())
			assert.Equal(t, tt.cfg.First, g.ToMove())
			assert.Equal(t, tt.cfg.Players, g.Players())
			assert.Equal(t, tt.cfg.Players[engine.Black], g.Player(engine.Black))
			assert.Equal(t, tt.cfg.MoveTime, g.MoveTime())
			assert.Equal(t, t0, g.Created())
			assert.Equal(t, tt.deadline, g.Deadline())
			assert.Equal(t, engine.NewPosition(tt.cfg.Layout, tt.cfg.First), g.Position())
			assert.Zero(t, g.Ply())
			assert.Empty(t, g.Moves())
			assert.Zero(t, g.Reminders())
			assert.Nil(t, g.DrawOffer())
			assert.Nil(t, g.Result())
			assert.False(t, g.Over())
			assert.False(t, g.Blocked())
		})
	}
}

func TestNewInvalid(t *testing.T) {
	tests := []struct {
		name   string
		change func(*game.Config)
		now    time.Time
	}{
		{"no layout", func(c *game.Config) { c.Layout = nil }, t0},
		{"zero time", func(*game.Config) {}, time.Time{}},
		{"unknown rules", func(c *game.Config) { c.Rules = engine.Full + 1 }, t0},
		{"first colour not red or black", func(c *game.Config) { c.First = 2 }, t0},
		{"red without a user ID", func(c *game.Config) { c.Players[engine.Red].UserID = "" }, t0},
		{"black without a user ID", func(c *game.Config) { c.Players[engine.Black].UserID = "" }, t0},
		{"user ID too long", func(c *game.Config) { c.Players[engine.Red].UserID = strings.Repeat("1", 101) }, t0},
		{"user ID with a zero byte", func(c *game.Config) { c.Players[engine.Black].UserID = "10\x0002" }, t0},
		{"computer level with a zero byte", func(c *game.Config) { c.Players[engine.Black] = game.Player{AI: "x\x00"} }, t0},
		{"computer user ID too long", func(c *game.Config) {
			c.Players[engine.Black] = game.Player{UserID: strings.Repeat("9", 101), AI: "hard"}
		}, t0},
		{"a person against themself", func(c *game.Config) { c.Players[engine.Black] = alice }, t0},
		{"a computer against itself", func(c *game.Config) { c.Players = [2]game.Player{computer, computer} }, t0},
		{"negative move time", func(c *game.Config) { c.MoveTime = -time.Second }, t0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := game.New(config(tt.change), tt.now)
			assert.ErrorIs(t, err, game.ErrInvalid)
			assert.Nil(t, g)
		})
	}
}

// sampleGames returns, by name, a game of each kind of ending and games
// that go on in each state of the clock and of draw offers.
func sampleGames(tb testing.TB) map[string]*game.Game {
	tb.Helper()
	g := func(changes ...func(*game.Config)) *game.Game { return mustNew(tb, changes...) }
	games := map[string]*game.Game{
		"new":                    g(),
		"no clock":               g(noClock),
		"computer's turn":        g(againstComputer),
		"irregular, black first": g(func(c *game.Config) { c.Layout, c.First = engine.RandomIrregular(3), engine.Black }),
		"two moves":              g(),
		"draw offered":           g(),
		"draw offer lapsed":      g(),
		"one reminder":           g(),
		"two reminders":          g(),
		"played out":             g(),
		"blocked":                g(func(c *game.Config) { c.Rules = engine.Basic }),
		"resigned":               g(),
		"timed out":              g(),
		"unstarted":              g(),
		"aborted":                g(),
		"draw agreed":            g(),
		"adjudicated":            g(),
		"adjudicated drawn":      g(),
	}
	mustPlay(tb, games["computer's turn"], "D4")
	mustPlay(tb, games["two moves"], "D4", "D7")
	mustPlay(tb, games["draw offered"], "D4")
	require.NoError(tb, games["draw offered"].OfferDraw(engine.Red, next(games["draw offered"])))
	mustPlay(tb, games["one reminder"], "D4")
	require.NoError(tb, games["one reminder"].Remind(games["one reminder"].Deadline().Add(-moveTime/2)))
	require.NoError(tb, games["two reminders"].Remind(games["two reminders"].Deadline()))
	mustFinish(tb, games["played out"], true)
	mustFinish(tb, games["blocked"], false)
	mustPlay(tb, games["resigned"], "D4", "D7", "F7")
	require.NoError(tb, games["resigned"].Resign(engine.Red, next(games["resigned"])))
	mustPlay(tb, games["timed out"], "D4", "D7", "F7")
	require.NoError(tb, games["timed out"].Timeout(games["timed out"].Deadline()))
	mustPlay(tb, games["unstarted"], "D4")
	require.NoError(tb, games["unstarted"].Timeout(games["unstarted"].Deadline()))
	mustPlay(tb, games["aborted"], "D4", "D7", "F7")
	require.NoError(tb, games["aborted"].Abort(engine.Black, next(games["aborted"])))
	mustPlay(tb, games["draw agreed"], "D4", "D7")
	require.NoError(tb, games["draw agreed"].OfferDraw(engine.Black, next(games["draw agreed"])))
	require.NoError(tb, games["draw agreed"].AnswerDraw(engine.Red, 2, true, next(games["draw agreed"])))
	mustPlay(tb, games["adjudicated"], "D4", "D7", "F7")
	require.NoError(tb, games["adjudicated"].Adjudicate(engine.Black, false, next(games["adjudicated"])))
	mustPlay(tb, games["adjudicated drawn"], "D4")
	require.NoError(tb, games["adjudicated drawn"].Adjudicate(engine.Red, true, next(games["adjudicated drawn"])))
	lapsed := games["draw offer lapsed"]
	require.NoError(tb, lapsed.OfferDraw(engine.Black, t0))
	mustPlay(tb, lapsed, "D4")
	for name, g := range daysGames(tb) {
		games[name] = g
	}
	return games
}

// daysGames returns, by name, games in each state of the comforts of a
// game played over days (doc.go).
func daysGames(tb testing.TB) map[string]*game.Game {
	tb.Helper()
	paris := mustZone(tb, "Europe/Paris")
	days := func(c *game.Config) {
		c.Increment, c.Weekends, c.Timeouts = time.Hour, true, game.Claim
		c.Zones[engine.Red], c.Quiet[engine.Black] = paris, game.Quiet{From: 22, To: 8}
	}
	planned, _ := mustPlanned(tb, 3, 2)
	away := mustNew(tb, days)
	require.NoError(tb, away.Away(engine.Red, t0.Add(time.Hour)))
	late := mustNew(tb, days)
	mustPlay(tb, late, "D4", "D7")
	require.NoError(tb, late.Timeout(late.Deadline()))
	claimed := late.Clone()
	require.NoError(tb, claimed.Claim(engine.Black, late.Deadline()))
	return map[string]*game.Game{"planned": planned, "away": away, "late": late, "claimed": claimed}
}

func TestRestoreRoundTrip(t *testing.T) {
	for name, g := range sampleGames(t) {
		t.Run(name, func(t *testing.T) {
			s := g.State()
			r, err := game.Restore(s)
			require.NoError(t, err)
			assert.Equal(t, s, r.State())
			assert.Equal(t, g.Position(), r.Position())
			assert.Equal(t, g.Result(), r.Result())
			assert.Equal(t, g.Wake(), r.Wake())
			assert.Equal(t, g.Blocked(), r.Blocked())

			b, err := json.Marshal(s)
			require.NoError(t, err)
			var back game.State
			require.NoError(t, json.Unmarshal(b, &back))
			r, err = game.Restore(back)
			require.NoError(t, err)
			again, err := json.Marshal(r.State())
			require.NoError(t, err)
			assert.JSONEq(t, string(b), string(again))
			assert.Equal(t, string(b), string(again))
		})
	}
}

func TestRestoreInvalid(t *testing.T) {
	games := sampleGames(t)
	played, blocked := games["played out"].State(), games["blocked"].State()
	tests := []struct {
		name   string
		from   string // the sample game changed
		why    string // in the error
		change func(*game.State)
	}{
		{"empty layout", "new", "layout string is empty", func(s *game.State) { s.Layout = "" }},
		{"bad layout", "new", "bad layout", func(s *game.State) { s.Layout = "aabb/ccdd" }},
		{"non-canonical layout", "new", "not canonical", func(s *game.State) { s.Layout = strings.ReplaceAll(engine.SquareString, "aa", "zz") }},
		{"zero creation time", "new", "no creation time", func(s *game.State) { s.Created = time.Time{} }},
		{"unknown rules", "new", "unknown rule set", func(s *game.State) { s.Rules = engine.Full + 1 }},
		{"first colour not red or black", "new", "first colour", func(s *game.State) { s.First = 7 }},
		{"player without an ID", "new", "user ID is empty", func(s *game.State) { s.Players[engine.Black].UserID = "" }},
		{"a player against themself", "new", "against themself", func(s *game.State) { s.Players[engine.Red] = bob }},
		{"negative move time", "new", "negative", func(s *game.State) { s.MoveTime = -1 }},
		{"occupied hole", "two moves", "already holds a marble", func(s *game.State) { s.Moves[1].Cell = s.Moves[0].Cell }},
		{"off the board", "two moves", "no hole there", func(s *game.State) { s.Moves[1].Cell = mustCell(t, "J10") }},
		{"not in line", "two moves", "row or column", func(s *game.State) { s.Moves[1].Cell = mustCell(t, "A1") }},
		{"move after the end", "played out", "game is over", func(s *game.State) {
			s.Moves = append(s.Moves, s.Moves[0])
		}},
		{"over without a result", "played out", "has no result", func(s *game.State) { s.Result = nil }},
		{"blocked without a result", "blocked", "has no result", func(s *game.State) { s.Result = nil }},
		{"result before the end", "two moves", "not over", func(s *game.State) {
			s.Result, s.Deadline = &game.Result{Ending: game.Normal, At: t0}, time.Time{}
		}},
		{"wrong score", "played out", "does not follow", func(s *game.State) { s.Result.Score[engine.Red].Total++ }},
		{"wrong winner", "played out", "does not follow", func(s *game.State) { s.Result.Winner = played.Result.Winner.Other() }},
		{"draw that is not", "played out", "does not follow", func(s *game.State) { s.Result.Draw = true }},
		{"result without a time", "resigned", "time the game ended", func(s *game.State) { s.Result.At = time.Time{} }},
		{"unknown ending", "resigned", "unknown ending", func(s *game.State) { s.Result.Ending = 9 }},
		{"winner not red or black", "resigned", "loser must be red or black", func(s *game.State) { s.Result.Winner = 2 }},
		{"aborted with a winner", "aborted", "does not follow", func(s *game.State) { s.Result.Winner = engine.Black }},
		{"adjudicated drawn with a winner", "adjudicated drawn", "does not follow", func(s *game.State) { s.Result.Winner = engine.Black }},
		{"adjudicated on a played-out board", "played out", "played out", func(s *game.State) {
			s.Result.Ending, s.Result.Winner, s.Result.Draw = game.Adjudicated, engine.Red, false
		}},
		{"resigned on a played-out board", "played out", "played out", func(s *game.State) {
			s.Result.Ending, s.Result.Winner, s.Result.Draw = game.Resigned, engine.Red, false
		}},
		{"draw agreed on a blocked board", "blocked", "played out", func(s *game.State) {
			s.Result.Ending, s.Result.Winner, s.Result.Draw = game.DrawAgreed, 0, true
		}},
		{"aborted after the abort window", "aborted", "aborted after 4 moves", func(s *game.State) {
			s.Moves = append(s.Moves, game.Move{Cell: mustCell(t, "F2"), At: s.Result.At})
			p := engine.NewPosition(engine.Square(), engine.Red)
			for _, m := range s.Moves {
				require.NoError(t, p.Play(m.Cell))
			}
			s.Result.Score = p.Score(s.Rules)
		}},
		{"unstarted after both players moved", "timed out", "both players had moved", func(s *game.State) {
			s.Result.Ending = game.Unstarted
		}},
		{"timed out while the other was to move", "timed out", "not their turn", func(s *game.State) {
			s.Result.Winner = s.Result.Winner.Other()
		}},
		{"draw offer by no colour", "draw offered", "draw offer", func(s *game.State) { s.DrawOffer.By = 2 }},
		{"draw offer at a negative ply", "draw offered", "draw offer", func(s *game.State) { s.DrawOffer.Ply = -1 }},
		{"draw offer of a later ply", "draw offered", "draw offer", func(s *game.State) { s.DrawOffer.Ply = 2 }},
		{"draw offer to the computer", "computer's turn", "draw offer", func(s *game.State) {
			s.DrawOffer = &game.DrawOffer{By: engine.Red, Ply: 1}
		}},
		{"draw offer after the end", "resigned", "draw offer", func(s *game.State) {
			s.DrawOffer = &game.DrawOffer{By: engine.Black, Ply: 3}
		}},
		{"too many reminders", "two reminders", "3 reminders", func(s *game.State) { s.Reminders = 3 }},
		{"no deadline while a clock runs", "two moves", "no deadline", func(s *game.State) { s.Deadline = time.Time{} }},
		{"a deadline without a move time", "no clock", "no clock runs", func(s *game.State) { s.Deadline = t0.Add(time.Hour) }},
		{"a deadline on the computer's turn", "computer's turn", "no clock runs", func(s *game.State) { s.Deadline = t0.Add(time.Hour) }},
		{"a deadline after the end", "resigned", "no clock runs", func(s *game.State) { s.Deadline = t0.Add(time.Hour) }},
		{"reminders without a clock", "no clock", "reminders sent, but no clock", func(s *game.State) { s.Reminders = 1 }},
	}
	require.NotNil(t, blocked.Result)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := games[tt.from].State()
			_, err := game.Restore(s)
			require.NoError(t, err, "the sample game %q", tt.from)
			tt.change(&s)
			g, err := game.Restore(s)
			assert.ErrorIs(t, err, game.ErrInvalid)
			assert.ErrorContains(t, err, tt.why)
			assert.Nil(t, g)
		})
	}
}

func TestStateSharesNothing(t *testing.T) {
	g := sampleGames(t)["draw offered"]
	before := g.State()

	s := g.State()
	s.Moves[0].Cell = mustCell(t, "A1")
	s.DrawOffer.By = engine.Black
	g.Moves()[0].Cell = mustCell(t, "A1")
	g.DrawOffer().By = engine.Black
	assert.Equal(t, before, g.State())

	r, err := game.Restore(before)
	require.NoError(t, err)
	before.Moves[0].Cell = mustCell(t, "A1")
	before.DrawOffer.By = engine.Black
	assert.Equal(t, g.State(), r.State(), "Restore kept the caller's slices")

	ended := sampleGames(t)["resigned"]
	ended.Result().Winner = engine.Red
	assert.Equal(t, engine.Black, ended.Result().Winner)
}

func TestClone(t *testing.T) {
	for name, g := range sampleGames(t) {
		t.Run(name, func(t *testing.T) {
			before := g.State()
			c := g.Clone()
			require.Equal(t, before, c.State())
			require.Equal(t, g.Position(), c.Position())
			// Change the clone every way it can change; g must not.
			if !c.Over() {
				_ = c.OfferDraw(engine.Red, next(c))
				_ = c.Remind(c.Deadline())
				legal := c.Position()
				for h := range legal.Legal().All() {
					require.NoError(t, c.Play(c.ToMove(), c.Ply(), c.Layout().Cell(h), next(c)))
					break
				}
				if !c.Over() {
					require.NoError(t, c.Resign(engine.Black, next(c)))
				}
			}
			c.Rename(engine.Red, "someone else")
			assert.Equal(t, before, g.State())
		})
	}
}

func TestSeat(t *testing.T) {
	tests := []struct {
		name    string
		players [2]game.Player
		user    string
		want    engine.Color
		err     error
	}{
		{"red", [2]game.Player{alice, bob}, alice.UserID, engine.Red, nil},
		{"black", [2]game.Player{alice, bob}, bob.UserID, engine.Black, nil},
		{"unknown", [2]game.Player{alice, bob}, "1003", 0, game.ErrNotAPlayer},
		{"empty", [2]game.Player{alice, bob}, "", 0, game.ErrNotAPlayer},
		{"the computer's ID", [2]game.Player{alice, computer}, computer.UserID, 0, game.ErrNotAPlayer},
		{"empty against a computer without an ID", [2]game.Player{{Name: "bot", AI: "easy"}, bob}, "", 0, game.ErrNotAPlayer},
		{"a person against the computer", [2]game.Player{computer, bob}, bob.UserID, engine.Black, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, func(c *game.Config) { c.Players = tt.players })
			c, err := g.Seat(tt.user)
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, c)
		})
	}
}

func TestRename(t *testing.T) {
	g := mustNew(t)
	mustPlay(t, g, "D4")
	before := g.State()
	g.Rename(engine.Black, "robert")
	want := before
	want.Players[engine.Black].Name = "robert"
	assert.Equal(t, want, g.State())
	tag, _ := g.Record().Tag("Black")
	assert.Equal(t, "robert", tag)
}

func TestRecord(t *testing.T) {
	games := sampleGames(t)
	tests := []struct {
		name   string
		result string // the Result tag
		word   string // the result word after the moves
	}{
		{"new", "*", "*"},
		{"two moves", "*", "*"},
		{"irregular, black first", "*", "*"},
		{"played out", games["played out"].Result().String(), ""},
		{"blocked", games["blocked"].Result().String(), ""},
		{"resigned", "Black wins, Red resigned", ""},
		{"timed out", "Red wins, Black ran out of time", ""},
		{"aborted", "Aborted", ""},
		{"draw agreed", "Draw by agreement", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := games[tt.name]
			r := g.Record()
			assert.True(t, g.Layout().Equal(r.Layout))
			assert.Equal(t, g.First(), r.First)
			assert.Equal(t, g.Rules(), r.Rules)
			assert.Equal(t, []engine.Tag{
				{Name: "Game", Value: "Kulami"},
				{Name: "Red", Value: g.Player(engine.Red).Name},
				{Name: "Black", Value: g.Player(engine.Black).Name},
				{Name: "Date", Value: "2026.11.22"},
				{Name: "Result", Value: tt.result},
			}, r.Tags)
			assert.Equal(t, tt.word, r.Result)
			require.Len(t, r.Moves, g.Ply())
			for i, m := range g.Moves() {
				assert.Equal(t, m.Cell.String(), r.Moves[i])
			}

			back, err := engine.ParseRecord(r.String())
			require.NoError(t, err)
			assert.Equal(t, r.String(), back.String())
			assert.Equal(t, r.Tags, back.Tags)
			assert.Equal(t, strings.Join(r.Moves, " "), strings.Join(back.Moves, " "))
			assert.Equal(t, r.Result, back.Result)
			p, err := back.Replay()
			require.NoError(t, err)
			want := g.Position()
			assert.Equal(t, want.Stones(engine.Red), p.Stones(engine.Red))
			assert.Equal(t, want.Stones(engine.Black), p.Stones(engine.Black))
			assert.Equal(t, want.ToMove(), p.ToMove())
			assert.Equal(t, want.IsOver(), p.IsOver())
		})
	}
}

func TestRecordDateIsUTC(t *testing.T) {
	// 22 November, 23:30 in New York is 23 November in UTC.
	ny := time.FixedZone("EST", -5*60*60)
	g, err := game.New(config(), time.Date(2026, 11, 22, 23, 30, 0, 0, ny))
	require.NoError(t, err)
	date, _ := g.Record().Tag("Date")
	assert.Equal(t, "2026.11.23", date)
}

// FuzzRestore feeds arbitrary JSON to Restore: it must never panic, and
// every state it accepts must round-trip, as a State and as JSON.
func FuzzRestore(f *testing.F) {
	for _, g := range sampleGames(f) {
		b, err := json.Marshal(g.State())
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"layout":"` + engine.SquareString + `","created":"2026-11-22T12:00:00Z","players":[{"user":"1"},{"user":"2"}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s game.State
		if json.Unmarshal(data, &s) != nil {
			return
		}
		g, err := game.Restore(s)
		if err != nil {
			require.ErrorIs(t, err, game.ErrInvalid)
			require.Nil(t, g)
			return
		}
		st := g.State()
		require.Equal(t, s, st, "Restore changed the state")
		r, err := game.Restore(st)
		require.NoError(t, err, "Restore refused the state of a game it restored")
		require.Equal(t, st, r.State())

		b, err := json.Marshal(st)
		require.NoError(t, err)
		var back game.State
		require.NoError(t, json.Unmarshal(b, &back))
		r, err = game.Restore(back)
		require.NoError(t, err, "Restore refused the JSON of a game it restored: %s", b)
		again, err := json.Marshal(r.State())
		require.NoError(t, err)
		require.Equal(t, string(b), string(again))

		// What a scheduler and the bot ask of any stored game.
		_ = g.Wake()
		_ = g.Blocked()
		_, err = engine.ParseRecord(g.Record().String())
		require.NoError(t, err)
	})
}
