// Package metrics counts what the Kulami bot does for the people who run
// it, in Prometheus's format: the bot's events (through bot.Metrics), the
// Discord REST calls (a RoundTripper), the gateway's heartbeat and
// reconnections, the renders and the board cache (draw.Stats), the queues
// of slow work (jobs.ClassStats), the storage's commits, its pool of
// connections and the games going on, and the Go runtime and process. Its
// Handler serves them at GET /metrics, with GET /healthz and GET /readyz.
//
// It uses the official Go client, prometheus/client_golang: it is what
// Prometheus itself documents, it has the Go runtime and process
// collectors ready made, and its Collector interface lets the figures
// that the domain keeps as plain numbers (draw, bot/jobs, storage) be read
// at scrape time instead of pushed, so those packages import nothing of
// Prometheus. Every collector is registered on the *prometheus.Registry
// that New is given, never on the global default one, so tests stay
// apart.
//
// Labels are few and bounded: interaction kinds and command names from
// the bot's own tables, job classes, game endings, REST routes as
// templates (/channels/{id}/messages, never an ID or a token), methods,
// status codes, and the shard number.
//
// Usage, as cmd/kulamibot wires it:
//
//	reg := prometheus.NewRegistry()
//	m := metrics.New(reg)
//	session.Client.Transport = m.Transport(session.Client.Transport)
//	store, _ := storage.Open(path, storage.Options{Updated: m.Updated})
//	b := bot.New(session, bot.Options{Store: store, Metrics: m, Renderer: renderer})
//	m.Jobs(b)
//	m.Renderer(renderer)
//	m.Games(store) // and m.Pool(store) for PostgreSQL
//	gw := m.Gateway(session)
//	http.ListenAndServe("127.0.0.1:9090", m.Handler(ready, logger))
//
// A Metrics is safe for concurrent use.
package metrics
