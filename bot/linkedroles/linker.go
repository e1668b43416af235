package linkedroles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/storage"
)

// Paths are the paths Handler serves.
const (
	Path         = "/linked-roles"
	CallbackPath = "/linked-roles/callback"
)

// Config is how a Linker reaches Discord and keeps its secrets.
type Config struct {
	AppID        string // the application's ID, its OAuth2 client ID
	ClientSecret string // its OAuth2 client secret; never logged
	BotToken     string // the bot's token, to register the metadata; never logged
	// PublicURL is where browsers reach the bot's listener, such as
	// https://kulami.example.org: the redirect URI is PublicURL +
	// CallbackPath, as registered in the Developer Portal.
	PublicURL string
	// Key seals the tokens and signs the states: KeySize bytes.
	Key []byte
	// APIURL is Discord's API (https://discord.com/api/v10 if empty) and
	// AuthorizeURL its authorization page
	// (https://discord.com/oauth2/authorize if empty).
	APIURL, AuthorizeURL string
	// Client sends the requests to Discord (http.DefaultClient if nil).
	Client *http.Client
	// Now is the clock (time.Now if nil).
	Now func() time.Time
	// Wait waits d, or until ctx ends, before a push retries after a 429;
	// a timer if nil.
	Wait func(ctx context.Context, d time.Duration) error
	Log  *slog.Logger // slog.Default() if nil
}

// Linker is Linked Roles for one application: the flow's HTTP handler
// and the pushes of the metadata. It is safe for concurrent use.
type Linker struct {
	cfg    Config
	store  Store
	seal   sealer
	states *states
	api    *client
	runner *jobs.Runner
	log    *slog.Logger
	seq    atomic.Uint64 // numbers the pushes, for their jobs' keys
}

// jobPush is the class of the pushes on the Linker's runner.
const jobPush = "role-connection"

// pushQueue is the most pushes waiting: past it, a push is dropped (and
// logged), the player's next game or puzzle pushes again.
const pushQueue = 4096

// New returns the Linked Roles of cfg's application on store. It fails
// if the key is not KeySize bytes or a setting is missing.
func New(cfg Config, store Store) (*Linker, error) {
	switch {
	case len(cfg.Key) != KeySize:
		return nil, fmt.Errorf("linked roles: the key must be %d bytes (64 hex digits)", KeySize)
	case cfg.AppID == "" || cfg.ClientSecret == "" || cfg.PublicURL == "":
		return nil, errors.New("linked roles: the application ID, client secret and public URL are all needed")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = "https://discord.com/api/v10"
	}
	if cfg.AuthorizeURL == "" {
		cfg.AuthorizeURL = "https://discord.com/oauth2/authorize"
	}
	if cfg.Client == nil {
		cfg.Client = http.DefaultClient
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Wait == nil {
		cfg.Wait = wait
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	cfg.PublicURL = strings.TrimSuffix(cfg.PublicURL, "/")
	s, err := newSealer(cfg.Key)
	if err != nil {
		return nil, err
	}
	l := &Linker{cfg: cfg, store: store, seal: s, states: newStates(cfg.Key), log: cfg.Log,
		api: &client{http: cfg.Client, api: strings.TrimSuffix(cfg.APIURL, "/"), appID: cfg.AppID, secret: cfg.ClientSecret,
			botToken: cfg.BotToken, redirectURI: cfg.PublicURL + CallbackPath}}
	l.runner = jobs.New(jobs.Config{
		Pools:   []jobs.Pool{{Name: "discord", Workers: 1}},
		Classes: []jobs.Class{{Name: jobPush, Pool: "discord", Queue: pushQueue}},
		Failed: func(j jobs.Job, err error) {
			l.log.Warn("linked roles: a push failed", "job", j.Key, "err", err)
		},
	})
	return l, nil
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RedirectURI is the callback's URL, to register in the Developer
// Portal's OAuth2 redirects.
func (l *Linker) RedirectURI() string { return l.cfg.PublicURL + CallbackPath }

// VerificationURL is the URL for the Developer Portal's "Linked Roles
// Verification URL".
func (l *Linker) VerificationURL() string { return l.cfg.PublicURL + Path }

// Register publishes the metadata records; registering the same records
// again changes nothing, so it runs at every start.
func (l *Linker) Register(ctx context.Context) error {
	if err := l.api.register(ctx, Records()); err != nil {
		return fmt.Errorf("register the linked roles metadata: %w", err)
	}
	return nil
}

// Played queues a push of each user's metadata after a rated game in
// guild ("" outside servers), whose ladder their metadata then count.
func (l *Linker) Played(guild string, users ...string) {
	for _, u := range users {
		if u != "" {
			l.submit(u, "game in "+guild, func(link *storage.RoleLink) bool { return link.AddGuild(guild) })
		}
	}
}

// Champion queues a push of the user's metadata after they won a season
// in guild.
func (l *Linker) Champion(guild, user string) {
	l.submit(user, "season in "+guild, func(link *storage.RoleLink) bool {
		added := link.AddGuild(guild)
		if link.Champion {
			return added
		}
		link.Champion = true
		return true
	})
}

// Puzzled queues a push of the user's metadata after a puzzle that
// counted.
func (l *Linker) Puzzled(user string) {
	l.submit(user, "puzzle", func(*storage.RoleLink) bool { return false })
}

// submit queues a push for user, which first changes their link by
// change (which reports whether it changed it). Each event queues its
// own push: one queued or running for the same user may have read the
// store before this event was stored.
func (l *Linker) submit(user, why string, change func(*storage.RoleLink) bool) {
	key := fmt.Sprintf("%s %s #%d", user, why, l.seq.Add(1))
	_, err := l.runner.Submit(jobs.Job{Class: jobPush, Key: key, Run: func(ctx context.Context) error {
		return l.push(ctx, user, change)
	}})
	if err != nil {
		l.log.Warn("linked roles: a push was not queued", "user", user, "why", why, "err", err)
	}
}

// push pushes the metadata of user, if linked, after change: refreshing
// a token that ran out, forgetting a grant Discord says is revoked, and
// trying again once after a 429.
func (l *Linker) push(ctx context.Context, user string, change func(*storage.RoleLink) bool) error {
	link, err := l.store.RoleLink(ctx, user)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // not linked: nothing to push
	}
	if err != nil {
		return err
	}
	probe := *link
	probe.Guilds = slices.Clone(link.Guilds) // change may append to them
	if change(&probe) {
		if link, err = l.store.UpdateRoleLink(ctx, user, func(s *storage.RoleLink) error { change(s); return nil }); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				return nil // unlinked meanwhile
			}
			return err
		}
	}
	g, err := l.seal.open(user, link.Token)
	if err != nil {
		l.log.Error("linked roles: a stored token cannot be opened (was the key changed?); the link is forgotten", "user", user)
		return l.store.DeleteRoleLink(ctx, user)
	}
	if !l.cfg.Now().Before(g.Expires.Add(-time.Minute)) {
		if g, err = l.refresh(ctx, user, g); err != nil {
			return l.revoked(ctx, user, err)
		}
	}
	v, err := valuesOf(ctx, l.store, link)
	if err != nil {
		return err
	}
	conn := connection{PlatformName: "Kulami", Metadata: v.metadata()}
	err = l.api.putConnection(ctx, g.Access, conn)
	var rl rateLimited
	if errors.As(err, &rl) {
		if err := l.cfg.Wait(ctx, rl.after); err != nil {
			return err
		}
		err = l.api.putConnection(ctx, g.Access, conn)
	}
	return l.revoked(ctx, user, err)
}

// refresh trades the user's refresh token for a new grant and stores it.
func (l *Linker) refresh(ctx context.Context, user string, g grant) (grant, error) {
	fresh, err := l.api.refresh(ctx, g.Refresh, l.cfg.Now())
	if err != nil {
		return g, err
	}
	sealed, err := l.seal.seal(user, fresh)
	if err != nil {
		return g, err
	}
	_, err = l.store.UpdateRoleLink(ctx, user, func(s *storage.RoleLink) error { s.Token = sealed; return nil })
	return fresh, err
}

// revoked forgets the user's link if err says Discord revoked the grant,
// and returns err otherwise.
func (l *Linker) revoked(ctx context.Context, user string, err error) error {
	if !errors.Is(err, ErrInvalidGrant) && !errors.Is(err, ErrUnauthorized) {
		return err
	}
	l.log.Info("linked roles: Discord says the user revoked the link; it is forgotten", "user", user, "reason", err)
	return l.store.DeleteRoleLink(ctx, user)
}

// Wait waits until no push is queued or running, or ctx ends: for tests
// and a clean stop.
func (l *Linker) Wait(ctx context.Context) error { return l.runner.Idle(ctx) }

// Close stops taking pushes and waits for those queued, until ctx ends.
func (l *Linker) Close(ctx context.Context) {
	if left, err := l.runner.Close(ctx); err != nil || len(left) > 0 {
		l.log.Warn("linked roles: pushes dropped at shutdown", "count", len(left), "err", err)
	}
}
