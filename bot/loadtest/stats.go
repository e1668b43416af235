package loadtest

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// ackLimit is how soon Discord wants the first answer to an interaction.
const ackLimit = 3 * time.Second

// Summary sums up the durations of one kind of event.
type Summary struct {
	Name               string
	N                  int
	P50, P95, P99, Max time.Duration
	Over3s             int // how many took longer than Discord's 3 seconds
}

// summarize sums up samples (which it sorts) under name.
func summarize(name string, samples []time.Duration) Summary {
	slices.Sort(samples)
	s := Summary{Name: name, N: len(samples)}
	if len(samples) == 0 {
		return s
	}
	s.P50, s.P95, s.P99 = percentile(samples, 50), percentile(samples, 95), percentile(samples, 99)
	s.Max = samples[len(samples)-1]
	s.Over3s = len(samples) - sort.Search(len(samples), func(i int) bool { return samples[i] > ackLimit })
	return s
}

// percentile returns the nearest-rank p-th percentile of sorted, which is
// not empty: the smallest sample that p percent of the samples are at most.
func percentile(sorted []time.Duration, p int) time.Duration {
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 × n)
	return sorted[max(rank, 1)-1]
}

// recorder collects the measurements of a run. It is safe for concurrent
// use.
type recorder struct {
	mu       sync.Mutex
	deadline time.Time // answers after it are not counted in the throughput
	answers  map[string][]time.Duration
	boards   map[string][]time.Duration
	inTime   int // answers that came before the deadline
	failures []string
	// shown are the new boards that came, for the report to count those
	// later than ackLimit and not under the fault.
	shown []shownBoard
	// failedMoves are the tries of moves answered as failures, for the
	// report to count those the database holds.
	failedMoves []failedMove
	// busyUnlocked counts the answers "busy" to interactions on games no
	// fault locked.
	busyUnlocked int
}

// busy counts an answer "busy", unless the game was locked.
func (r *recorder) busy(locked bool) {
	if locked {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busyUnlocked++
}

// shownBoard is a new board that came: in channel, for an interaction
// sent at sent, reaching Discord at at.
type shownBoard struct {
	channel  string
	sent, at time.Time
}

// failedMove is a try of a move that its player was told failed: by a
// refusal or an error, or by an answer after Discord's 3 seconds.
type failedMove struct {
	channel string
	game    uint64
	ply     int    // the move's ply: the first is 1
	cell    string // the hole tried
	why     string // what the player was told
}

func newRecorder(deadline time.Time) *recorder {
	return &recorder{deadline: deadline, answers: map[string][]time.Duration{}, boards: map[string][]time.Duration{}}
}

// answer notes that an interaction of kind, sent at sent, was answered
// after d.
func (r *recorder) answer(kind string, sent time.Time, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers[kind] = append(r.answers[kind], d)
	if !sent.Add(d).After(r.deadline) {
		r.inTime++
	}
}

// stormAnswer notes that an interaction of the storm, of kind, was
// answered after d; the storm is not counted in the throughput.
func (r *recorder) stormAnswer(kind string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers[kind] = append(r.answers[kind], d)
}

// board notes that the new board of an interaction of kind in channel,
// sent at sent (its first try), reached Discord at at.
func (r *recorder) board(kind, channel string, sent, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.boards[kind] = append(r.boards[kind], at.Sub(sent))
	r.shown = append(r.shown, shownBoard{channel: channel, sent: sent, at: at})
}

// failedMove notes a try of a move answered as a failure.
func (r *recorder) failedMove(f failedMove) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failedMoves = append(r.failedMoves, f)
}

// fail notes a failed interaction.
func (r *recorder) fail(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, what)
}

// summaries sums up each kind of m, in the order of kinds, then any others
// by name.
func summaries(m map[string][]time.Duration) []Summary {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return kindOrder(a) - kindOrder(b) })
	out := make([]Summary, 0, len(names))
	for _, name := range names {
		out = append(out, summarize(name, m[name]))
	}
	return out
}
