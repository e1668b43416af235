package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/metrics"
	"github.com/kulami/kulami/draw"
)

// ops is what the people who run the bot see of it: its metrics
// (package bot/metrics) and whether it is ready. It is safe for
// concurrent use.
type ops struct {
	metrics *metrics.Metrics
	store   metrics.GameCounter
	gateway *metrics.Gateway // gateway mode; nil in http mode
	serving atomic.Bool      // http mode: the server takes interactions
}

// newOps returns the metrics of a bot in mode, and wraps the transport of
// the session s with them. Call watch once the bot and its store are
// open.
func newOps(s *discordgo.Session, mode string) *ops {
	o := &ops{metrics: metrics.New(prometheus.NewRegistry())}
	s.Client.Transport = o.metrics.Transport(s.Client.Transport)
	if mode != "http" {
		o.gateway = o.metrics.Gateway(s)
	}
	return o
}

// watch registers the figures that b, its renderer and its store keep.
func (o *ops) watch(b *bot.Bot, r *draw.Renderer, store Store) {
	o.store = store
	o.metrics.Jobs(b)
	o.metrics.Renderer(r)
	o.metrics.Games(store)
	if p, ok := store.(metrics.PoolStats); ok {
		o.metrics.Pool(p)
	}
}

// ready returns why the bot is not ready to serve, or nil: the storage
// answers a cheap read (a count of the games) before ctx ends, and the
// gateway is connected (gateway mode) or the server takes interactions
// (http mode).
func (o *ops) ready(ctx context.Context) error {
	if _, err := o.store.ActiveGames(ctx); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	switch {
	case o.gateway != nil && !o.gateway.Connected():
		return errors.New("the Discord gateway is not connected")
	case o.gateway == nil && !o.serving.Load():
		return errors.New("the interactions endpoint is not serving")
	}
	return nil
}

// handler serves GET /metrics, /healthz and /readyz.
func (o *ops) handler(log *slog.Logger) http.Handler { return o.metrics.Handler(o.ready, log) }

// serveOps serves h on listen until stop is called; the error is the
// listener's.
func serveOps(listen string, h http.Handler, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("metrics.listen: %w", err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		WriteTimeout:      30 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("serving metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("the metrics server stopped", "err", err)
		}
	}()
	return func() {
		srv.Close()
		<-done
	}, nil
}
