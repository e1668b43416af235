package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// arenaPlayers are the names arena accepts for --a and --b.
var arenaPlayers = []string{"easy", "medium", "hard", "hard-old", "random", "greedy", "alphabeta", "deep"}

func runArena(ctx context.Context, e *env, args []string) error {
	fs := newFlags("arena")
	u := func(name string) string { return e.flagUsage("arena", name) }
	nameA := fs.String("a", "", u("a"))
	nameB := fs.String("b", "", u("b"))
	games := fs.Int("games", 20, u("games"))
	budget := fs.Duration("time", ai.DefaultTime, u("time"))
	playouts := fs.Int("playouts", 0, u("playouts"))
	deepCut := fs.Int("deep-cut", 0, u("deep-cut"))
	layoutSpec := fs.String("layout", kindRandom, u("layout"))
	rulesName := fs.String("rules", "all", u("rules"))
	var seed seedFlag
	fs.Var(&seed, "seed", u("seed"))
	asJSON := fs.Bool("json", false, u("json"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &usageError{e.lang.T("cli.only_flags", "Command", "arena", "Arg", fmt.Sprintf("%q", rest[0]))}
	}
	if *games < 1 {
		return &usageError{e.lang.T("cli.positive", "Flag", "--games", "Value", strconv.Itoa(*games))}
	}
	if *budget <= 0 {
		return &usageError{e.lang.T("cli.time_positive", "Time", budget.String())}
	}
	if *playouts < 0 {
		return &usageError{e.lang.T("cli.arena.playouts_negative", "Value", strconv.Itoa(*playouts))}
	}
	if *deepCut < 0 {
		return &usageError{e.lang.T("cli.arena.deep_cut_negative", "Value", strconv.Itoa(*deepCut))}
	}
	if !seed.set {
		seed.value = uint64(e.now().UnixNano()) % 1_000_000_000
	}
	var players [2]ai.Player
	for i, name := range []string{*nameA, *nameB} {
		flag := [...]string{"--a", "--b"}[i]
		if name == "" {
			return &usageError{e.lang.T("cli.arena.player_missing", "Flag", flag, "Players", strings.Join(arenaPlayers, ", "))}
		}
		if players[i], err = arenaPlayer(name, moveBudget{*budget, *playouts}, *deepCut, seed.value*2+uint64(i)); err != nil {
			return &usageError{e.lang.T("cli.arena.player_unknown", "Flag", flag, "Value", fmt.Sprintf("%q", name), "Players", strings.Join(arenaPlayers, ", "))}
		}
	}
	rules, err := e.arenaRules(*rulesName)
	if err != nil {
		return err
	}
	layout, err := e.arenaLayouts(*layoutSpec, seed.value)
	if err != nil {
		return err
	}

	m := match{A: *nameA, B: *nameB, Layout: *layoutSpec, Rules: *rulesName,
		TimeMS: budget.Milliseconds(), Playouts: *playouts, DeepCut: *deepCut, Seed: seed.value}
	if *layoutSpec != kindSquare && *layoutSpec != kindRandom && *layoutSpec != kindIrregular {
		m.Layout = "string"
	}
	p := e.newPrinter()
	if !*asJSON {
		p.line(p.lang.T("cli.arena.header", "A", m.A, "B", m.B, "Games", p.lang.N("cli.arena.games", *games), "Layout", m.Layout,
			"Rules", m.Rules, "Time", m.time(p, *budget), "Playouts", m.playouts(p), "Cut", m.cut(p), "Seed", strconv.FormatUint(m.Seed, 10)))
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
			return fmt.Errorf("%s: %w", e.lang.T("cli.arena.game", "Game", i+1), err)
		}
		m.add(g, aColor)
		progress("%s\n", e.lang.T("cli.arena.progress", "Game", i+1, "Games", *games, "How", m.describe(p, g, aColor, first, r), "Points", m.running()))
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

// moveBudget is what a player of the arena may spend on a move: time, or for
// hard and hard-old a number of playouts if that is not 0.
type moveBudget struct {
	time     time.Duration
	playouts int
}

// config sets the budget of c, one of hard's or hard-old's settings: by
// playouts on one core, so that the match is the same on any machine.
func (b moveBudget) config(c *ai.Config) {
	c.Time = b.time
	if b.playouts > 0 {
		c.Time, c.Playouts, c.Workers = 0, b.playouts, 1
	}
}

// arenaPlayer returns the player called name, thinking within b a move,
// or for deep to its schedule less deepCut plies.
func arenaPlayer(name string, b moveBudget, deepCut int, seed uint64) (ai.Player, error) {
	if !searchesByPlayouts(name) {
		b.playouts = 0
	}
	var c ai.Config
	switch name {
	case "random":
		return ai.Random{Seed: seed}, nil
	case "greedy":
		return ai.Greedy{Seed: seed}, nil
	case "alphabeta":
		return ai.AlphaBeta{Time: b.time, Seed: seed}, nil
	case "deep":
		return ai.Deep{Shallower: deepCut}, nil
	case "hard-old":
		c = ai.HardOld()
		b.config(&c)
	case "hard":
		c = ai.Hard.Config()
		b.config(&c)
		c.Seed = seed
		return ai.NewSearcher(c), nil
	default:
		l, err := ai.ParseLevel(name)
		if err != nil {
			return nil, err
		}
		c = l.Config()
		b.config(&c)
	}
	c.Seed = seed
	return c, nil
}

// arenaRules returns the rule sets named: one, or all four for "all".
func (e *env) arenaRules(name string) ([]engine.Rules, error) {
	if strings.EqualFold(name, "all") {
		return []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full}, nil
	}
	r, err := engine.ParseRules(name)
	if err != nil {
		return nil, &usageError{e.lang.T("cli.arena.bad_rules", "Value", fmt.Sprintf("%q", name))}
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
	Playouts   int     `json:"playouts"`
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
func (m *match) cut(p *printer) string {
	if m.DeepCut == 0 || m.A != "deep" && m.B != "deep" {
		return ""
	}
	return p.lang.N("cli.arena.cut", m.DeepCut)
}

// time describes --time if a player thinks by it.
func (m *match) time(p *printer, budget time.Duration) string {
	if !m.timed(m.A) && !m.timed(m.B) {
		return ""
	}
	return p.lang.T("cli.arena.time", "Time", budget.String())
}

// playouts describes --playouts if hard or hard-old plays by it.
func (m *match) playouts(p *printer) string {
	var names []string
	for _, n := range [...]string{m.A, m.B} {
		if m.byPlayouts(n) && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return p.lang.N("cli.arena.playouts", m.Playouts, "Players", strings.Join(names, ", "))
}

// timed reports whether the player called name has --time a move.
func (m *match) timed(name string) bool {
	switch name {
	case "random", "greedy", "deep":
		return false
	}
	return !m.byPlayouts(name)
}

// byPlayouts reports whether the player called name has --playouts a
// move rather than --time.
func (m *match) byPlayouts(name string) bool {
	return m.Playouts > 0 && searchesByPlayouts(name)
}

// searchesByPlayouts reports whether the player called name searches
// --playouts random games a move when that is set: hard and hard-old, whose
// matches must replay the same on any machine.
func searchesByPlayouts(name string) bool { return name == "hard" || name == "hard-old" }

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
// over the budget, in milliseconds, or nil for a player without one of
// time.
func (m *match) over(i int) *int64 {
	if !m.timed([...]string{m.A, m.B}[i]) {
		return nil
	}
	ms := max(0, m.slowest[i]-time.Duration(m.TimeMS)*time.Millisecond).Milliseconds()
	return &ms
}

// describe says how game g went, A having played aColor.
func (m *match) describe(p *printer, g *ai.Game, aColor, first engine.Color, r engine.Rules) string {
	name := func(c engine.Color) string {
		n := m.A
		if c != aColor {
			n = m.B
		}
		color := strings.ToLower(p.colorName(c))
		if c == first {
			return p.lang.T("cli.arena.player_first", "Player", n, "Color", color)
		}
		return p.lang.T("cli.arena.player", "Player", n, "Color", color)
	}
	s := g.Score
	w, ok := s.Winner()
	if !ok {
		return p.lang.T("cli.arena.drew", "Red", name(engine.Red), "Black", name(engine.Black), "RedPoints", s[engine.Red].Total,
			"BlackPoints", s[engine.Black].Total, "Rules", p.rulesName(r), "Layout", g.Record.Layout)
	}
	return p.lang.T("cli.arena.beat", "Winner", name(w), "Loser", name(w.Other()), "Points", s[w].Total,
		"Against", s[w.Other()].Total, "Rules", p.rulesName(r), "Layout", g.Record.Layout)
}

// summary writes the result of the match.
func (m *match) summary(p *printer) {
	l := p.lang
	p.printf("\n")
	p.line(p.lang.T("cli.arena.wins", "A", m.A, "AWins", m.AWins, "B", m.B, "BWins", m.BWins, "Draws", m.Draws))
	p.line(p.lang.T("cli.arena.share", "A", m.A, "Share", l.Decimal(100*m.AShare, 1), "Low", l.Decimal(100*m.CILow, 1), "High", l.Decimal(100*m.CIHigh, 1)))
	margin := l.Decimal(m.AMargin, 1)
	if m.AMargin >= 0 {
		margin = "+" + margin
	}
	p.line(p.lang.T("cli.arena.margin", "A", m.A, "Margin", margin))
	p.line(p.lang.T("cli.arena.slowest", "A", m.A, "ATime", m.slowest[0].Round(time.Millisecond).String(), "B", m.B, "BTime", m.slowest[1].Round(time.Millisecond).String()))
	p.line(p.lang.T("cli.arena.mean", "A", m.A, "ATime", m.mean(0).Round(time.Millisecond).String(), "B", m.B, "BTime", m.mean(1).Round(time.Millisecond).String()))
	var over []string
	for i, o := range [...]*int64{m.AOverMS, m.BOverMS} {
		if o != nil {
			over = append(over, fmt.Sprintf("%s %dms", [...]string{m.A, m.B}[i], *o))
		}
	}
	if len(over) > 0 {
		p.line(p.lang.T("cli.arena.over", "Budget", fmt.Sprintf("%dms", m.TimeMS), "Over", strings.Join(over, ", ")))
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
