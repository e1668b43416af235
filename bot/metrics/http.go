package metrics

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ReadyTimeout bounds the checks of /readyz.
const ReadyTimeout = 2 * time.Second

// Handler serves the operators' endpoints:
//
//   - GET /metrics: the metrics, in Prometheus's text format; a collector
//     that fails (the database unreachable for kulami_games_active) is
//     left out and logged to log, the others still served;
//   - GET /healthz: 200 while the process runs;
//   - GET /readyz: 200 if ready returns nil within ReadyTimeout, else 503
//     with ready's error as the reason.
func (m *Metrics) Handler(ready func(context.Context) error, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
		defer cancel()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := ready(ctx); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "not ready: "+err.Error()+"\n")
			return
		}
		io.WriteString(w, "ready\n")
	})
	return mux
}
