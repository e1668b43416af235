package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

const arenaDoc = `Arena plays a match between two computer players and prints the wins,
losses and draws with a 95% confidence interval. A player is a level of
the computer opponent (easy, medium, hard), hard-old (hard as it was
before it searched its whole budget, reused its tree and widened its
wins, to measure hard against) or a baseline: random (any legal move),
greedy (the best score after one move), alphabeta (alpha-beta search with
the score margin as evaluation, as deep as --time allows) or deep
(alpha-beta search to a fixed depth that grows from 8 to 25 plies as the
board fills, without a time limit: the strongest open-source Kulami program
known, rebuilt from its description; --deep-cut makes it shallower).

Games are played one at a time and each player thinks alone, so both get
every core for their --time; hard searches on from its tree of its last
move, as in the bot. Games go in pairs on the same layout and
rules, each player moving first once; the colours alternate every game.
With --layout random or irregular each pair gets a new board, and with
--rules all the rule set goes round basic, area, lines, full, pair by pair.

The confidence interval is the Wilson score interval of the share of
points that A scored, a draw counting half a point. Without --json a line
per game is printed as the match goes on, with the games done and the
points so far; with --json that line goes to standard error. Ctrl-C stops
the match and the games finished so far are counted.

With --json only one line is printed, a JSON object:

  {"a":"hard","b":"greedy","games":n,"a_wins":n,"b_wins":n,"draws":n,
   "a_share":x,"ci_low":x,"ci_high":x,"layout":"random","rules":"all",
   "time_ms":n,"deep_cut":n,"seed":n,"a_slowest_ms":n,"b_slowest_ms":n,
   "a_margin":x,"a_mean_ms":n,"b_mean_ms":n,"a_over_ms":n,"b_over_ms":n}

a_share is A's points over the games, ci_low and ci_high bound it;
a_margin is A's total less B's, the mean over the games; the
slowest fields are the longest one move took each player and the mean
fields the mean, in milliseconds. The over fields say by how much the
slowest move of a player with a budget (all but random, greedy and deep)
went over --time, 0 if none did; they are left out for the others.
`

// arenaPlayers are the names arena accepts for --a and --b.
var arenaPlayers = []string{"easy", "medium", "hard", "hard-old", "random", "greedy", "alphabeta", "deep"}

func runArena(ctx context.Context, e *env, args []string) error {
	fs := newFlags("arena")
	nameA := fs.String("a", "", "the first `player`: easy, medium, hard, hard-old, random, greedy, alphabeta or deep")
	nameB := fs.String("b", "", "the second `player`, as for --a")
	games := fs.Int("games", 20, "the `number` of games; an even number gives each player the first move equally often")
	budget := fs.Duration("time", ai.DefaultTime, "the `budget` a move of easy, medium, hard, hard-old and alphabeta")
	deepCut := fs.Int("deep-cut", 0, "the `plies` taken off every depth of deep's schedule, for quicker games")
	layoutSpec := fs.String("layout", kindRandom, "the boards: square, random (panels shuffled on the 8×8 square),\nirregular (within 10×10, with gaps) or a layout `string`")
	rulesName := fs.String("rules", "all", "how to `score`: basic, area, lines, full, or all (in turn)")
	var seed seedFlag
	fs.Var(&seed, "seed", "the `seed` of the boards and the players, a whole number; from the clock if not given")
	asJSON := fs.Bool("json", false, "print one JSON object on one line instead of the games and a summary")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("arena takes only flags, but got %q", rest[0])
	}
	if *games < 1 {
		return usagef("--games must be at least 1, not %d", *games)
	}
	if *budget <= 0 {
		return usagef("--time must be more than 0, such as 500ms or 2s, not %s", *budget)
	}
	if *deepCut < 0 {
		return usagef("--deep-cut must be 0 or more, not %d", *deepCut)
	}
	if !seed.set {
		seed.value = uint64(e.now().UnixNano()) % 1_000_000_000
	}
	var players [2]ai.Player
	for i, name := range []string{*nameA, *nameB} {
		flag := [...]string{"--a", "--b"}[i]
		if name == "" {
			return usagef("%s is missing: name a player, one of %s", flag, strings.Join(arenaPlayers, ", "))
		}
		if players[i], err = arenaPlayer(name, *budget, *deepCut, seed.value*2+uint64(i)); err != nil {
			return usagef("%s: %v", flag, err)
		}
	}
	rules, err := arenaRules(*rulesName)
	if err != nil {
		return usagef("--rules: %v", err)
	}
	layout, err := e.arenaLayouts(*layoutSpec, seed.value)
	if err != nil {
		return err
	}

	m := match{A: *nameA, B: *nameB, Layout: *layoutSpec, Rules: *rulesName,
		TimeMS: budget.Milliseconds(), DeepCut: *deepCut, Seed: seed.value}
	if *layoutSpec != kindSquare && *layoutSpec != kindRandom && *layoutSpec != kindIrregular {
		m.Layout = "string"
	}
	p := e.newPrinter()
	if !*asJSON {
		p.printf("%s vs %s: %d games, %s layouts, rules %s, %s a move%s, seed %d\n",
			m.A, m.B, *games, m.Layout, m.Rules, budget, m.cut(), m.Seed)
	}
	progress := p.printf
	if *asJSON {
		progress = func(format string, a ...any) { fmt.Fprintf(e.stderr, format, a...) }
	}
	for i := range *games {
		pair := i / 2
		l, r := layout(pair), rules[pair%len(rules)]
		// A plays red in even games; the first colour changes every pair,
		// so within a pair each player moves first once.
		aColor, first := engine.Color(i%2), engine.Color(pair%2)
		var seats [2]ai.Player
		seats[aColor], seats[aColor.Other()] = players[0], players[1]
		g, err := ai.PlayGame(ctx, l, first, r, seats)
		if err != nil {
			if ctx.Err() != nil {
				break // interrupted: count the games played
			}
			return fmt.Errorf("game %d: %w", i+1, err)
		}
		m.add(g, aColor)
		progress("game %d/%d: %s; %s\n", i+1, *games, m.describe(g, aColor, first, r), m.running())
	}
	m.finish()
	if *asJSON {
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		p.printf("%s\n", b)
	} else {
		m.summary(p)
	}
	if p.err != nil {
		return p.err
	}
	return ctx.Err()
}

// arenaPlayer returns the player called name, thinking budget a move, or
// for deep to its schedule less deepCut plies.
func arenaPlayer(name string, budget time.Duration, deepCut int, seed uint64) (ai.Player, error) {
	var c ai.Config
	switch name {
	case "random":
		return ai.Random{Seed: seed}, nil
	case "greedy":
		return ai.Greedy{Seed: seed}, nil
	case "alphabeta":
		return ai.AlphaBeta{Time: budget, Seed: seed}, nil
	case "deep":
		return ai.Deep{Shallower: deepCut}, nil
	case "hard-old":
		c = ai.HardOld()
	case "hard":
		c = ai.Hard.Config()
		c.Time, c.Seed = budget, seed
		return ai.NewSearcher(c), nil
	default:
		l, err := ai.ParseLevel(name)
		if err != nil {
			return nil, fmt.Errorf("unknown player %q; the players are %s", name, strings.Join(arenaPlayers, ", "))
		}
		c = l.Config()
	}
	c.Time, c.Seed = budget, seed
	return c, nil
}

// arenaRules returns the rule sets named: one, or all four for "all".
func arenaRules(name string) ([]engine.Rules, error) {
	if strings.EqualFold(name, "all") {
		return []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full}, nil
	}
	r, err := engine.ParseRules(name)
	if err != nil {
		return nil, fmt.Errorf("%w, or all", err)
	}
	return []engine.Rules{r}, nil
}

// arenaLayouts returns the layout of each pair of games for spec: a kind
// (square, random, irregular) or a layout string.
func (e *env) arenaLayouts(spec string, seed uint64) (func(pair int) *engine.Layout, error) {
	switch spec {
	case kindRandom:
		return func(pair int) *engine.Layout { return engine.RandomSquare(seed + uint64(pair)) }, nil
	case kindIrregular:
		return func(pair int) *engine.Layout { return engine.RandomIrregular(seed + uint64(pair)) }, nil
	}
	l, _, err := e.chooseLayout(spec, seedFlag{}, "")
	if err != nil {
		return nil, err
	}
	return func(int) *engine.Layout { return l }, nil
}

// match is the tally of an arena match, and its JSON form.
type match struct {
	A          string  `json:"a"`
	B          string  `json:"b"`
	Games      int     `json:"games"`
	AWins      int     `json:"a_wins"`
	BWins      int     `json:"b_wins"`
	Draws      int     `json:"draws"`
	AShare     float64 `json:"a_share"`
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	Layout     string  `json:"layout"`
	Rules      string  `json:"rules"`
	TimeMS     int64   `json:"time_ms"`
	DeepCut    int     `json:"deep_cut"`
	Seed       uint64  `json:"seed"`
	ASlowestMS int64   `json:"a_slowest_ms"`
	BSlowestMS int64   `json:"b_slowest_ms"`
	AMargin    float64 `json:"a_margin"`
	AMeanMS    int64   `json:"a_mean_ms"`
	BMeanMS    int64   `json:"b_mean_ms"`
	AOverMS    *int64  `json:"a_over_ms,omitempty"`
	BOverMS    *int64  `json:"b_over_ms,omitempty"`

	margin  int              // A's total less B's, summed over the games
	slowest [2]time.Duration // of A and B
	thought [2]time.Duration // of A and B, all moves
	moves   [2]int           // of A and B
}

// add counts game g, in which A played aColor.
func (m *match) add(g *ai.Game, aColor engine.Color) {
	m.Games++
	switch w, ok := g.Score.Winner(); {
	case !ok:
		m.Draws++
	case w == aColor:
		m.AWins++
	default:
		m.BWins++
	}
	m.margin += g.Score[aColor].Total - g.Score[aColor.Other()].Total
	m.slowest[0] = max(m.slowest[0], g.Slowest[aColor])
	m.slowest[1] = max(m.slowest[1], g.Slowest[aColor.Other()])
	for i, c := range [...]engine.Color{aColor, aColor.Other()} {
		m.thought[i] += g.Thought[c]
		m.moves[i] += g.Moves[c]
	}
}

// mean returns the mean time a move of A (i 0) or B (1) took.
func (m *match) mean(i int) time.Duration {
	if m.moves[i] == 0 {
		return 0
	}
	return m.thought[i] / time.Duration(m.moves[i])
}

// cut describes --deep-cut if deep plays and is cut.
func (m *match) cut() string {
	if m.DeepCut == 0 || m.A != "deep" && m.B != "deep" {
		return ""
	}
	return fmt.Sprintf(", deep %d plies shallower", m.DeepCut)
}

// running says how the match stands: the points of each player so far.
func (m *match) running() string {
	half := float64(m.Draws) / 2
	return fmt.Sprintf("%s %g, %s %g", m.A, float64(m.AWins)+half, m.B, float64(m.BWins)+half)
}

// finish computes the share, its interval and the slowest moves.
func (m *match) finish() {
	points := float64(m.AWins) + float64(m.Draws)/2
	if m.Games > 0 {
		m.AShare = points / float64(m.Games)
		m.AMargin = float64(m.margin) / float64(m.Games)
	}
	m.CILow, m.CIHigh = wilson(points, m.Games)
	m.ASlowestMS, m.BSlowestMS = m.slowest[0].Milliseconds(), m.slowest[1].Milliseconds()
	m.AMeanMS, m.BMeanMS = m.mean(0).Milliseconds(), m.mean(1).Milliseconds()
	m.AOverMS, m.BOverMS = m.over(0), m.over(1)
}

// over returns by how much the slowest move of A (i 0) or B (1) went
// over the budget, in milliseconds, or nil for a player without one.
func (m *match) over(i int) *int64 {
	switch [...]string{m.A, m.B}[i] {
	case "random", "greedy", "deep":
		return nil
	}
	ms := max(0, m.slowest[i]-time.Duration(m.TimeMS)*time.Millisecond).Milliseconds()
	return &ms
}

// describe says how game g went, A having played aColor.
func (m *match) describe(g *ai.Game, aColor, first engine.Color, r engine.Rules) string {
	name := func(c engine.Color) string {
		n := m.A
		if c != aColor {
			n = m.B
		}
		if c == first {
			return fmt.Sprintf("%s (%s, first)", n, c)
		}
		return fmt.Sprintf("%s (%s)", n, c)
	}
	s := g.Score
	w, ok := s.Winner()
	if !ok {
		return fmt.Sprintf("%s drew with %s %d-%d, %s, %s", name(engine.Red), name(engine.Black), s[engine.Red].Total, s[engine.Black].Total, r, g.Record.Layout)
	}
	return fmt.Sprintf("%s beat %s %d-%d, %s, %s", name(w), name(w.Other()), s[w].Total, s[w.Other()].Total, r, g.Record.Layout)
}

// summary writes the result of the match.
func (m *match) summary(p *printer) {
	p.printf("\n%s wins %d, %s wins %d, draws %d\n", m.A, m.AWins, m.B, m.BWins, m.Draws)
	p.printf("%s scored %.1f%% of the points (95%% confidence interval %.1f%%–%.1f%%, Wilson score, a draw counting half)\n",
		m.A, 100*m.AShare, 100*m.CILow, 100*m.CIHigh)
	p.printf("%s's mean margin: %+.1f points a game\n", m.A, m.AMargin)
	p.printf("slowest move: %s %s, %s %s\n", m.A, m.slowest[0].Round(time.Millisecond), m.B, m.slowest[1].Round(time.Millisecond))
	p.printf("mean move: %s %s, %s %s\n", m.A, m.mean(0).Round(time.Millisecond), m.B, m.mean(1).Round(time.Millisecond))
	var over []string
	for i, o := range [...]*int64{m.AOverMS, m.BOverMS} {
		if o != nil {
			over = append(over, fmt.Sprintf("%s %dms", [...]string{m.A, m.B}[i], *o))
		}
	}
	if len(over) > 0 {
		p.printf("most over the budget of %dms: %s\n", m.TimeMS, strings.Join(over, ", "))
	}
}

// wilson returns the Wilson score interval at 95% confidence for a share
// of points out of n games: the interval of true shares that a test at the
// 5% level would not reject, which unlike the normal approximation stays
// within [0, 1] and is sound for shares near 0 or 1 and for few games.
func wilson(points float64, n int) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054 // the 97.5% quantile of the normal distribution
	nf := float64(n)
	p := points / nf
	d := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / d
	half := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}
