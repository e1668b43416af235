package loadtest

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Report is what a run measured.
type Report struct {
	Config                Config
	Elapsed               time.Duration // from the first interaction until the last player stopped
	LoadBefore, LoadAfter string        // the machine's 1-minute load average
	Interactions          int           // interactions answered
	InTime                int           // ...of which before the end of Config.Duration
	Late                  int           // answers after Discord's 3 seconds
	Answers               []Summary     // time from sending an interaction to the bot's HTTP answer, by kind
	Boards                []Summary     // time from sending an interaction to its new board reaching Discord, by kind
	SlowDeferrals         int           // interactions the bot deferred because its handler was slow
	PeakRSS               int64         // the bot's peak resident memory (VmHWM; of all its processes together), in bytes
	Games, Finished       int           // games started (accepted) and played to the end
	Moves                 int           // moves whose new boards came back
	// Grace is how long the run waited, after the players stopped, for
	// the boards of moves they did not see (at most Config.Wait).
	Grace time.Duration
	// FaultsServed is how many times the fault struck: REST calls failed
	// or held, connections ended, locks held, storm requests sent.
	FaultsServed int
	// Failures are the interactions answered as failures or refused (under
	// a fault they are counted, not problems), with a few examples.
	Failures        int
	FailureExamples []string
	// StoredAnsweredFailed counts the moves stored whose player was told
	// the move failed (aim 0): by a refusal or an error, or by an answer
	// after Discord's 3 seconds (StoredAnsweredLate of them), which
	// Discord shows as failed.
	StoredAnsweredFailed, StoredAnsweredLate int
	StoredFailedExamples                     []string
	// NeverShown counts the moves stored that no board posted shows by
	// the end of the grace period (aim 0).
	NeverShown int
	// LateBoards counts the new boards that came later than 3 seconds
	// after their interaction for games the fault did not hold then (aim
	// 0); LateBoardsUnderFault those for games it held.
	LateBoards, LateBoardsUnderFault int
	// BusyUnlocked counts the interactions answered "busy" (the database
	// could not serve them in time) on games the fault did not lock (aim
	// 0: a queue of honest work is deferred, not refused).
	BusyUnlocked int
	// Reviews and GIFs are the reviews and replays the bot posted.
	Reviews, GIFs int
	// ErrorLogs counts the errors the bot logged (a problem without a
	// fault), with the first ones.
	ErrorLogs     int
	ErrorExamples []string
	// Problems is what went wrong: failed interactions, requests Discord
	// would refuse, errors the bot logged, a database that disagrees with
	// what the players saw. A healthy run has none.
	Problems []string
}

// Throughput is the interactions answered per second of Config.Duration.
func (r *Report) Throughput() float64 {
	return float64(r.InTime) / r.Config.Duration.Seconds()
}

// Print writes the report as tables.
func (r *Report) Print(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "kulami load: %d games (%s), REST latency %s, think %v, typed moves %.0f%%, %v (load average %s before, %s after)\n",
		c.Games, strings.Join(c.Layouts, ","), c.Latency.String(), c.Think, 100*c.Typed, c.Duration, r.LoadBefore, r.LoadAfter)
	pinned := ""
	if c.Pin {
		pinned = ", each pinned to one CPU"
	}
	fmt.Fprintf(w, "bot: %d process(es) on %s%s\n", c.Processes, c.Backend, pinned)
	fmt.Fprintf(w, "throughput: %.1f interactions/s (%d answered in %v; %d in all, last player done after %v)\n",
		r.Throughput(), r.InTime, c.Duration, r.Interactions, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "answers after 3 s: %d of %d (%.1f%%); deferred by the bot for a slow handler: %d\n",
		r.Late, r.Interactions, percent(r.Late, r.Interactions), r.SlowDeferrals)
	fmt.Fprintf(w, "peak RSS of the bot (its processes together): %.0f MB\n", float64(r.PeakRSS)/(1<<20))
	fmt.Fprintf(w, "games: %d started, %d finished, %d moves\n", r.Games, r.Finished, r.Moves)
	r.printFaults(w)
	fmt.Fprintln(w)
	printSummaries(w, "answer (POST → the bot's HTTP answer)", r.Answers, true)
	fmt.Fprintln(w)
	printSummaries(w, "new board (POST → the board pinging the next player reaches Discord)", r.Boards, false)
	fmt.Fprintf(w, "\nproblems: %d\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  - %s\n", p)
	}
}

// printFaults writes what the fault did and what players met.
func (r *Report) printFaults(w io.Writer) {
	fmt.Fprintf(w, "fault: %s, struck %d times; reviews posted %d, replays posted %d\n", r.Config.Fault, r.FaultsServed, r.Reviews, r.GIFs)
	fmt.Fprintf(w, "interactions failed or refused: %d; errors logged by the bot: %d\n", r.Failures, r.ErrorLogs)
	fmt.Fprintf(w, "stored moves answered as failures: %d (%d of them by an answer after 3 s)\n", r.StoredAnsweredFailed, r.StoredAnsweredLate)
	fmt.Fprintf(w, "stored moves never shown: %d (the players wait %v for each board, then the run up to %v more: waited %v)\n",
		r.NeverShown, r.Config.wait(), r.Config.wait(), r.Grace.Round(time.Millisecond))
	fmt.Fprintf(w, "boards later than 3 s: %d for games not under the fault, %d under it\n", r.LateBoards, r.LateBoardsUnderFault)
	fmt.Fprintf(w, "refused as busy while not locked: %d\n", r.BusyUnlocked)
	for _, group := range []struct {
		title string
		lines []string
	}{{"stored moves answered as failures", r.StoredFailedExamples}, {"failures", r.FailureExamples}, {"errors logged", r.ErrorExamples}} {
		if len(group.lines) > 0 {
			fmt.Fprintf(w, "%s, e.g.:\n", group.title)
			for _, l := range group.lines {
				fmt.Fprintf(w, "  - %s\n", strings.TrimSpace(l))
			}
		}
	}
}

func printSummaries(w io.Writer, title string, ss []Summary, over bool) {
	fmt.Fprintln(w, title)
	head := fmt.Sprintf("  %-20s %6s %9s %9s %9s %9s", "kind", "n", "p50", "p95", "p99", "max")
	if over {
		head += fmt.Sprintf(" %6s", ">3s")
	}
	fmt.Fprintln(w, head)
	for _, s := range ss {
		line := fmt.Sprintf("  %-20s %6d %9s %9s %9s %9s", s.Name, s.N, ms(s.P50), ms(s.P95), ms(s.P99), ms(s.Max))
		if over {
			line += fmt.Sprintf(" %6d", s.Over3s)
		}
		fmt.Fprintln(w, line)
	}
}

// ms writes a duration in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
