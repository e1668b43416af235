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
// storage.TournamentKey): each step the tournament owes (its
// storage.Tournament.Step, the domain's tournament.Tournament.Next) moves
// it on, until nothing is due.
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
		step, at := st.Step()
		if step == tournament.Idle || at.After(now) {
			return nil
		}
		switch step {
		case tournament.Begin:
			st, err = rd.begin(ctx, st, now)
		case tournament.OpenGames:
			st, err = rd.openGames(ctx, st, now)
		case tournament.CloseRound:
			st, err = rd.closeRound(ctx, st, now)
		case tournament.PairRound:
			st, err = rd.update(ctx, st, now, func(t *storage.Tournament) error { return t.PairNext(now) })
		case tournament.PostFinal:
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
// cannot start (too few players, or too many rounds for them), and says
// which in the tournament's channel.
func (rd *rounds) begin(ctx context.Context, st *storage.Tournament, now time.Time) (*storage.Tournament, error) {
	started, err := rd.update(ctx, st, now, func(t *storage.Tournament) error { return t.Start(now) })
	if errors.Is(err, tournament.ErrTooFewPlayers) || errors.Is(err, tournament.ErrTooManyRounds) {
		startErr := err
		st, _, err = rd.store.CancelTournament(ctx, st.GuildID, st.ID, now, nil)
		if err != nil {
			return nil, err
		}
		rd.post.refresh(ctx, st)
		rd.post.dropEvent(ctx, st)
		lang := rd.langs.guildLang(ctx, st.GuildID)
		text := lang.N("tournament.not_started", st.Active(), "Name", escape(st.Settings().Name))
		if re := (*tournament.RoundsError)(nil); errors.As(startErr, &re) {
			text = lang.T("tournament.not_started_rounds", "Name", escape(st.Settings().Name), "Rounds", re.Rounds, "Count", st.Active(), "Max", re.Max)
		}
		_, err = rd.table.notices.post(ctx, nil, st.ChannelID, message{content: text})
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
	return st, rd.postPairings(ctx, st)
}

// postPairings posts the pairings of the current round of st in its
// channel: the players of its games are pinged in their games' threads,
// the player with the bye here (the one notice that tells them), unless
// it is their quiet hours.
func (rd *rounds) postPairings(ctx context.Context, st *storage.Tournament) error {
	_, n := st.State()
	r := st.Rounds()[n-1]
	lang := rd.langs.guildLang(ctx, st.GuildID)
	m := message{content: truncate(pairingsText(lang, st, r), 2000)}
	if r.Bye != "" {
		m.mentions = []string{r.Bye}
	}
	_, err := rd.table.notices.post(ctx, nil, st.ChannelID, m)
	return err
}

// openGame opens the game ref of st: in a thread of the tournament's
// channel (or in the channel if the bot cannot open one), with a message
// that pings both players, then its board. The game is what the
// tournament says (tournament.Tournament.GameConfig), with the clock and
// comforts every new game resolves (game.Defaults: the tournament's move
// time, else the server's, else the bot's).
func (rd *rounds) openGame(ctx context.Context, st *storage.Tournament, ref tournament.GameRef, now time.Time) error {
	tg, err := st.Game(ref)
	if err != nil {
		return err
	}
	set := st.Settings()
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
	var base game.Config
	clock.Apply(&base)
	cfg, err := st.GameConfig(ref, st.ID, st.Names, base)
	if err != nil {
		return err
	}
	gg, away, err := rd.vacations.newGame(ctx, now, configured(cfg, now))
	if err != nil {
		return err
	}
	lang := rd.langs.guildLang(ctx, st.GuildID)
	name := func(id string) string { return cmpStr(st.Names[id], id) }
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
	text := lang.T("tournament.game_ping", "Name", escape(set.Name), "Round", ref.Round, "Board", ref.Board,
		"Red", "<@"+tg.First+">", "Black", "<@"+tg.Second+">", "Deadline", fullTime(g.Cutoff()))
	if set.Duplicate {
		text += "\n" + lang.T("tournament.game_duplicate", "Game", ref.Game)
	}
	if _, err := rd.table.notices.post(ctx, g.Game, g.ChannelID, message{content: text, mentions: []string{tg.First, tg.Second}}); err != nil {
		return err
	}
	err = rd.table.show(ctx, nil, g, "")
	rd.vacations.tellAllAway(ctx, g, away)
	return err
}

// closeRound closes the games of st left unfinished at its round's
// deadline, each in its own transactions (closeGame).
func (rd *rounds) closeRound(ctx context.Context, st *storage.Tournament, now time.Time) (*storage.Tournament, error) {
	for _, ref := range st.Overdue(now) {
		if err := rd.closeGame(ctx, st, ref, now); err != nil {
			return nil, fmt.Errorf("close game %v of tournament %d: %w", ref, st.ID, err)
		}
	}
	return rd.store.Tournament(ctx, st.GuildID, st.ID)
}

// errJudge leaves a game at its round's deadline to the judge: its clocks
// do not decide it.
var errJudge = errors.New("the game is the judge's")

// closeGame closes the game ref of st at its round's deadline, as the
// tournament's rules say: by its clocks if they decide it (a player who
// never moved forfeits; a clock that ran out loses), else by adjudication
// (adjudicateGame); a game that is gone is a draw.
func (rd *rounds) closeGame(ctx context.Context, st *storage.Tournament, ref tournament.GameRef, now time.Time) error {
	g, err := rd.roundGame(ctx, st, ref)
	if err != nil {
		return err
	}
	if g == nil {
		_, err := rd.store.UpdateTournament(ctx, st.GuildID, st.ID, now, func(t *storage.Tournament) error { return t.Gone(ref, now) })
		if errors.Is(err, tournament.ErrResultRecorded) {
			return nil // decided meanwhile
		}
		return err
	}
	done, old, err := rd.table.update(ctx, g.ChannelID, g.ID, byBot, func(g *storage.Game) error {
		ended, err := st.EndOnTime(ref, g.Game, now)
		if err == nil && !ended {
			return errJudge
		}
		return err
	})
	switch {
	case err == nil:
		return rd.ended(ctx, done, old)
	case errors.Is(err, errJudge):
		return rd.adjudicateGame(ctx, st, ref, g, now)
	case errors.Is(err, errGameGone), errors.Is(err, errNoGame), errors.Is(err, engine.ErrGameOver):
		return nil // ended meanwhile
	}
	return err
}

// roundGame returns the game ref of st as stored, or nil if it is gone
// (it ended without a result, or its channel holds another game now).
func (rd *rounds) roundGame(ctx context.Context, st *storage.Tournament, ref tournament.GameRef) (*storage.Game, error) {
	g, err := rd.games.Game(ctx, st.Opened[ref.String()])
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if l := g.Tournament; l == nil || l.ID != st.ID || l.Ref != ref {
		return nil, nil
	}
	return g, nil
}

// ended shows g, a tournament game that has just ended by its clocks (a
// forfeit, or a loss on time), with old its board before, and tells its
// players what a forfeit means for them (forfeited).
func (rd *rounds) ended(ctx context.Context, g *storage.Game, old string) error {
	err := rd.table.show(ctx, nil, g, old)
	rd.forfeited(ctx, g)
	return err
}

// adjudicateGame adjudicates g, the game ref of st, which both players
// moved in: the verdict (tournament.Tournament.Judge) is stored in the
// tournament first, with its reason; then the game ends with the verdict
// the tournament keeps (EndAsJudged: game.Adjudicated, rated as any
// result), so the two agree even if another bot judged it meanwhile, and
// its channel is told how.
func (rd *rounds) adjudicateGame(ctx context.Context, st *storage.Tournament, ref tournament.GameRef, g *storage.Game, now time.Time) error {
	v, err := st.Judge(ctx, ref, g.Game, rd.aiTime)
	if err != nil {
		return err
	}
	st, err = rd.store.UpdateTournament(ctx, st.GuildID, st.ID, now, func(t *storage.Tournament) error {
		return t.Adjudicate(ref, v.Result, v.Reason, now)
	})
	if errors.Is(err, tournament.ErrResultRecorded) { // adjudicated meanwhile, or ended by its players
		st, err = rd.store.Tournament(ctx, st.GuildID, st.ID)
	}
	if err != nil {
		return err
	}
	tg, err := st.Game(ref)
	if err != nil || !tg.Adjudicated {
		return err
	}
	g, old, err := rd.table.update(ctx, g.ChannelID, g.ID, byBot, func(g *storage.Game) error {
		return st.EndAsJudged(ref, g.Game, now)
	})
	if errors.Is(err, errGameGone) || errors.Is(err, errNoGame) || errors.Is(err, engine.ErrGameOver) {
		return nil
	} else if err != nil {
		return err
	}
	lang := rd.langs.guildLang(ctx, st.GuildID)
	text := "⚖️ " + lang.T("tournament.adjudicated", "Round", ref.Round, "By", judgedBy(lang, tg.Reason, g), "Result", tournamentResult(lang, tg))
	if _, err := rd.table.notices.post(ctx, g.Game, g.ChannelID, message{content: text, mentions: []string{tg.First, tg.Second}}); err != nil {
		return err
	}
	return rd.table.show(ctx, nil, g, old)
}

// judgedBy says in lang by what the game g was adjudicated, from the
// reason the tournament keeps.
func judgedBy(lang i18n.Lang, reason string, g *storage.Game) string {
	switch chance, hard := strings.CutPrefix(reason, tournament.ReasonHard); {
	case reason == tournament.ReasonSolver:
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

// forfeited tells the players of g, a tournament game that has just ended
// (whoever ended it: its own clock, or the round's deadline), what a
// forfeit means for the tournament, in the game's channel: the player
// whom it withdrew, once however many games of the pairing they forfeit,
// that they are withdrawn and whether they may still come back
// (tournament.Tournament.Comeback: while the round is played; else, the
// next round being paired at once, as a late joiner if late joins stay
// open; else not, and they are not invited); and both players of a double
// forfeit, in each game of the pairing, that neither played it.
func (rd *rounds) forfeited(ctx context.Context, g *storage.Game) {
	if g.Tournament == nil || g.Result().Ending != game.Unstarted {
		return
	}
	st, err := rd.store.Tournament(ctx, g.GuildID, g.Tournament.ID)
	if err != nil {
		rd.log.Warn("cannot read the tournament of a forfeit", "channel", g.ChannelID, "err", err)
		return
	}
	lang := rd.langs.guildLang(ctx, g.GuildID)
	ref, name := g.Tournament.Ref, escape(st.Settings().Name)
	if g.Tournament.Double {
		p, err := st.Pairing(ref)
		if err != nil {
			return
		}
		text := lang.T("tournament.double_forfeit", "First", "<@"+p.First+">", "Second", "<@"+p.Second+">", "Round", ref.Round, "Board", ref.Board)
		for i := range p.Games {
			other := tournament.GameRef{Round: ref.Round, Board: ref.Board, Game: i + 1}
			if ch := st.Opened[other.String()]; ch != "" {
				rd.notify(ctx, ch, message{content: "⚖️ " + text, mentions: []string{p.First, p.Second}})
			}
		}
	}
	who := st.WithdrawnBy(ref)
	if who == "" {
		return
	}
	var text string
	switch st.Comeback(who, rd.clock.Now()) {
	case tournament.ComebackThisRound:
		text = lang.T("tournament.no_show", "Player", "<@"+who+">", "Name", name, "Round", ref.Round,
			"Deadline", fullTime(st.Rounds()[ref.Round-1].Deadline))
	case tournament.ComebackLater:
		text = lang.T("tournament.no_show_later", "Player", "<@"+who+">", "Name", name, "Round", ref.Round+1)
	default:
		text = lang.T("tournament.no_show_out", "Player", "<@"+who+">", "Name", name, "Round", ref.Round+1)
	}
	rd.notify(ctx, g.ChannelID, message{content: text, mentions: []string{who}})
}

// notify sends m to channel, a notice (quiet hours kept); a failure is
// only logged.
func (rd *rounds) notify(ctx context.Context, channel string, m message) {
	if _, err := rd.table.notices.post(ctx, nil, channel, m); err != nil {
		rd.log.Warn("cannot post a tournament notice", "channel", channel, "err", err)
	}
}

// released tells the channels of the games of st, cancelled, that go on
// as casual games (storage's CancelTournament released them) that they
// do, pinging nobody (the cancel's post pinged their players); their
// boards are edited by the scheduler (boardedit.go).
func (rd *rounds) released(ctx context.Context, st *storage.Tournament, games []*storage.Game) {
	lang := rd.langs.guildLang(ctx, st.GuildID)
	for _, g := range games {
		rd.notify(ctx, g.ChannelID, message{content: "🏆 " + lang.T("tournament.released", "Name", escape(st.Settings().Name))})
	}
}
