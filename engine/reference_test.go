package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// refGame is a deliberately plain second implementation of RULES.md, to
// test the bitboard engine against: a 10×10 grid of panel letters, loops
// over cells, nothing taken from the engine but the layout string.
type refGame struct {
	panel      [10][10]byte // the panel letter of each cell, 0 for a gap
	marble     [10][10]int  // refEmpty, refRed or refBlack
	toMove     int          // refRed or refBlack
	placed     int
	last, prev [2]int // column and row of the last two marbles; -1 for none
}

const (
	refEmpty = iota
	refRed
	refBlack
)

// refDirections are the steps along a row, a column and the two diagonals.
var refDirections = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}

func newRefGame(layout string, redFirst bool) *refGame {
	g := &refGame{toMove: refBlack, last: [2]int{-1, -1}, prev: [2]int{-1, -1}}
	if redFirst {
		g.toMove = refRed
	}
	for row, line := range strings.Split(layout, "/") {
		for col := 0; col < len(line); col++ {
			if line[col] != '.' {
				g.panel[col][row] = line[col]
			}
		}
	}
	return g
}

// isHole reports whether column col, row row holds a hole; both may lie
// off the grid.
func (g *refGame) isHole(col, row int) bool {
	return col >= 0 && col < 10 && row >= 0 && row < 10 && g.panel[col][row] != 0
}

// colour returns the marble at col, row, refEmpty for an empty hole, a gap
// or a cell off the grid.
func (g *refGame) colour(col, row int) int {
	if !g.isHole(col, row) {
		return refEmpty
	}
	return g.marble[col][row]
}

// reason returns the reason code for a move at col, row, or "" if it is
// legal, checking in the order of RULES.md; over says whether the game
// has ended.
func (g *refGame) reason(col, row int, over bool) string {
	switch {
	case over:
		return "game-over"
	case !g.isHole(col, row):
		return "off-board"
	case g.marble[col][row] != refEmpty:
		return "occupied"
	case g.last[0] < 0:
		return ""
	case col != g.last[0] && row != g.last[1]:
		return "not-in-line"
	case g.panel[col][row] == g.panel[g.last[0]][g.last[1]]:
		return "same-panel"
	case g.prev[0] >= 0 && g.panel[col][row] == g.panel[g.prev[0]][g.prev[1]]:
		return "previous-panel"
	}
	return ""
}

// refMove is a coordinate: column and row from zero.
type refMove [2]int

func (m refMove) String() string { return string(rune('A'+m[0])) + strconv.Itoa(m[1]+1) }

// legal appends the legal moves to buf[:0], row by row.
func (g *refGame) legal(buf []refMove) []refMove {
	out := buf[:0]
	if g.placed == 56 {
		return out
	}
	for row := 0; row < 10; row++ {
		for col := 0; col < 10; col++ {
			if g.reason(col, row, false) == "" {
				out = append(out, refMove{col, row})
			}
		}
	}
	return out
}

func (g *refGame) play(m refMove) {
	col, row := m[0], m[1]
	g.marble[col][row] = g.toMove
	g.toMove = refRed + refBlack - g.toMove
	g.prev, g.last = g.last, [2]int{col, row}
	g.placed++
}

// score returns both colours' points under the rules given.
func (g *refGame) score(area, lines bool) Score {
	var s Score
	// Panels: strictly more marbles takes the panel's holes.
	var holes [256]int
	var count [256][3]int // marbles of each colour per panel letter
	for col := 0; col < 10; col++ {
		for row := 0; row < 10; row++ {
			if p := g.panel[col][row]; p != 0 {
				holes[p]++
				count[p][g.marble[col][row]]++
			}
		}
	}
	for p, n := range holes {
		switch c := count[p]; {
		case c[refRed] > c[refBlack]:
			s[Red].Panels += n
		case c[refBlack] > c[refRed]:
			s[Black].Panels += n
		}
	}
	if area {
		s[Red].Area, s[Black].Area = refBonus(g.largestGroup(refRed), g.largestGroup(refBlack))
	}
	if lines {
		s[Red].Lines, s[Black].Lines = refBonus(g.lineSum(refRed), g.lineSum(refBlack))
	}
	for c := range s {
		s[c].Total = s[c].Panels + s[c].Area + s[c].Lines
	}
	return s
}

// refBonus gives the larger of red and black the difference.
func refBonus(red, black int) (int, int) {
	if red > black {
		return red - black, 0
	}
	return 0, black - red
}

// largestGroup floods each group of colour's marbles.
func (g *refGame) largestGroup(colour int) int {
	var seen [10][10]bool
	best := 0
	for col := 0; col < 10; col++ {
		for row := 0; row < 10; row++ {
			if seen[col][row] || g.colour(col, row) != colour {
				continue
			}
			size := 0
			queue := [][2]int{{col, row}}
			seen[col][row] = true
			for len(queue) > 0 {
				c := queue[0]
				queue = queue[1:]
				size++
				for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					x, y := c[0]+d[0], c[1]+d[1]
					if g.colour(x, y) == colour && !seen[x][y] {
						seen[x][y] = true
						queue = append(queue, [2]int{x, y})
					}
				}
			}
			best = max(best, size)
		}
	}
	return best
}

// lineSum adds up the lengths of colour's maximal runs of 5 or more.
func (g *refGame) lineSum(colour int) int {
	sum := 0
	for col := 0; col < 10; col++ {
		for row := 0; row < 10; row++ {
			if g.colour(col, row) != colour {
				continue
			}
			for _, d := range refDirections {
				if g.colour(col-d[0], row-d[1]) == colour {
					continue // not the start of the run
				}
				n := 0
				for g.colour(col+n*d[0], row+n*d[1]) == colour {
					n++
				}
				if n >= 5 {
					sum += n
				}
			}
		}
	}
	return sum
}

// TestDifferential plays random games on random layouts with both the
// engine and refGame and compares, at every ply, the legal moves and the
// end of the game, and the scores under the four rule sets at the end and
// at one position along the way. In the first games of each layout it
// compares the reason code for every cell of the grid at every ply.
func TestDifferential(t *testing.T) {
	layouts := []*Layout{Square(), mustLayout(t, irregularExample)}
	for seed := uint64(0); seed < 20; seed++ {
		layouts = append(layouts, RandomSquare(seed), RandomIrregular(seed))
	}
	const gamesPerLayout = 250 // 42 layouts: 10,500 games
	const reasonGames = 10     // games per layout checking every cell
	rules := []Rules{Basic, Area, Lines, Full}
	rng := rand.New(rand.NewPCG(1, 2))
	games, plies, early := 0, 0, 0
	var legal, got []refMove
	for _, l := range layouts {
		s := l.String()
		for game := 0; game < gamesPerLayout; game++ {
			first := Color(game & 1)
			p := NewPosition(l, first)
			ref := newRefGame(s, first == Red)
			var moves []refMove
			sample := rng.IntN(57) // a ply at which to compare the scores
			for {
				legal = ref.legal(legal)
				got = got[:0]
				for _, c := range p.Legal().Cells(l) {
					got = append(got, refMove{c.Col(), c.Row()})
				}
				// require.Equal is slow, so compare first and call it only to report.
				if !slices.Equal(legal, got) {
					require.Equal(t, fmt.Sprint(legal), fmt.Sprint(got), "%s: legal moves after %v", s, moves)
				}
				over := len(legal) == 0
				if over != p.IsOver() {
					require.Equal(t, over, p.IsOver(), "%s: is the game over after %v", s, moves)
				}
				if game < reasonGames {
					for c := Cell(0); c < NumCells; c++ {
						if want, got := ref.reason(c.Col(), c.Row(), over), reasonCode(t, p.Check(c)); want != got {
							require.Equal(t, want, got, "%s: %s after %v", s, c, moves)
						}
					}
				}
				if len(moves) == sample || over {
					for _, r := range rules {
						if want, got := ref.score(r.CountsArea(), r.CountsLines()), p.Score(r); want != got {
							require.Equal(t, want, got, "%s: %s score after %v", s, r, moves)
						}
					}
				}
				if over {
					break
				}
				m := legal[rng.IntN(len(legal))]
				if err := p.Play(CellAt(m[0], m[1])); err != nil {
					require.NoError(t, err, "%s: %s after %v", s, m, moves)
				}
				ref.play(m)
				moves = append(moves, m)
			}
			games++
			plies += len(moves)
			if len(moves) < MaxPly {
				early++
			}
		}
	}
	require.GreaterOrEqual(t, games, 10000)
	t.Logf("%d games, %d moves, %d ended early", games, plies, early)
}
