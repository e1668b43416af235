package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
)

// shutdownGrace is how long a stopping bot lets interactions in flight
// finish.
const shutdownGrace = 10 * time.Second

func newLogger(c LogConfig, w io.Writer) *slog.Logger {
	level, _ := c.level() // checked by LoadConfig
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: bot.RedactAttr}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// openBot opens the database and a bot on it that talks to Discord as cfg
// says, with its metrics and, if cfg turns them on, its Linked Roles (nil
// if not). Close the store when done.
func openBot(cfg Config, log *slog.Logger) (*bot.Bot, Store, *ops, *linkedroles.Linker, error) {
	s, err := bot.NewSession(cfg.Discord.Token, cfg.Discord.APIURL)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	s.ShardID, s.ShardCount = cfg.Discord.ShardID, cfg.Discord.ShardCount
	o := newOps(s, cfg.Discord.Mode)
	store, err := openStore(cfg.Storage, storage.Options{Updated: o.metrics.Updated}, log)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var links *linkedroles.Linker
	var roleLinks bot.RoleLinks // nil, not a nil *Linker, when off
	if cfg.Discord.linkedRoles() {
		key, err := cfg.Discord.linkedRolesKey()
		if err == nil {
			links, err = linkedroles.New(linkedroles.Config{AppID: string(cfg.Discord.ApplicationID), ClientSecret: cfg.Discord.ClientSecret,
				BotToken: cfg.Discord.Token, PublicURL: cfg.HTTP.PublicURL, Key: key, APIURL: cfg.Discord.APIURL, Log: log}, store)
		}
		if err != nil {
			store.Close()
			return nil, nil, nil, nil, err
		}
		roleLinks = links
	}
	renderer := draw.NewRenderer(cfg.Draw.renderer())
	log.Info(renderer.Fonts())
	b := bot.New(s, bot.Options{
		Store:           store,
		Renderer:        renderer,
		Logger:          log,
		MoveTime:        cfg.Game.MoveTime.Duration,
		ChallengeExpiry: cfg.Game.ChallengeExpiry.Duration,
		AITime:          cfg.Game.AITime.Duration,
		Metrics:         o.metrics,
		Puzzles:         puzzle.Shipped,
		RoleLinks:       roleLinks,
	})
	o.watch(b, renderer, store)
	return b, store, o, links, nil
}

// serve runs the bot until ctx is cancelled, then shuts down gracefully,
// each part after those that use it: no new interactions (the gateway or
// the HTTP server stops), then the scheduler stops, after the work it is
// doing and a last record of the bot alive, then the work in flight
// finishes (Bot.Close), then the control socket and the database close.
func serve(ctx context.Context, cfg Config, logOut io.Writer) error {
	// A failed gateway or HTTP server ends the run too, as a signal does:
	// cancel stops the control socket then.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	log := newLogger(cfg.Log, logOut)
	b, store, o, links, err := openBot(cfg, log)
	if err != nil {
		return err
	}
	defer store.Close()
	if cfg.Metrics.Listen != "" {
		stopOps, err := serveOps(cfg.Metrics.Listen, o.handler(log), log)
		if err != nil {
			return err
		}
		defer stopOps()
	}
	log.Info("starting", "mode", cfg.Discord.Mode, "database", cfg.Storage.where())
	if err := b.Register(ctx, string(cfg.Discord.ApplicationID), string(cfg.Discord.GuildID)); err != nil {
		return explainDiscord("register the slash commands", err)
	}
	scope := "globally (may take a while to show up)"
	if cfg.Discord.GuildID != "" {
		scope = "in guild " + string(cfg.Discord.GuildID)
	}
	log.Info("registered the slash commands", "where", scope)
	if links != nil {
		if err := links.Register(ctx); err != nil {
			return explainDiscord("register the Linked Roles metadata", err)
		}
		log.Info("Linked Roles on", "verification_url", links.VerificationURL(), "redirect_uri", links.RedirectURI())
	}

	if file, ok := store.(*storage.Store); ok { // a PostgreSQL database has pg_dump for backups
		stopControl := serveControl(ctx, file, log)
		defer stopControl()
	}
	// The scheduler has a context of its own: it stops once no
	// interaction can come in any more.
	schedCtx, stopScheduler := context.WithCancel(context.WithoutCancel(ctx))
	defer stopScheduler()
	schedDone := make(chan struct{})
	go func() {
		defer close(schedDone)
		if err := b.RunScheduler(schedCtx); err != nil {
			log.Error("scheduler stopped", "err", err)
		}
	}()

	switch {
	case cfg.Discord.Mode == "http":
		err = serveHTTP(ctx, cfg, b, o, log)
	case links != nil: // gateway mode with Linked Roles: their pages on http.listen
		gw := make(chan error, 1)
		go func() { gw <- b.RunGateway(ctx) }()
		err = serveOn(ctx, cfg.HTTP.Listen, links.Handler(), o, log, "serving the Linked Roles pages", linkedroles.Path)
		cancel()
		if gerr := <-gw; err == nil && gerr != nil {
			err = explainDiscord("connect to Discord", gerr)
		}
	default:
		err = b.RunGateway(ctx)
		if err != nil {
			err = explainDiscord("connect to Discord", err)
		}
	}
	cancel()
	log.Info("shutting down")
	stopScheduler()
	<-schedDone
	b.Close(shutdownGrace)
	if links != nil {
		lctx, lcancel := context.WithTimeout(context.Background(), shutdownGrace)
		links.Close(lctx)
		lcancel()
	}
	return err
}

// serveHTTP serves the interactions endpoint until ctx is cancelled, and
// the operators' endpoints of o next to it unless they have a listener of
// their own (metrics.listen).
func serveHTTP(ctx context.Context, cfg Config, b *bot.Bot, o *ops, log *slog.Logger) error {
	key, err := bot.ParsePublicKey(cfg.Discord.PublicKey)
	if err != nil {
		return err
	}
	var h http.Handler = b.HTTPHandler(key)
	if cfg.Metrics.Listen == "" {
		mux := http.NewServeMux()
		mux.Handle("/", h)
		opsHandler := o.handler(log)
		for _, path := range []string{"GET /metrics", "GET /healthz", "GET /readyz"} {
			mux.Handle(path, opsHandler)
		}
		h = mux
	}
	return serveOn(ctx, cfg.HTTP.Listen, h, o, log, "serving interactions", "/interactions")
}

// serveOn serves h on listen until ctx is cancelled, logging msg with the
// URL of path.
func serveOn(ctx context.Context, listen string, h http.Handler, o *ops, log *slog.Logger, msg, path string) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("http.listen: %w", err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info(msg, "url", "http://"+ln.Addr().String()+path)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	o.serving.Store(true)
	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	o.serving.Store(false)
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	return srv.Shutdown(sctx)
}

// register only registers the slash commands.
func register(ctx context.Context, cfg Config, out io.Writer) error {
	s, err := bot.NewSession(cfg.Discord.Token, cfg.Discord.APIURL)
	if err != nil {
		return err
	}
	b := bot.New(s, bot.Options{})
	if err := b.Register(ctx, string(cfg.Discord.ApplicationID), string(cfg.Discord.GuildID)); err != nil {
		return explainDiscord("register the slash commands", err)
	}
	where := "globally: Discord may take up to an hour to show them everywhere"
	if cfg.Discord.GuildID != "" {
		where = "in guild " + string(cfg.Discord.GuildID) + ": they show up at once"
	}
	fmt.Fprintf(out, "Registered /kulami %s.\n", where)
	return nil
}

// explainDiscord turns Discord's refusals at start into advice.
func explainDiscord(what string, err error) error {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		switch rest.Response.StatusCode {
		case http.StatusUnauthorized:
			return fmt.Errorf("%s: Discord refused the bot token (401): copy it again from the Developer Portal, Bot page (Reset Token)", what)
		case http.StatusForbidden:
			return fmt.Errorf("%s: Discord said 403: check discord.application_id, and that the bot was invited to guild_id with the applications.commands scope", what)
		case http.StatusNotFound:
			return fmt.Errorf("%s: Discord said 404: check discord.application_id and discord.api_url", what)
		}
	}
	if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
