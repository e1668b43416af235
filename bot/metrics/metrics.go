package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kulami/kulami/engine/game"
)

// LateAnswer is when Discord fails an interaction not answered: an answer
// after it counts in kulami_interaction_late_answers_total.
const LateAnswer = 3 * time.Second

// Metrics holds the collectors of one bot. It implements bot.Metrics.
type Metrics struct {
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec
	ack          *prometheus.HistogramVec
	late         *prometheus.CounterVec
	moves        prometheus.Counter
	ended        *prometheus.CounterVec
	reminders    *prometheus.CounterVec
	commits      *prometheus.HistogramVec
	requests     *prometheus.CounterVec
	requestTime  *prometheus.HistogramVec
	limited      *prometheus.CounterVec
}

// New registers the bot's collectors, and those of the Go runtime and the
// process, on reg and returns them.
func New(reg *prometheus.Registry) *Metrics {
	m := &Metrics{
		reg: reg,
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kulami_interactions_total",
			Help: "Interactions received, by kind (command, autocomplete, component) and command (subcommand or component action).",
		}, []string{"kind", "command"}),
		ack: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kulami_interaction_ack_seconds",
			Help:    "Time from receiving an interaction to its first response (an answer or a deferral).",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2, 2.5, 3, 5, 10},
		}, []string{"kind", "command"}),
		late: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kulami_interaction_late_answers_total",
			Help: "First responses sent later than 3 s after the interaction came in: Discord has shown the user a failure.",
		}, []string{"kind", "command"}),
		moves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kulami_moves_total",
			Help: "Moves played, by people and the computer.",
		}),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kulami_games_ended_total",
			Help: "Games ended, by reason (normal, resigned, timed-out, aborted, draw-agreed, unstarted, abandoned, adjudicated).",
		}, []string{"reason"}),
		reminders: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kulami_reminders_total",
			Help: "Reminders to move, by result: sent, or failed (the channel could not be posted in).",
		}, []string{"result"}),
		commits: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kulami_storage_commit_seconds",
			Help:    "Time of the storage's write transactions, commit included, by result (ok, or error: refused or failed).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"result"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kulami_discord_requests_total",
			Help: "Discord REST requests, by method, route template and status code (error: no response).",
		}, []string{"method", "route", "status"}),
		requestTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kulami_discord_request_seconds",
			Help:    "Time of Discord REST requests, by route template.",
			Buckets: []float64{.025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kulami_discord_rate_limited_total",
			Help: "Discord REST requests answered 429 Too Many Requests, by route template and scope (user, global, shared).",
		}, []string{"route", "scope"}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.interactions, m.ack, m.late, m.moves, m.ended, m.reminders, m.commits,
		m.requests, m.requestTime, m.limited,
	)
	// The series of every reason and result exist from the start, at 0,
	// so that a rate over them is right from the first event.
	for e := game.Normal; e <= game.Adjudicated; e++ {
		m.ended.WithLabelValues(e.String())
	}
	m.reminders.WithLabelValues("sent")
	m.reminders.WithLabelValues("failed")
	return m
}

// Interaction implements bot.Metrics.
func (m *Metrics) Interaction(kind, name string) {
	m.interactions.WithLabelValues(kind, name).Inc()
}

// Answered implements bot.Metrics.
func (m *Metrics) Answered(kind, name string, after time.Duration) {
	m.ack.WithLabelValues(kind, name).Observe(after.Seconds())
	if after > LateAnswer {
		m.late.WithLabelValues(kind, name).Inc()
	}
}

// Moved implements bot.Metrics.
func (m *Metrics) Moved(n int) { m.moves.Add(float64(n)) }

// GameEnded implements bot.Metrics.
func (m *Metrics) GameEnded(ending game.Ending) { m.ended.WithLabelValues(ending.String()).Inc() }

// Reminded implements bot.Metrics.
func (m *Metrics) Reminded(err error) {
	m.reminders.WithLabelValues(result(err, "sent", "failed")).Inc()
}

// Updated times a write transaction of the storage: it is
// storage.Options.Updated.
func (m *Metrics) Updated(took time.Duration, err error) {
	m.commits.WithLabelValues(result(err, "ok", "error")).Observe(took.Seconds())
}

// result returns ok if err is nil, else failed.
func result(err error, ok, failed string) string {
	if err != nil {
		return failed
	}
	return ok
}
