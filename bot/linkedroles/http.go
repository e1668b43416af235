package linkedroles

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// cookieName is the cookie that holds the signed state of a sign-in.
const cookieName = "kulami_linked_roles"

// Handler returns the handler of the flow's two paths, GET Path and GET
// CallbackPath; mount it on the bot's listener at both, nothing else.
func (l *Linker) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+Path, l.start)
	mux.HandleFunc("GET "+CallbackPath, l.callback)
	return mux
}

// start sends the browser to Discord's authorization page with a fresh
// state, which the signed cookie binds to this browser.
func (l *Linker) start(w http.ResponseWriter, r *http.Request) {
	state, cookie := l.states.issue(l.cfg.Now())
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: cookie, Path: Path, MaxAge: int(StateLifetime.Seconds()),
		HttpOnly: true, Secure: strings.HasPrefix(l.cfg.PublicURL, "https:"), SameSite: http.SameSiteLaxMode})
	q := url.Values{"client_id": {l.cfg.AppID}, "response_type": {"code"}, "redirect_uri": {l.RedirectURI()},
		"scope": {"identify role_connections.write"}, "state": {state}, "prompt": {"consent"}}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, l.cfg.AuthorizeURL+"?"+q.Encode(), http.StatusFound)
}

// The reasons a callback links nothing, each a page (its message id) and
// a log line.
var (
	errDenied      = errors.New("the user denied consent")
	errNoCode      = errors.New("no code in the callback")
	errUnavailable = errors.New("discord could not be reached")
)

// refusal is what a callback that links nothing tells the reader.
type refusal struct {
	status int
	page   string // the message id of its text
}

// refusals are the pages of the callback's refusals by their error.
var refusals = []struct {
	err error
	refusal
}{
	{errNoState, refusal{http.StatusBadRequest, "linked_roles.err_missing"}},
	{errForgedState, refusal{http.StatusBadRequest, "linked_roles.err_forged"}},
	{errReusedState, refusal{http.StatusBadRequest, "linked_roles.err_reused"}},
	{errExpiredState, refusal{http.StatusBadRequest, "linked_roles.err_expired"}},
	{errDenied, refusal{http.StatusForbidden, "linked_roles.err_denied"}},
	{errNoCode, refusal{http.StatusBadRequest, "linked_roles.err_code"}},
	{ErrInvalidGrant, refusal{http.StatusBadRequest, "linked_roles.err_code"}},
	{ErrUnauthorized, refusal{http.StatusForbidden, "linked_roles.err_refused"}},
}

// callback finishes a sign-in: it checks the state, exchanges the code,
// reads the user, pushes their metadata and stores the link, in that
// order, so that a refusal at any step stores nothing.
func (l *Linker) callback(w http.ResponseWriter, r *http.Request) {
	lang := i18n.FromAcceptLanguage(r.Header.Get("Accept-Language"))
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: Path, MaxAge: -1, HttpOnly: true})
	w.Header().Set("Cache-Control", "no-store")
	u, v, err := l.link(r)
	if err != nil {
		ref := refusal{http.StatusBadGateway, "linked_roles.err_unavailable"}
		for _, e := range refusals {
			if errors.Is(err, e.err) {
				ref = e.refusal
				break
			}
		}
		// The error names the step, never a code, token or secret.
		l.log.Warn("linked roles: a sign-in linked nothing", "status", ref.status, "reason", err, "remote", r.RemoteAddr)
		l.page(w, ref.status, page{Lang: lang, Title: lang.Plain("linked_roles.err_title"), Text: lang.Plain(ref.page),
			Again: lang.Plain("linked_roles.again"), AgainURL: Path})
		return
	}
	l.log.Info("linked roles: a user linked", "user", u.ID)
	none := lang.Plain("linked_roles.none")
	num := func(n int) string {
		if n == 0 {
			return none
		}
		return lang.Number(n)
	}
	champion := lang.Plain("linked_roles.no")
	if v.Champion {
		champion = lang.Plain("linked_roles.yes")
	}
	l.page(w, http.StatusOK, page{Lang: lang, Title: lang.Plain("linked_roles.title"),
		Text: lang.Plain("linked_roles.linked", "Name", u.name()), Note: lang.Plain("linked_roles.updates"),
		Values: []value{
			{ID: keyBestRating, Name: lang.Plain("linked_roles.meta_" + keyBestRating), Value: num(v.BestRating)},
			{ID: keyGamesPlayed, Name: lang.Plain("linked_roles.meta_" + keyGamesPlayed), Value: lang.Number(v.Games)},
			{ID: keyPuzzleRating, Name: lang.Plain("linked_roles.meta_" + keyPuzzleRating), Value: num(v.PuzzleRating)},
			{ID: keyPuzzlesSolved, Name: lang.Plain("linked_roles.meta_" + keyPuzzlesSolved), Value: lang.Number(v.PuzzlesSolved)},
			{ID: keySeasonChampion, Name: lang.Plain("linked_roles.meta_" + keySeasonChampion), Value: champion},
		}})
}

// link runs the callback's steps and returns the user linked and their
// metadata.
func (l *Linker) link(r *http.Request) (user, Values, error) {
	q := r.URL.Query()
	var cookie string
	if c, err := r.Cookie(cookieName); err == nil {
		cookie = c.Value
	}
	if err := l.states.check(q.Get("state"), cookie, l.cfg.Now()); err != nil {
		return user{}, Values{}, err
	}
	switch {
	case q.Get("error") == "access_denied":
		return user{}, Values{}, errDenied
	case q.Get("error") != "":
		return user{}, Values{}, errUnavailable
	case q.Get("code") == "":
		return user{}, Values{}, errNoCode
	}
	ctx := r.Context()
	g, err := l.api.exchange(ctx, q.Get("code"), l.cfg.Now())
	if err != nil {
		return user{}, Values{}, err
	}
	u, err := l.api.me(ctx, g.Access)
	if err != nil {
		return u, Values{}, err
	}
	link, err := l.store.RoleLink(ctx, u.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		link = &storage.RoleLink{UserID: u.ID}
	case err != nil:
		return u, Values{}, err
	}
	if err := l.guildsOf(ctx, link); err != nil {
		return u, Values{}, err
	}
	v, err := valuesOf(ctx, l.store, link)
	if err != nil {
		return u, Values{}, err
	}
	if err := l.api.putConnection(ctx, g.Access, connection{PlatformName: "Kulami", PlatformUsername: u.name(), Metadata: v.metadata()}); err != nil {
		return u, Values{}, err
	}
	sealed, err := l.seal.seal(u.ID, g)
	if err != nil {
		return u, Values{}, err
	}
	now := l.cfg.Now()
	_, err = l.store.UpdateRoleLink(ctx, u.ID, func(s *storage.RoleLink) error {
		s.Token, s.Linked = sealed, now
		for _, g := range link.Guilds {
			s.AddGuild(g)
		}
		return nil
	})
	return u, v, err
}

// guildsOf adds to a link the guilds the user plays in now: those of
// their active games and of their puzzles. Later rated games add theirs.
func (l *Linker) guildsOf(ctx context.Context, link *storage.RoleLink) error {
	games, err := l.store.PlayerGames(ctx, link.UserID)
	if err != nil {
		return err
	}
	for _, g := range games {
		link.AddGuild(g.GuildID)
	}
	pp, err := l.store.PuzzleProfile(ctx, link.UserID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return err
	default:
		for _, g := range pp.Guilds {
			link.AddGuild(g)
		}
	}
	return nil
}
