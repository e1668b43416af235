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

// board notes that the new board of an interaction of kind reached Discord
// d after the interaction was sent.
func (r *recorder) board(kind string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.boards[kind] = append(r.boards[kind], d)
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
