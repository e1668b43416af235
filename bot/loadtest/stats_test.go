package loadtest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSummarize(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for k, n := range ns {
			out[k] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for k := range hundred {
		hundred[k] = 100 - k // 100 … 1, unsorted
	}
	cases := []struct {
		name    string
		samples []time.Duration
		want    Summary
	}{
		{"none", nil, Summary{Name: "x"}},
		{"one", ms(7), Summary{Name: "x", N: 1, P50: 7 * time.Millisecond, P95: 7 * time.Millisecond, P99: 7 * time.Millisecond, Max: 7 * time.Millisecond}},
		{"nearest rank", ms(hundred...), Summary{Name: "x", N: 100, P50: 50 * time.Millisecond, P95: 95 * time.Millisecond, P99: 99 * time.Millisecond, Max: 100 * time.Millisecond}},
		{"over 3 s, not at 3 s", ms(3000, 3001, 10, 5000), Summary{Name: "x", N: 4, P50: 3000 * time.Millisecond, P95: 5000 * time.Millisecond, P99: 5000 * time.Millisecond, Max: 5000 * time.Millisecond, Over3s: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, summarize("x", c.samples))
		})
	}
}

func TestRecorderCountsAnswersBeforeTheDeadline(t *testing.T) {
	start := time.Now()
	r := newRecorder(start.Add(time.Second))
	r.answer(kindMenu, start, 500*time.Millisecond)
	r.answer(kindMenu, start.Add(time.Second), 0)
	r.answer(kindChallenge, start.Add(900*time.Millisecond), 200*time.Millisecond)
	assert.Equal(t, 2, r.inTime, "an answer at the deadline counts, one after it does not")
	got := summaries(r.answers)
	if assert.Len(t, got, 2) {
		assert.Equal(t, kindChallenge, got[0].Name, "kinds in the order of the report")
		assert.Equal(t, 2, got[1].N)
	}
}
