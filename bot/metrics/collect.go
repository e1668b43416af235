package metrics

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/draw"
)

// The figures that the domain keeps as plain numbers are read at scrape
// time by the collectors below, through these small interfaces.
type (
	// JobStats reads the queues of the bot's slow work: a *bot.Bot.
	JobStats interface{ JobStats() []jobs.ClassStats }
	// RenderStats reads what the board renderer did: a *draw.Renderer.
	RenderStats interface{ Stats() draw.Stats }
	// GameCounter counts the games going on: either store.
	GameCounter interface {
		ActiveGames(ctx context.Context) (int, error)
	}
	// PoolStats reads a PostgreSQL store's pool of connections: a
	// *postgres.Store.
	PoolStats interface{ PoolStat() *pgxpool.Stat }
)

// countTimeout bounds the count of the games at a scrape.
const countTimeout = 2 * time.Second

// collector is a prometheus.Collector of the metrics descs that collect
// reads.
type collector struct {
	descs   []*prometheus.Desc
	collect func(ch chan<- prometheus.Metric)
}

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) { c.collect(ch) }

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, labels, nil)
}

// Jobs registers the figures of the queues of slow work (the computer's
// moves, reviews, renders, GIFs) that src reads: jobs waiting and
// running, and their waiting time as a summary of its sum and count, by
// class.
func (m *Metrics) Jobs(src JobStats) {
	waiting := desc("kulami_jobs_waiting", "Jobs waiting for a worker, by class (move, review, render, gif).", "class")
	running := desc("kulami_jobs_running", "Jobs a worker runs, by class.", "class")
	wait := desc("kulami_job_wait_seconds", "Time jobs waited for a worker before they started, by class.", "class")
	m.reg.MustRegister(collector{[]*prometheus.Desc{waiting, running, wait}, func(ch chan<- prometheus.Metric) {
		for _, s := range src.JobStats() {
			ch <- prometheus.MustNewConstMetric(waiting, prometheus.GaugeValue, float64(s.Waiting), s.Class)
			ch <- prometheus.MustNewConstMetric(running, prometheus.GaugeValue, float64(s.Running), s.Class)
			ch <- prometheus.MustNewConstSummary(wait, s.Started, s.Waited.Seconds(), nil, s.Class)
		}
	}})
}

// Renderer registers the figures of the board renderer that src reads:
// the time of renders and animations as summaries of sum and count, and
// the board cache's hits, misses and size.
func (m *Metrics) Renderer(src RenderStats) {
	render := desc("kulami_render_seconds", "Time to draw a board image.")
	animate := desc("kulami_animation_seconds", "Time to draw an animated replay.")
	hits := desc("kulami_board_cache_hits_total", "Renders that found their board (or what the boards of a size share) drawn in the cache.")
	misses := desc("kulami_board_cache_misses_total", "Renders that had to draw their board (or what the boards of a size share).")
	items := desc("kulami_board_cache_items", "Boards and kits the cache keeps.")
	bytes := desc("kulami_board_cache_bytes", "Memory the cache's items hold.")
	m.reg.MustRegister(collector{[]*prometheus.Desc{render, animate, hits, misses, items, bytes}, func(ch chan<- prometheus.Metric) {
		s := src.Stats()
		ch <- prometheus.MustNewConstSummary(render, s.Renders, s.RenderTime.Seconds(), nil)
		ch <- prometheus.MustNewConstSummary(animate, s.Animations, s.AnimationTime.Seconds(), nil)
		ch <- prometheus.MustNewConstMetric(hits, prometheus.CounterValue, float64(s.CacheHits))
		ch <- prometheus.MustNewConstMetric(misses, prometheus.CounterValue, float64(s.CacheMisses))
		ch <- prometheus.MustNewConstMetric(items, prometheus.GaugeValue, float64(s.CacheItems))
		ch <- prometheus.MustNewConstMetric(bytes, prometheus.GaugeValue, float64(s.CacheBytes))
	}})
}

// Games registers kulami_games_active, the games going on, which src
// counts in the database at each scrape: one cheap read (a count, no game
// decoded), right across restarts and with several processes on one
// database, which counts kept in memory on creates and ends are not. A
// count that fails, or takes longer than countTimeout, is left out of
// the scrape (see Handler).
func (m *Metrics) Games(src GameCounter) {
	active := desc("kulami_games_active", "Games going on, as the database counts them (every process of the bot sees the same).")
	m.reg.MustRegister(collector{[]*prometheus.Desc{active}, func(ch chan<- prometheus.Metric) {
		ctx, cancel := context.WithTimeout(context.Background(), countTimeout)
		defer cancel()
		n, err := src.ActiveGames(ctx)
		if err != nil {
			ch <- prometheus.NewInvalidMetric(active, err)
			return
		}
		ch <- prometheus.MustNewConstMetric(active, prometheus.GaugeValue, float64(n))
	}})
}

// Pool registers the figures of a PostgreSQL store's pool of connections
// that src reads.
func (m *Metrics) Pool(src PoolStats) {
	acquired := desc("kulami_storage_pool_acquired_conns", "Connections of the pool in use.")
	idle := desc("kulami_storage_pool_idle_conns", "Connections of the pool idle.")
	total := desc("kulami_storage_pool_conns", "Connections of the pool open.")
	maxConns := desc("kulami_storage_pool_max_conns", "The most connections the pool opens.")
	acquires := desc("kulami_storage_pool_acquires_total", "Connections taken from the pool.")
	empty := desc("kulami_storage_pool_empty_acquires_total", "Connections taken when none was idle: the caller waited for one to open or come back.")
	wait := desc("kulami_storage_pool_acquire_seconds_total", "Time spent taking connections from the pool.")
	m.reg.MustRegister(collector{[]*prometheus.Desc{acquired, idle, total, maxConns, acquires, empty, wait}, func(ch chan<- prometheus.Metric) {
		s := src.PoolStat()
		ch <- prometheus.MustNewConstMetric(acquired, prometheus.GaugeValue, float64(s.AcquiredConns()))
		ch <- prometheus.MustNewConstMetric(idle, prometheus.GaugeValue, float64(s.IdleConns()))
		ch <- prometheus.MustNewConstMetric(total, prometheus.GaugeValue, float64(s.TotalConns()))
		ch <- prometheus.MustNewConstMetric(maxConns, prometheus.GaugeValue, float64(s.MaxConns()))
		ch <- prometheus.MustNewConstMetric(acquires, prometheus.CounterValue, float64(s.AcquireCount()))
		ch <- prometheus.MustNewConstMetric(empty, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
		ch <- prometheus.MustNewConstMetric(wait, prometheus.CounterValue, s.AcquireDuration().Seconds())
	}})
}
