package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

// rounds runs the tournaments between interactions, for the scheduler:
// the start, the games of each round (each in a thread of its own, with a
// message that pings both players), the adjudication of the games left
// at a round's deadline, the pairing of the next round and the final
// standings. Each step is a transaction of the tournament's, so that
// whichever bot does it, it is done once. It is safe for concurrent use.
type rounds struct {
	store TournamentStore
	games interface {
		GameStore
		SettingsStore
	}
	clock    Clock
	log      *slog.Logger
	out      *outbound
	langs    *locales
	table    *table
	post     *tournamentPosts
	moveTime time.Duration // when neither the tournament nor the guild chooses one
	aiTime   time.Duration // the adjudication's search; ai's default if zero
	// vacations starts a game as every game starts: where its players
	// live, the clock of one on vacation stopped.
	vacations *vacations
}

// wake does what is due at now in the tournament key names (a
// storage.TournamentKey): each step moves it on, until nothing is due.
func (rd *rounds) wake(ctx context.Context, key string, now time.Time) error {
	guild, id, err := storage.ParseTournamentKey(key)
	if err != nil {
		return err
	}
	st, err := rd.store.Tournament(ctx, guild, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	for range 8 { // a step changes the phase or the games; 8 is more than a tournament's steps due at once
		if err != nil {
			return err
		}
		if w := st.Wake(); w.IsZero() || w.After(now) {
			return nil
		}
		switch phase, _ := st.State(); {
		case phase == tournament.Registration:
			st, err = rd.begin(ctx, st, now)
		case phase == tournament.Playing && len(st.Pending()) > 0:
			st, err = rd.openGames(ctx, st, now)
		case phase == tournament.Playing:
			st, err = rd.adjudicate(ctx, st, now)
		case phase == tournament.Between:
			st, err = rd.update(ctx, st, now, func(t *storage.Tournament) error { return t.PairNext(now) })
		default:
			st, err = rd.finish(ctx, st, now)
		}
		if movedOn(err) { // another bot did this step meanwhile: look again
			st, err = rd.store.Tournament(ctx, guild, id)
		}
	}
	return err
}

// movedOn reports whether err refuses a step of a tournament because it
// has moved on since it was read.
func movedOn(err error) bool {
	for _, e := range []error{tournament.ErrStarted, tournament.ErrRoundNotComplete, tournament.ErrFinished, tournament.ErrCancelled} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// update changes st as fn says, at now, and refreshes its announcement.
func (rd *rounds) update(ctx context.Context, st *storage.Tournament, now time.Time, fn func(*storage.Tournament) error) (*storage.Tournament, error) {
	st, err := rd.store.UpdateTournament(ctx, st.GuildID, st.ID, now, fn)
	if err != nil {
		return nil, err
	}
	rd.post.refresh(ctx, st)
	return st, nil
}

// begin starts a tournament whose start is due, or cancels it if it
// cannot start (too few players, or too many rounds for them).
func (rd *rounds) begin(ctx context.Context, st *storage.Tournament, now time.Time) (*storage.Tournament, error) {
	lang := rd.langs.guildLang(ctx, st.GuildID)
	started, err := rd.update(ctx, st, now, func(t *storage.Tournament) error { return t.Start(now) })
	if errors.Is(err, tournament.ErrTooFewPlayers) || errors.Is(err, tournament.ErrTooManyRounds) {
		st, err = rd.update(ctx, st, now, func(t *storage.Tournament) error { return t.Cancel(now) })
		if err != nil {
			return nil, err
		}
		rd.post.dropEvent(ctx, st)
		_, err = rd.out.send(ctx, st.ChannelID, message{content: lang.N("tournament.not_started", st.Active(), "Name", escape(st.Settings().Name))})
		return st, err
	}
	return started, err
}

// openGames opens the games of the current round of st not opened yet,
// and posts the round's pairings in the tournament's channel once all are
// open.
func (rd *rounds) openGames(ctx context.Context, st *storage.Tournament, now time.Time) (*storage.Tournament, error) {
	for _, ref := range st.Pending() {
		if err := rd.openGame(ctx, st, ref, now); err != nil {
			return nil, fmt.Errorf("open game %v of tournament %d: %w", ref, st.ID, err)
		}
	}
	st, err := rd.store.Tournament(ctx, st.GuildID, st.ID)
	if err != nil || len(st.Pending()) > 0 {
		return st, err
	}
	_, n := st.State()
	lang := rd.langs.guildLang(ctx, st.GuildID)
	_, err = rd.out.send(ctx, st.ChannelID, message{content: truncate(pairingsText(lang, st, st.Rounds()[n-1]), 2000)})
	return st, err
}

// seed is the seed of the random board of a pairing: the two games of a
// duplicate pairing share it.
func seed(st *storage.Tournament, ref tournament.GameRef) uint64 {
	return st.ID<<32 ^ uint64(ref.Round)<<16 ^ uint64(ref.Board)
}

// tournamentLayout returns the board of the pairing of ref.
func tournamentLayout(st *storage.Tournament, ref tournament.GameRef) *engine.Layout {
	switch st.Settings().Layout {
	case "random":
		return engine.RandomSquare(seed(st, ref))
	case "irregular":
		return engine.RandomIrregular(seed(st, ref))
	}
	return engine.Square()
}

// openGame opens the game ref of st: in a thread of the tournament's
// channel (or in the channel if the bot cannot open one), with a message
// that pings both players, then its board.
func (rd *rounds) openGame(ctx context.Context, st *storage.Tournament, ref tournament.GameRef, now time.Time) error {
	tg, err := st.Game(ref)
	if err != nil {
		return err
	}
	set := st.Settings()
	rules := engine.Basic
	if set.Rules != "" {
		if rules, err = engine.ParseRules(set.Rules); err != nil {
			return err
		}
	}
	gs, err := rd.games.GuildSettings(ctx, st.GuildID)
	if err != nil {
		return err
	}
	var asked game.Asked
	if set.MoveTime > 0 {
		asked.Clock = &game.MoveTime{Start: set.MoveTime}
	}
	clock, err := defaults(gs, rd.moveTime).Settings(asked, false)
	if err != nil {
		return err
	}
	name := func(id string) string { return cmpStr(st.Names[id], id) }
	cfg := game.Config{Layout: tournamentLayout(st, ref), Rules: rules, First: engine.Red,
		Players: [2]game.Player{{UserID: tg.First, Name: name(tg.First)}, {UserID: tg.Second, Name: name(tg.Second)}}}
	clock.Apply(&cfg)
	gg, away, err := rd.vacations.newGame(ctx, now, configured(cfg, now))
	if err != nil {
		return err
	}
	lang := rd.langs.guildLang(ctx, st.GuildID)
	g := placed(storage.Game{GuildID: st.GuildID, ChannelID: st.ChannelID, Tournament: &storage.TournamentGame{ID: st.ID, Ref: ref}}, gg, now)
	thread := truncate(lang.T("tournament.thread_name", "Name", set.Name, "Round", ref.Round, "Board", ref.Board, "Game", ref.Game,
		"Red", name(tg.First), "Black", name(tg.Second)), 100)
	th, err := rd.out.session.ThreadStartComplex(st.ChannelID, &discordgo.ThreadStart{Name: thread, AutoArchiveDuration: 10080,
		Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx))
	if err != nil {
		rd.log.Warn("cannot open a thread for a tournament game; trying the channel", "channel", st.ChannelID, "err", err)
	} else {
		g.ChannelID, g.ParentChannelID = th.ID, st.ChannelID
	}
	if err := rd.store.OpenTournamentGame(ctx, g, now); errors.Is(err, storage.ErrOpened) {
		return nil // opened meanwhile
	} else if err != nil {
		return err
	}
	r := st.Rounds()[ref.Round-1]
	text := lang.T("tournament.game_ping", "Name", escape(set.Name), "Round", ref.Round, "Board", ref.Board,
		"Red", "<@"+tg.First+">", "Black", "<@"+tg.Second+">", "Deadline", fmt.Sprintf("<t:%d:f>", r.Deadline.Unix()))
	if set.Duplicate {
		text += "\n" + lang.T("tournament.game_duplicate", "Game", ref.Game)
	}
	if _, err := rd.out.send(ctx, g.ChannelID, message{content: text, mentions: []string{tg.First, tg.Second}}); err != nil {
		return err
	}
	err = rd.table.show(ctx, nil, g, "")
	rd.vacations.tellAllAway(ctx, g, away)
	return err
}

// adjudicate adjudicates the games of st left unfinished at its round's
// deadline, each in its own transaction.
func (rd *rounds) adjudicate(ctx context.Context, st *storage.Tournament, now time.Time) (*storage.Tournament, error) {
	for _, ref := range st.Overdue(now) {
		if err := rd.adjudicateGame(ctx, st, ref, now); err != nil {
			return nil, fmt.Errorf("adjudicate game %v of tournament %d: %w", ref, st.ID, err)
		}
	}
	return rd.store.Tournament(ctx, st.GuildID, st.ID)
}

// adjudicateGame adjudicates the game ref of st: with 20 holes or fewer
// left, by the exact solver; otherwise by the hard level's evaluation. A
// game no longer in its channel (ended without a result, such as
// abandoned) is a draw. The verdict is stored in the tournament first,
// with its reason; then the game ends with the verdict the tournament
// keeps (game.Adjudicated, rated as any result), so the two agree even if
// another bot judged it meanwhile, and its channel is told how.
func (rd *rounds) adjudicateGame(ctx context.Context, st *storage.Tournament, ref tournament.GameRef, now time.Time) error {
	channel := st.Opened[ref.String()]
	g, err := rd.games.Game(ctx, channel)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	if err == nil && (g.Tournament == nil || g.Tournament.ID != st.ID || g.Tournament.Ref != ref) {
		g = nil
	}
	tg, err := st.Game(ref)
	if err != nil {
		return err
	}
	res, reason := tournament.Drawn, reasonGone
	if g != nil {
		if res, reason, err = rd.judge(ctx, g, tg); err != nil {
			return err
		}
	}
	st, err = rd.store.UpdateTournament(ctx, st.GuildID, st.ID, now, func(t *storage.Tournament) error {
		return t.Adjudicate(ref, res, reason, now)
	})
	if errors.Is(err, tournament.ErrResultRecorded) { // adjudicated meanwhile, or ended by its players
		st, err = rd.store.Tournament(ctx, st.GuildID, st.ID)
	}
	if err != nil {
		return err
	}
	if tg, err = st.Game(ref); err != nil || g == nil || !tg.Adjudicated {
		return err
	}
	g, old, err := rd.table.update(ctx, channel, g.ID, byBot, func(g *storage.Game) error {
		if tg.Result == tournament.Drawn {
			return g.Adjudicate(0, true, now)
		}
		winner := tg.First
		if tg.Result == tournament.SecondWon {
			winner = tg.Second
		}
		c, err := g.Seat(winner)
		if err != nil {
			return err
		}
		return g.Adjudicate(c, false, now)
	})
	if errors.Is(err, errGameGone) || errors.Is(err, engine.ErrGameOver) {
		return nil
	} else if err != nil {
		return err
	}
	lang := rd.langs.guildLang(ctx, st.GuildID)
	text := "⚖️ " + lang.T("tournament.adjudicated", "Round", ref.Round, "By", judgedBy(lang, tg.Reason, g), "Result", tournamentResult(lang, tg))
	if _, err := rd.out.send(ctx, channel, message{content: text, mentions: []string{tg.First, tg.Second}}); err != nil {
		return err
	}
	return rd.table.show(ctx, nil, g, old)
}

// The reasons of an adjudication, as the tournament keeps them: the exact
// solver's result, the hard level's evaluation (followed by the chance it
// gives the player to move), or a draw for a game that was gone.
const (
	reasonSolver = "exact solver"
	reasonHard   = "hard evaluation "
	reasonGone   = "no game"
)

// judge computes the result of g, a tournament game tg left unfinished:
// the exact solver's with 20 holes or fewer left (when it proves it in
// time), otherwise the hard level's evaluation of the position. It
// returns the result and its reason.
func (rd *rounds) judge(ctx context.Context, g *storage.Game, tg tournament.Game) (tournament.Result, string, error) {
	cfg := ai.Hard.Config()
	if rd.aiTime > 0 {
		cfg.Time = rd.aiTime
	}
	pos := g.Position()
	if engine.MaxPly-pos.Ply() <= cfg.SolvePlies {
		cfg.SolveAlongside = false // the solver first, with half the time
	}
	m, err := cfg.Move(ctx, pos, g.Rules())
	if err != nil {
		return 0, "", err
	}
	mover := g.Player(pos.ToMove()).UserID
	res := tournament.Drawn
	switch {
	case m.WinChance > 0.5 && mover == tg.First, m.WinChance < 0.5 && mover != tg.First:
		res = tournament.FirstWon
	case m.WinChance != 0.5:
		res = tournament.SecondWon
	}
	if m.Proven {
		return res, reasonSolver, nil
	}
	return res, fmt.Sprintf("%s%.0f%%", reasonHard, 100*m.WinChance), nil
}

// judgedBy says in lang by what the game g was adjudicated, from the
// reason the tournament keeps.
func judgedBy(lang i18n.Lang, reason string, g *storage.Game) string {
	switch chance, hard := strings.CutPrefix(reason, reasonHard); {
	case reason == reasonSolver:
		return lang.T("tournament.by_solver")
	case hard:
		return lang.T("tournament.by_hard", "Chance", chance, "Player", who(lang, g.Player(g.ToMove())))
	}
	return lang.T("tournament.by_nothing")
}

// tournamentResult says in lang the result of the tournament game tg.
func tournamentResult(lang i18n.Lang, tg tournament.Game) string {
	switch tg.Result {
	case tournament.FirstWon:
		return lang.T("tournament.result_win", "Player", "<@"+tg.First+">")
	case tournament.SecondWon:
		return lang.T("tournament.result_win", "Player", "<@"+tg.Second+">")
	}
	return lang.T("tournament.result_draw")
}

// finish posts the final standings of a finished tournament, once.
func (rd *rounds) finish(ctx context.Context, st *storage.Tournament, now time.Time) (*storage.Tournament, error) {
	if err := rd.post.postStandings(ctx, st); err != nil {
		return nil, err
	}
	return rd.update(ctx, st, now, func(t *storage.Tournament) error {
		t.FinalPosted = true
		return nil
	})
}

// noShow tells the channel of g, a tournament game lost on time before a
// first move, that its player is withdrawn and may join again.
func (rd *rounds) noShow(ctx context.Context, g *storage.Game) {
	st, err := rd.store.Tournament(ctx, g.GuildID, g.Tournament.ID)
	if err != nil {
		rd.log.Warn("cannot read the tournament of a no-show", "channel", g.ChannelID, "err", err)
		return
	}
	lang := rd.langs.guildLang(ctx, g.GuildID)
	who := g.Player(g.Result().Winner.Other()).UserID
	text := lang.T("tournament.no_show", "Player", "<@"+who+">", "Name", escape(st.Settings().Name))
	if _, err := rd.out.send(ctx, g.ChannelID, message{content: text, mentions: []string{who}}); err != nil {
		rd.log.Warn("cannot tell a no-show", "channel", g.ChannelID, "err", err)
	}
}
