package bot_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// BenchmarkMove measures the handling of one move (issue 5): from sending
// the pick of a hole from a board's menu to the fake holding the bot's
// answer, the old board updated without its menus (the response) and the
// new board posted (a message of the bot) — the board image drawn and the database
// synced on the way. Games between alice and bob are played with seeded
// random moves, a new one started (untimed) whenever one ends, and each
// move starts with the bot at rest. It reports the median and the 99th
// percentile in milliseconds; issue 5 aims at p50 ≤ 15 ms, p99 ≤ 40 ms.
// The runs named …-metrics count everything as kulamibot does for
// Prometheus (package bot/metrics), to measure what that costs.
func BenchmarkMove(b *testing.B) {
	for _, mode := range modes {
		for _, counted := range []bool{false, true} {
			name := mode
			if counted {
				name += "-metrics"
			}
			b.Run(name, func(b *testing.B) { benchmarkMove(b, mode, counted, noPlan) })
		}
		// A move that sets off a plan of game.MaxPlanLines lines: the
		// planned reply is played in the same commit, one board follows.
		// Its base is a plain move in the positions where such a plan can
		// be set (the early and middle game: a game goes on to the end in
		// the plain runs, whose boards hold more marbles to draw).
		b.Run(mode+"-plan20", func(b *testing.B) { benchmarkMove(b, mode, false, plan20) })
		b.Run(mode+"-plan20-base", func(b *testing.B) { benchmarkMove(b, mode, false, plan20Base) })
	}
}

// fullPlan returns a plan of game.MaxPlanLines lines for the player not
// to move in p, each of two replies where the position allows, or nil if
// p does not leave that many.
func fullPlan(p engine.Position) []game.Line {
	var lines []game.Line
	for _, x := range legal(p) {
		q := p
		if q.Play(x) != nil || q.IsOver() {
			continue
		}
		y := legal(q)[0]
		if q.Play(y) != nil || q.IsOver() {
			continue
		}
		for _, x2 := range legal(q) {
			r := q
			if r.Play(x2) != nil || r.IsOver() {
				continue
			}
			lines = append(lines, game.Line{x, y, x2, legal(r)[0]})
			if len(lines) == game.MaxPlanLines {
				return lines
			}
		}
	}
	return nil
}

// The plans of BenchmarkMove's runs.
type benchPlan int

const (
	noPlan     benchPlan = iota // plain moves, games played to the end
	plan20                      // each move sets off a plan of game.MaxPlanLines lines
	plan20Base                  // plain moves, in the positions where plan20 sets one
)

// benchmarkMove is BenchmarkMove in mode, with the metrics if counted;
// with plan20, each move sets off a plan of game.MaxPlanLines lines of the
// opponent (set before the move, untimed).
func benchmarkMove(b *testing.B, mode string, counted bool, plan benchPlan) {
	c := newClubWith(b, mode, func(h *harness) { h.prometheus = counted })
	rng := engine.NewRand(1)
	var (
		g     *storage.Game
		board *discordtest.Message
		took  = make([]time.Duration, 0, b.N)
	)
	b.ResetTimer()
	for range b.N {
		if g == nil {
			b.StopTimer()
			g = c.newGame(c.alice, c.bob)
			board = c.settle(g.ChannelID, "")
			b.StartTimer()
		}
		p := g.Position()
		cell := p.Layout().Cell(rng.Pick(p.Legal())).String()
		if plan != noPlan {
			b.StopTimer()
			lines := fullPlan(p)
			if lines == nil {
				g = nil // too near the end for a full plan: a new game
				b.StartTimer()
				continue
			}
			if plan == plan20Base {
				lines = nil // a plan clears: the move sets off nothing
			}
			_, err := c.store.UpdateGame(b.Context(), g.ChannelID, func(g *storage.Game) error {
				return g.SetPlan(g.ToMove().Other(), lines, c.clock.Now())
			})
			require.NoError(b, err)
			if lines != nil {
				cell = lines[0][0].String()
			}
			b.StartTimer()
		}
		menu := menuWith(board, cell)
		require.NotEmpty(b, menu, "%s is in a menu of the board", cell)
		i := c.dc.Select(board.ID, c.users[g.Player(g.ToMove()).UserID], menu, cell)

		start := time.Now()
		c.send(i)
		var next *discordtest.Message
		after, _ := strconv.ParseUint(i.ID, 10, 64)
		c.dc.WaitUntil(b, "the answer to the move and the new board", func() bool {
			if _, ok := c.dc.Response(i.ID); !ok {
				return false
			}
			for _, m := range c.dc.Messages(g.ChannelID) {
				if id, _ := strconv.ParseUint(m.ID, 10, 64); id > after && hasBoard(m) {
					next = m
					return true
				}
			}
			return false
		})
		took = append(took, time.Since(start))

		b.StopTimer()
		ply := g.Ply()
		board = c.settle(g.ChannelID, next.ID)
		if board == nil {
			g = nil // the game is over
		} else {
			g = c.game(g.ChannelID)
			if plan == plan20 {
				require.Equal(b, ply+2, g.Ply(), "the planned reply was played with the move")
			}
		}
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(percentile(took, 50), "p50-ms")
	b.ReportMetric(percentile(took, 99), "p99-ms")
}

// settle waits until the bot has finished with the game of channel: it
// has remembered the board message boardID ("": whichever it posted) and
// the game is at rest. It returns that board, or nil once the game is over.
func (c *club) settle(channel, boardID string) *discordtest.Message {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		g, err := c.store.Game(c.t.Context(), channel)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		require.NoError(c.t, err)
		if g.BoardMessageID != "" && (boardID == "" || g.BoardMessageID == boardID) {
			m, ok := c.dc.Message(g.BoardMessageID)
			require.True(c.t, ok, "the board message exists")
			return m
		}
		require.True(c.t, time.Now().Before(deadline), "the bot remembers its board")
		time.Sleep(50 * time.Microsecond)
	}
}

// menuWith returns the custom ID of the menu of board that offers cell.
func menuWith(board *discordtest.Message, cell string) string {
	for id, values := range menus(board) {
		if slices.Contains(values, cell) {
			return id
		}
	}
	return ""
}

// percentile returns the p-th percentile (nearest rank) of sorted
// durations, in milliseconds.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return float64(sorted[max(k, 0)]) / float64(time.Millisecond)
}

// BenchmarkPuzzleClick measures the answer to a hole picked in a puzzle
// (issue 29): from sending the pick to the fake holding the puzzle
// message edited with its new board image — the attempt read and
// replayed, the move checked, the defence played and stored, or the
// attempt finished with both ratings updated, and the board drawn. Each
// click is the right move of the solver's puzzle under way (so one-move
// puzzles end, longer ones go on), on the shipped set; /puzzle next
// before each click, untimed, shows the puzzle to click on. It reports
// the median and the 99th percentile in milliseconds; the issue aims at
// p99 ≤ 50 ms.
func BenchmarkPuzzleClick(b *testing.B) {
	for _, mode := range modes {
		b.Run(mode, func(b *testing.B) {
			h := newPuzzleHarness(b, mode, shippedPuzzles(b))
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				m := h.puzzleMessage(h.puzzleCommand(h.alice, "next"))
				try, err := h.store.PuzzleTry(b.Context(), h.alice.ID)
				require.NoError(b, err)
				p := h.currentPuzzle(h.alice)
				menu, _ := puzzleMenu(b, m)
				hole := p.Solution[try.Step()].String()
				i := h.dc.Select(m.ID, h.alice, menu, hole)
				edits := m.Edits
				b.StartTimer()

				start := time.Now()
				h.send(i)
				h.dc.WaitUntil(b, "the puzzle message edited", func() bool {
					now, _ := h.dc.Message(m.ID)
					return now.Edits > edits
				})
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(percentile(took, 50), "p50-ms")
			b.ReportMetric(percentile(took, 99), "p99-ms")
		})
	}
}
