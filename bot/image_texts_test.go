package bot

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/engine/review"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

// imageNow is a Wednesday: the clocks run, but a game that pauses over
// weekends says so.
var imageNow = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// imageGame is a game between names under the full rules after plies
// moves (or to its end, if plies is 0), each the first legal hole of a
// pseudo-random walk, with cfg's clock settings.
func imageGame(t testing.TB, names [2]string, plies int, cfg game.Config) *storage.Game {
	t.Helper()
	cfg.Layout, cfg.Rules, cfg.First = engine.Square(), engine.Full, engine.Red
	cfg.Players = [2]game.Player{{UserID: "101", Name: names[0]}, {UserID: "202", Name: names[1]}}
	gg, err := game.New(cfg, imageNow.Add(-time.Hour))
	require.NoError(t, err)
	g := &storage.Game{ID: 7, GuildID: "10", ChannelID: "20", Game: gg}
	for n := uint64(1); !g.Over() && (plies == 0 || g.Ply() < plies); n++ {
		pos := g.Position()
		holes := pos.Legal().Cells(pos.Layout())
		require.NoError(t, g.Play(g.ToMove(), g.Ply(), holes[(n*7919)%uint64(len(holes))], imageNow.Add(-time.Hour)))
	}
	return g
}

// ended returns g after end, which ends it.
func ended(t testing.TB, g *storage.Game, end func(*storage.Game) error) *storage.Game {
	t.Helper()
	require.NoError(t, end(g))
	require.True(t, g.Over())
	return g
}

// boardImages are the boards a game's players see with names, by what
// they show: under way (with each note that a clock is stopped) and each
// way a game ends.
func boardImages(t testing.TB, names [2]string) map[string]*storage.Game {
	t.Helper()
	hour := game.Config{MoveTime: time.Hour}
	late := imageNow.Add(2 * time.Hour)
	claimable := game.Config{MoveTime: time.Hour, Timeouts: game.Claim}
	return map[string]*storage.Game{
		"playing":        imageGame(t, names, 20, game.Config{MoveTime: 72 * time.Hour}),
		"weekends":       imageGame(t, names, 20, game.Config{MoveTime: 72 * time.Hour, Weekends: true}),
		"weekend_paused": imageGame(t, names, 20, game.Config{MoveTime: 72 * time.Hour, Weekends: true}), // drawn on a Saturday: see imageAt
		"vacation": func() *storage.Game {
			g := imageGame(t, names, 20, game.Config{MoveTime: 72 * time.Hour})
			require.NoError(t, g.Away(g.ToMove(), imageNow))
			return g
		}(),
		"played_out": imageGame(t, names, 0, game.Config{}),
		"resigned":   ended(t, imageGame(t, names, 21, hour), func(g *storage.Game) error { return g.Resign(g.ToMove(), imageNow) }),
		"timed_out":  ended(t, imageGame(t, names, 21, hour), func(g *storage.Game) error { return g.Timeout(late) }),
		"claimed": ended(t, imageGame(t, names, 21, claimable), func(g *storage.Game) error {
			require.NoError(t, g.Timeout(late))
			return g.Claim(g.ToMove().Other(), late)
		}),
		"adjudicated":      ended(t, imageGame(t, names, 21, hour), func(g *storage.Game) error { return g.Adjudicate(engine.Black, false, imageNow) }),
		"adjudicated_draw": ended(t, imageGame(t, names, 21, hour), func(g *storage.Game) error { return g.Adjudicate(engine.Red, true, imageNow) }),
		"draw_agreed": ended(t, imageGame(t, names, 21, hour), func(g *storage.Game) error {
			require.NoError(t, g.OfferDraw(g.ToMove(), imageNow))
			return g.AnswerDraw(g.ToMove().Other(), g.Ply(), true, imageNow)
		}),
		"aborted": ended(t, imageGame(t, names, 2, hour), func(g *storage.Game) error { return g.Abort(g.ToMove(), imageNow) }),
	}
}

// imageAt is when a board of kind is drawn: a Saturday for the weekend
// pause.
func imageAt(kind string) time.Time {
	if kind == "weekend_paused" {
		return imageNow.Add(3 * 24 * time.Hour)
	}
	return imageNow
}

// imageLooks are the looks the test draws with: the guild's default, and
// the colour-blind marbles on the light theme.
var imageLooks = map[string]look{"dark": {}, "colourblind": {theme: draw.Light, marbles: draw.ColourBlind}}

// drawn is an image drawn with the report of its texts.
type drawn struct {
	png []byte
	rep *draw.Report
}

// scriptNames are the names the test draws, by script.
var scriptNames = map[string][2]string{"latin": drawtest.LatinNames, "cjk": drawtest.CJKNames, "hebrew": drawtest.HebrewNames}

// TestImageTexts draws every kind of image the bot sends — boards under
// way (with each note that a clock is stopped), the final board of every
// way a game ends, a puzzle's board under way, solved and failed, the
// review's chart, the tournament standings and the replay's frames — in
// every language, at 360 pixels (as a phone shows an image) and 800,
// with names of 32 characters in Latin, Chinese and Hebrew letters, on
// the default look and with the colour-blind marbles, and checks every
// text each laid out: none is cut (a name may end in an ellipsis), none
// goes out of its room, no two touch, none shows Markdown. The images
// of goldenImages with Latin names at 360 pixels in every language, and
// in German at 800, are kept in testdata/images: look at them after go
// test ./bot -run TestImageTexts -update.
func TestImageTexts(t *testing.T) {
	r := draw.NewRenderer(draw.Config{Fonts: drawtest.Fonts(t)})
	for _, lang := range i18n.Langs() {
		for script, names := range scriptNames {
			for _, width := range []int{360, draw.DefaultWidth} {
				t.Run(fmt.Sprintf("%s/%s/%d", lang, script, width), func(t *testing.T) {
					t.Parallel()
					images := langImages(t, r, lang, names, width)
					for name, im := range images {
						assert.Empty(t, im.rep.Problems(max(2, 8*width/draw.DefaultWidth)), name)
						for _, l := range im.rep.Texts {
							assert.NotContains(t, l.Text, "**", "%s: Markdown on the image: %q", name, l.Text)
						}
						checkImageTexts(t, lang, name, im.rep)
						if script == "latin" && (width == 360 || lang == i18n.German) && goldenImages[name] {
							drawtest.AssertGolden(t, fmt.Sprintf("images/%s_%d_%s", lang, width, name), im.png)
						}
					}
				})
			}
		}
	}
}

// checkImageTexts checks what the issue of every word and pixel found
// on the image name in lang, besides the texts' fit: the note that a
// clock is stopped shown whole, a puzzle's footer addressing its reader
// and naming the colour of the marbles drawn, the chart naming both
// players, the standings writing Sonneborn–Berger as lang writes numbers.
func checkImageTexts(t *testing.T, lang i18n.Lang, name string, rep *draw.Report) {
	t.Helper()
	texts := func(what string) []string {
		var out []string
		for _, l := range rep.Texts {
			if l.What == what {
				out = append(out, l.Text)
			}
		}
		return out
	}
	switch {
	case name == "board_vacation_dark":
		assert.Equal(t, []string{lang.T("board.image_stopped")}, texts("note"), name)
	case name == "board_weekend_paused_dark":
		assert.Equal(t, []string{lang.T("board.image_weekend_paused")}, texts("note"), name)
	case name == "board_weekends_dark":
		assert.Equal(t, []string{lang.T("board.image_weekends")}, texts("note"), name)
	case name == "puzzle_colourblind":
		require.Len(t, texts("footer"), 1, name)
		footer := texts("footer")[0]
		assert.Contains(t, footer, "("+lang.T("draw.colour_blind_red")+")", "the orange marbles are named so")
		assert.Contains(t, footer, strings.Split(lang.T("draw.playing_you", "Move", 0, "Color", "x", "Rules", "y"), " · ")[1][:4], "the footer addresses its reader")
		assert.NotContains(t, footer, lang.T("puzzle.you"), "no pronoun as a name in a sentence")
	case name == "chart":
		sides := texts("side")
		require.Len(t, sides, 2)
		assert.NotEqual(t, sides[0], sides[1], "the top and the bottom name each player")
	case name == "standings":
		assert.Contains(t, texts("number"), lang.Decimal(4.25, 2), "Sonneborn–Berger as %s writes it", lang)
	}
}

// goldenImages are the images kept as golden files, of those drawn.
var goldenImages = map[string]bool{
	"board_weekend_paused_dark": true, "board_vacation_dark": true, "board_playing_colourblind": true,
	"board_played_out_dark": true, "board_resigned_colourblind": true, "board_claimed_dark": true, "board_adjudicated_dark": true,
	"puzzle_colourblind": true, "puzzle_solved_dark": true, "chart": true, "standings": true,
}

// langImages draws every kind of image in lang with names at width, as
// the bot draws them.
func langImages(t *testing.T, r *draw.Renderer, lang i18n.Lang, names [2]string, width int) map[string]drawn {
	out := map[string]drawn{}
	add := func(name string, f func(w io.Writer, rep *draw.Report) error) {
		var buf bytes.Buffer
		rep := &draw.Report{}
		require.NoError(t, f(&buf, rep), name)
		require.NotEmpty(t, rep.Texts, name)
		out[name] = drawn{buf.Bytes(), rep}
	}
	boards := boardImages(t, names)
	for kind, g := range boards {
		for lookName, lk := range imageLooks {
			if lookName != "dark" && kind != "playing" && kind != "resigned" {
				continue
			}
			add("board_"+kind+"_"+lookName, func(w io.Writer, rep *draw.Report) error {
				opt := boardImage(lang, g, lk, imageAt(kind))
				opt.Width, opt.Report = width, rep
				p := g.Position()
				return r.Render(w, &p, opt)
			})
		}
	}

	p := imagePuzzle(t)
	solver, _ := p.Solver()
	var you [2]string
	you[solver], you[solver.Other()] = lang.T("puzzle.you"), lang.T("puzzle.defence")
	start, err := p.Position()
	require.NoError(t, err)
	solved := start
	require.NoError(t, solved.Play(p.Solution[0]))
	failed := start
	for _, c := range start.Legal().Cells(start.Layout()) {
		if c != p.Solution[0] {
			require.NoError(t, failed.Play(c))
			break
		}
	}
	for name, c := range map[string]struct {
		pos engine.Position
		end attemptEnd
	}{"puzzle": {start, attemptGoing}, "puzzle_solved": {solved, attemptSolved}, "puzzle_failed": {failed, attemptFailed}} {
		for lookName, lk := range imageLooks {
			add(name+"_"+lookName, func(w io.Writer, rep *draw.Report) error {
				opt := drawPuzzle(lang, p, you, lk)
				if c.end != attemptGoing {
					puzzleEnd(lang, &c.pos, &opt, c.end == attemptSolved)
				}
				opt.Width, opt.Report = width, rep
				return r.Render(w, &c.pos, opt)
			})
		}
	}

	f := &storage.FinishedGame{Game: *boards["played_out"], RecordText: boards["played_out"].Record().String()}
	add("chart", func(w io.Writer, rep *draw.Report) error {
		c := reviewChart(lang, f, imageAnalysis(f), look{})
		c.Width, c.Report = width, rep
		return r.RenderChart(w, c)
	})
	add("standings", func(w io.Writer, rep *draw.Report) error {
		s := standingsTable(lang, imageTournament(t, names), imageStandings())
		s.Width, s.Report = width, rep
		return r.RenderStandings(w, s)
	})
	resigned := &storage.FinishedGame{Game: *boards["resigned"]}
	add("replay", func(w io.Writer, rep *draw.Report) error {
		a := replayAnimation(lang, resigned, resigned.Record(), look{})
		a.Options.Width, a.Options.Report = width, rep
		return r.Animate(w, a)
	})
	delete(out, "replay") // a GIF: checked, not kept
	return out
}

// imagePuzzle is a shipped puzzle of one move for red, whose marbles
// the colour-blind set draws orange.
func imagePuzzle(t testing.TB) *puzzle.Puzzle {
	set, err := puzzle.Shipped()
	require.NoError(t, err)
	for _, p := range set {
		if solver, err := p.Solver(); err == nil && solver == engine.Red && p.Moves() == 1 {
			return &p
		}
	}
	t.Fatal("no puzzle of one move for red")
	return nil
}

// imageAnalysis is an analysis of f's moves, red ahead, then black.
func imageAnalysis(f *storage.FinishedGame) *review.Analysis {
	a := &review.Analysis{}
	for i, m := range f.Moves() {
		chance := 0.5 + 0.4*float64((i*37)%11-5)/5
		a.Moves = append(a.Moves, review.Move{Ply: i + 1, Color: engine.Color(i % 2), Cell: m.Cell, Best: m.Cell,
			Before: 0.5, After: min(1, max(0, chance)), Cost: max(0, 0.5-chance)})
	}
	return a
}

// imageTournament is a tournament of names and others, with the longest
// name a tournament may have, under way.
func imageTournament(t testing.TB, names [2]string) *storage.Tournament {
	name := strings.Repeat("Kulami Winter Open ", 6)[:tournament.MaxNameLength]
	tt, err := tournament.New(tournament.Settings{Name: name, Rounds: 5, DaysPerRound: 3, MaxPlayers: 6}, "101", imageNow.Add(-time.Hour))
	require.NoError(t, err)
	ids := []string{"101", "202", "303", "404", "505", "606"}
	for _, id := range ids {
		require.NoError(t, tt.Join(id, 1500, imageNow.Add(-time.Hour)))
	}
	require.NoError(t, tt.Start(imageNow.Add(-time.Hour)))
	return &storage.Tournament{ID: 1, GuildID: "10", Tournament: tt,
		Names: map[string]string{"101": names[0], "202": names[1], "303": "Carol", "404": "田中", "505": "דני כהן", "606": "Eve"}}
}

// imageStandings are standings with half points, a Sonneborn–Berger of
// 4.25, a withdrawn player second (no medal: the two tied third share
// silver) and another further down.
func imageStandings() []tournament.Standing {
	return []tournament.Standing{
		{Rank: 1, Player: "101", Points: 9, BuchholzCut1: 21, Buchholz: 25, SonnebornBerger: 12.5},
		{Rank: 2, Player: "202", Points: 8, BuchholzCut1: 20, Buchholz: 23, SonnebornBerger: 10.75, Withdrawn: true},
		{Rank: 3, Player: "303", Points: 7, BuchholzCut1: 19, Buchholz: 22, SonnebornBerger: 4.25},
		{Rank: 3, Player: "404", Points: 7, BuchholzCut1: 19, Buchholz: 22, SonnebornBerger: 4.25},
		{Rank: 5, Player: "505", Points: 3, BuchholzCut1: 12, Buchholz: 14, SonnebornBerger: 1.5, Withdrawn: true},
		{Rank: 6, Player: "606", Points: 0, BuchholzCut1: 10, Buchholz: 11},
	}
}

// TestStandingsMedals: the standings image gives the podium's medals
// (tournament.Podium), not one per rank up to 3: the withdrawn player
// second gets none, the two tied third share silver, and the text of the
// standings writes Sonneborn–Berger as the reader's language does.
func TestStandingsMedals(t *testing.T) {
	st := imageTournament(t, drawtest.LatinNames)
	table := standingsTable(i18n.English, st, imageStandings())
	medals := map[string]int{}
	for _, r := range table.Rows {
		medals[r.Name] = r.Medal
	}
	assert.Equal(t, map[string]int{drawtest.LatinNames[0]: 1, drawtest.LatinNames[1]: 0, "Carol": 2, "田中": 2, "דני כהן": 0, "Eve": 0}, medals)
	fr := standingsText(i18n.French, st, imageStandings())
	assert.Contains(t, fr, "4,25")
	assert.NotContains(t, fr, "4.25")
}
