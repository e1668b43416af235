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
	fmt.Fprintf(w, "games: %d started, %d finished, %d moves\n\n", r.Games, r.Finished, r.Moves)
	printSummaries(w, "answer (POST → the bot's HTTP answer)", r.Answers, true)
	fmt.Fprintln(w)
	printSummaries(w, "new board (POST → the board pinging the next player reaches Discord)", r.Boards, false)
	fmt.Fprintf(w, "\nproblems: %d\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  - %s\n", p)
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
