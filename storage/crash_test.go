package storage

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// The crash test runs the test binary again as a child that writes moves
// (TestCrashChild) and kills it with SIGKILL at random moments.
const (
	// crashChildEnv gives the child the path of the database.
	crashChildEnv = "KULAMI_STORAGE_CRASH_CHILD"
	// crashRunsEnv sets the number of kills (default crashRuns).
	crashRunsEnv = "KULAMI_STORAGE_CRASH_RUNS"
	crashRuns    = 5
)

// TestCrashChild is the child of TestCrashSafety: three goroutines play
// random games in three channels, sometimes ending one by resignation,
// and print every commit after it returns:
//
//	game <id> <channel>   a game was created
//	move <id> <ply> <cell> a move was stored
//	end <id> <ply>        a game ended after ply moves
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("the child of TestCrashSafety")
	}
	var mu sync.Mutex
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf(format+"\n", args...)
	}
	s, err := Open(path, Options{Timeout: 5 * time.Second})
	if err != nil {
		report("error %v", err)
		return
	}
	players := []game.Player{alice, bob, carol}
	stop := time.Now().Add(2 * hungChild) // in case nobody kills the child
	var wg sync.WaitGroup
	for w := range 3 {
		channel := fmt.Sprintf("crash-%d", w)
		wg.Go(func() {
			r := engine.NewRand(uint64(time.Now().UnixNano()) + uint64(w))
			for time.Now().Before(stop) {
				if err := crashStep(t.Context(), s, channel, players[w], players[(w+1)%3], &r, report); err != nil {
					report("error %s: %v", channel, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// crashStep makes one commit in channel: it creates a game, plays a move
// or resigns.
func crashStep(ctx context.Context, s *Store, channel string, red, black game.Player, r *engine.Rand, report func(string, ...any)) error {
	g, err := s.Game(ctx, channel)
	if errors.Is(err, ErrNotFound) {
		gg, err := game.New(squareConfig(red, black), time.Now())
		if err != nil {
			return err
		}
		g = &Game{GuildID: guild, ChannelID: channel, Game: gg}
		if err := s.CreateGame(ctx, g); err != nil {
			return err
		}
		report("game %d %s", g.ID, channel)
		return nil
	}
	if err != nil {
		return err
	}
	p := g.Position()
	cell, seen := p.Layout().Cell(r.Pick(p.Legal())), g.Ply()
	resign := r.Uint64()%40 == 0
	g, err = s.UpdateGame(ctx, channel, func(g *Game) error {
		if resign {
			return g.Resign(g.ToMove(), time.Now())
		}
		return g.Play(g.ToMove(), seen, cell, time.Now())
	})
	if err != nil {
		return err
	}
	if !resign {
		report("move %d %d %s", g.ID, g.Ply(), cell)
	}
	if g.Over() {
		report("end %d %d", g.ID, g.Ply())
	}
	return nil
}

// crashReports is what the children reported as committed.
type crashReports struct {
	channel map[uint64]string              // game → channel
	moves   map[uint64]map[int]engine.Cell // game → ply → cell
	ended   map[uint64]int                 // game → plies at the end
	n       int                            // moves reported
}

// add reads one line of a child's report.
func (c *crashReports) add(tb testing.TB, line string) {
	tb.Helper()
	f := strings.Fields(line)
	if len(f) == 0 {
		return
	}
	num := func(i int) int {
		n, err := strconv.Atoi(f[i])
		require.NoError(tb, err, "line %q", line)
		return n
	}
	switch f[0] {
	case "game":
		c.channel[uint64(num(1))] = f[2]
	case "move":
		id := uint64(num(1))
		if c.moves[id] == nil {
			c.moves[id] = map[int]engine.Cell{}
		}
		c.moves[id][num(2)] = mustCell(tb, f[3])
		c.n++
	case "end":
		c.ended[uint64(num(1))] = num(2)
	case "error":
		tb.Fatalf("the child failed: %s", line)
	}
}

func TestCrashSafety(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		t.Skip("the child runs TestCrashChild only")
	}
	runs := crashRuns
	if v := os.Getenv(crashRunsEnv); v != "" {
		var err error
		runs, err = strconv.Atoi(v)
		require.NoError(t, err, "%s must be a number", crashRunsEnv)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	path := filepath.Join(t.TempDir(), "crash.db")
	reports := &crashReports{channel: map[uint64]string{}, moves: map[uint64]map[int]engine.Cell{}, ended: map[uint64]int{}}
	for run := range runs {
		// Mostly kill while moves are committed, sometimes at start-up.
		var wait time.Duration
		early := r.IntN(4) == 0
		if early {
			wait = time.Duration(r.IntN(20)) * time.Millisecond
		} else {
			wait = time.Duration(r.IntN(150)) * time.Millisecond
		}
		for _, line := range runCrashChild(t, path, early, wait) {
			reports.add(t, line)
		}
		verifyCrash(t, path, reports, run)
	}
	t.Logf("%d runs, %d moves of %d games reported", runs, reports.n, len(reports.channel))
}

// hungChild bounds the wait for the child's first commit: long enough for
// any machine, however loaded, it only stops a test whose child hangs.
const hungChild = time.Minute

// runCrashChild starts the child on path, kills it with SIGKILL after
// wait (from the start if early, else from its first commit) and returns
// the lines it printed.
func runCrashChild(tb testing.TB, path string, early bool, wait time.Duration) []string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(tb, err)
	require.NoError(tb, cmd.Start())

	var lines []string
	first, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if len(lines) == 0 {
				close(first)
			}
			lines = append(lines, sc.Text())
		}
	}()
	if !early {
		select {
		case <-first:
		case <-done:
		case <-time.After(hungChild):
			tb.Errorf("the child committed nothing in %v", hungChild)
		}
	}
	time.Sleep(wait)
	require.NoError(tb, cmd.Process.Signal(syscall.SIGKILL))
	<-done
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		tb.Fatalf("the child ended before it was killed (%v): %s%s", err, strings.Join(lines, "\n"), stderr.String())
	}
	return lines
}

// verifyCrash opens the database after a kill, checks the file and finds
// every commit reported so far.
func verifyCrash(tb testing.TB, path string, reports *crashReports, run int) {
	tb.Helper()
	s, err := Open(path, Options{})
	require.NoError(tb, err, "run %d: reopen", run)
	defer s.Close()
	require.NoError(tb, checkFile(s), "run %d: bbolt's consistency check", run)

	for id, channel := range reports.channel {
		var moves []game.Move
		g, err := s.Game(tb.Context(), channel)
		if err == nil && g.ID == id {
			moves = g.Moves()
			assert.NotContains(tb, reports.ended, id, "run %d: game %d ended but is active", run, id)
		} else {
			f, err := s.FinishedGame(tb.Context(), guild, id)
			require.NoError(tb, err, "run %d: game %d is lost", run, id)
			moves = f.Moves()
			if plies, ok := reports.ended[id]; ok {
				assert.Len(tb, moves, plies, "run %d: game %d", run, id)
			}
		}
		for ply, cell := range reports.moves[id] {
			if assert.GreaterOrEqual(tb, len(moves), ply, "run %d: game %d lost ply %d", run, id, ply) {
				assert.Equal(tb, cell, moves[ply-1].Cell, "run %d: game %d, ply %d", run, id, ply)
			}
		}
	}

	// Every stored value is readable and valid, and a finished game is
	// never without its history and its profiles' counts.
	var finished, rated, history, counted int
	require.NoError(tb, s.db.View(func(tx *bolt.Tx) error {
		err := tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			var r gameRecord
			if err := decode(v, &r); err != nil {
				return err
			}
			g, err := r.game()
			if err != nil {
				return err
			}
			return g.check()
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bucketFinished).ForEach(func(_, v []byte) error {
			var f finishedRecord
			if err := decode(v, &f); err != nil {
				return err
			}
			g, err := f.game()
			if err != nil {
				return err
			}
			finished++
			if g.Result().Rated() {
				rated++
			}
			return g.check()
		})
		if err != nil {
			return err
		}
		history = tx.Bucket(bucketHistory).Stats().KeyN
		return tx.Bucket(bucketProfiles).ForEach(func(_, v []byte) error {
			var p Profile
			err := decode(v, &p)
			counted += p.Games()
			return err
		})
	}), "run %d", run)
	assert.Equal(tb, 2*finished, history, "run %d: history entries of %d finished games", run, finished)
	assert.Equal(tb, 2*rated, counted, "run %d: profile counts of %d rated games", run, rated)
}
