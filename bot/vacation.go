package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// vacations handles a player's vacation bank: /kulami vacation start, end
// and status, the games a vacation stops (game.StartVacation and
// EndVacation, in the transaction that changes the bank, which also makes
// their boards due for an edit: boardedit.go), what their opponents are
// told, and the scheduler's wakes of a vacation: the notice a day before
// it runs out and its end. It is safe for concurrent use.
type vacations struct {
	store interface {
		GameStore
		SettingsStore
	}
	banks     daysStore
	clock     Clock
	log       *slog.Logger
	wake      wakeup
	out       *outbound
	langs     *locales
	notices   *notices
	reminders reminder // the reminder of each game whose clock runs again
}

// reminder reminds the player to move in a game that it is their move
// (scheduler.sendReminder).
type reminder interface {
	sendReminder(ctx context.Context, g *storage.Game, note *time.Duration) error
}

// vacationCap is the most a vacation bank holds in a guild of settings s:
// game.VacationCap unless the guild lowered it; 0 when it turned vacations
// off.
func vacationCap(s storage.GuildSettings) time.Duration {
	if s.VacationDays == nil {
		return game.VacationCap
	}
	return min(game.VacationCap, time.Duration(*s.VacationDays)*24*time.Hour)
}

// vacationErrors are the refusals of the vacation bank's rules but
// game.ErrBankEmpty, which says what the bank holds (see start).
var vacationErrors = sentinelWords{
	{game.ErrVacationsOff, "vacation.off"},
	{game.ErrOnVacation, "vacation.already"},
	{game.ErrNotOnVacation, "vacation.not_on"},
}

// vacationRefusal returns the refusal of err, a rule of the bank (whose
// vacation under way ends then), or err itself if it is none.
func vacationRefusal(err error, ends time.Time) error {
	return vacationErrors.refusal(err, "Ends", fullTime(ends))
}

// vacationCommand handles /kulami vacation action:start|end|status.
func (vs *vacations) vacationCommand(c *interaction, o options) error {
	settings, err := vs.store.GuildSettings(c.ctx, c.i.GuildID)
	if err != nil {
		return err
	}
	limit := vacationCap(settings)
	switch o.str("action") {
	case "start":
		return vs.start(c, limit)
	case "end":
		return vs.end(c, limit)
	case "status":
		return vs.status(c, limit)
	}
	return refuse("vacation.pick_action")
}

// start starts the caller's vacation: the bank, and their clock stopped in
// each of their games played over days, in one commit
// (game.StartVacation); then each opponent of a game it stops is told.
// The answer lists the games it stops and the live ones it cannot.
func (vs *vacations) start(c *interaction, limit time.Duration) error {
	me, now := c.user().ID, vs.clock.Now()
	lang := c.lang()
	u, err := vs.store.UserSettings(c.ctx, me)
	if err != nil {
		return err
	}
	var live []*game.Game
	v, games, err := vs.banks.UpdateVacation(c.ctx, me, func(v *storage.Vacation, games []*storage.Game) error {
		plain := plainGames(games)
		opened := v.Vacation
		opened.Open(plain, now)
		bank := opened.Balance(now, limit)
		var err error
		switch live, err = game.StartVacation(&v.Vacation, me, plain, now, limit); {
		case errors.Is(err, game.ErrBankEmpty):
			return refuse("vacation.bank_empty", "Bank", lang.Duration(bank))
		case err != nil:
			return vacationRefusal(err, v.Ends())
		}
		v.Warned = !v.Notice().After(now) // a bank of a day or less: the answer is the warning
		v.NoticeAt = time.Time{}
		if at := u.Quiet.Clear(v.Notice(), zoneOf(u)); !v.Warned && at.After(v.Notice()) && at.Before(v.Ends()) {
			v.NoticeAt = at // not in their quiet hours
		}
		changed := slices.DeleteFunc(slices.Clone(games), func(g *storage.Game) bool { return slices.Contains(live, g.Game) })
		editBoards(changed, now) // each says the player is on vacation
		return nil
	})
	if err != nil {
		return err // a refusal comes wrapped: explain finds it
	}
	vs.wake.poke()
	stopped := slices.DeleteFunc(slices.Clone(games), func(g *storage.Game) bool { return slices.Contains(live, g.Game) })
	running := slices.DeleteFunc(slices.Clone(games), func(g *storage.Game) bool { return !slices.Contains(live, g.Game) })
	text := "🏖️ " + lang.T("vacation.started", "Bank", lang.Duration(v.Bank), "Ends", timestamp(v.Ends()), "EndsAt", fullTime(v.Ends()))
	if len(stopped) > 0 {
		text += "\n" + lang.N("vacation.stops", len(stopped)) + "\n" + vs.gameLines(lang, stopped, me, c.i.GuildID, listBudget/2)
	}
	if len(running) > 0 {
		text += "\n" + lang.N("vacation.live", len(running)) + "\n" + vs.gameLines(lang, running, me, c.i.GuildID, listBudget/2)
	}
	answered := c.say(truncate(text, maxContent))
	for _, g := range stopped {
		vs.tellAway(c.ctx, g, seat(g, me), v.Ends())
	}
	return answered
}

// maxContent is the most characters Discord takes in a message's text.
const maxContent = 2000

// plainGames returns the games of games, for the rules of engine/game.
func plainGames(games []*storage.Game) []*game.Game {
	out := make([]*game.Game, len(games))
	for i, g := range games {
		out[i] = g.Game
	}
	return out
}

// seat returns the colour of userID in g, who plays in it.
func seat(g *storage.Game, userID string) engine.Color {
	c, _ := g.Seat(userID)
	return c
}

// fullTime shows t as a date and time in each reader's own time zone and
// language.
func fullTime(t time.Time) string { return fmt.Sprintf("<t:%d:f>", t.Unix()) }

// tellAway tells the opponent of the player of colour c in g, once for the
// game, that they are on vacation until ends, as a notice of g: in the
// game's channel in the server's language, or by DM in theirs where the
// bot cannot post; without a ping in their quiet hours.
func (vs *vacations) tellAway(ctx context.Context, g *storage.Game, c engine.Color, ends time.Time) {
	opp := g.Player(c.Other())
	if opp.IsAI() {
		return
	}
	err := vs.notices.tell(ctx, g, []string{opp.UserID}, func(lang i18n.Lang, to string) message {
		return message{content: "🏖️ " + lang.T("vacation.told", "Opponent", whoFor(lang, opp, to), "Player", escape(playerName(lang, g.Player(c))),
			"Ends", timestamp(ends), "EndsAt", fullTime(ends))}
	})
	if err != nil {
		vs.log.Warn("cannot tell an opponent of a vacation", "channel", g.ChannelID, "err", err)
	}
}

// awayAtStart tells the new game g, about to be stored, which of its
// players are on vacation (game.Game.Away, from now): their clock starts
// stopped, unless g is live (game.ErrLiveGame: a player on vacation who
// starts a live game plays it). It returns when each player's vacation runs out, zero for a
// player not on vacation, for tellAway once the game is shown.
func (vs *vacations) awayAtStart(ctx context.Context, g *game.Game, now time.Time) ([2]time.Time, error) {
	var ends [2]time.Time
	for col, p := range g.Players() {
		if p.IsAI() {
			continue
		}
		v, err := vs.banks.Vacation(ctx, p.UserID)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		} else if err != nil {
			return ends, err
		}
		if v.On() {
			switch err := g.Away(engine.Color(col), now); {
			case errors.Is(err, game.ErrLiveGame):
				continue // a live game is never stopped, nor its opponent told
			case err != nil:
				return ends, err
			}
			ends[col] = v.Ends()
		}
	}
	return ends, nil
}

// end ends the caller's vacation: their clocks run again.
func (vs *vacations) end(c *interaction, limit time.Duration) error {
	lang := c.lang()
	v, games, err := vs.finish(c.ctx, c.user().ID, vs.clock.Now(), limit, false)
	if err != nil {
		return vacationRefusal(err, v.Ends())
	}
	answered := c.say("👋 " + lang.T("vacation.ended", "Bank", lang.Duration(v.Balance(vs.clock.Now(), limit))))
	vs.remindBack(c.ctx, games, c.user().ID)
	return answered
}

// finish ends the vacation of userID at now (or when it ran out, if
// earlier), and tells each of their games they are back, in one commit
// (game.EndVacation). If ranOut, it does so only if the vacation ran out
// by now (the scheduler's), and returns a nil bank if it did not. It
// returns the bank as it was for a refusal (game.ErrNotOnVacation).
func (vs *vacations) finish(ctx context.Context, userID string, now time.Time, limit time.Duration, ranOut bool) (*storage.Vacation, []*storage.Game, error) {
	var was storage.Vacation
	v, games, err := vs.banks.UpdateVacation(ctx, userID, func(v *storage.Vacation, games []*storage.Game) error {
		was = *v
		if ranOut && (!v.On() || v.Ends().After(now)) {
			return errNotDue
		}
		away := slices.DeleteFunc(slices.Clone(games), func(g *storage.Game) bool { return g.AwaySince(seat(g, userID)).IsZero() })
		if err := game.EndVacation(&v.Vacation, userID, plainGames(games), now, limit); err != nil {
			return err
		}
		v.Warned, v.NoticeAt = false, time.Time{}
		editBoards(away, now) // each said the player was on vacation
		return nil
	})
	if err != nil {
		return &was, nil, err
	}
	vs.wake.poke()
	return v, games, nil
}

// errNotDue: a vacation's wake found nothing to do (it moved on since).
var errNotDue = errors.New("the vacation is not due")

// remindBack sends one reminder in each game of userID where it is their
// move and their clock runs again.
func (vs *vacations) remindBack(ctx context.Context, games []*storage.Game, userID string) {
	for _, g := range games {
		if g.Player(g.ToMove()).UserID != userID || g.Deadline().IsZero() {
			continue
		}
		if err := vs.reminders.sendReminder(ctx, g, nil); err != nil {
			vs.log.Warn("cannot remind a player back from vacation", "channel", g.ChannelID, "err", err)
		}
	}
}

// status shows the caller's bank, how it grows, and their games on every
// server (a vacation stops their clock in each played over days), naming
// the server of one not here. A bank never opened (a player of an earlier
// release) is opened at their oldest running game, and stored: it is
// counted from then on (game.Vacation.Open); a player without a game has
// none yet.
func (vs *vacations) status(c *interaction, limit time.Duration) error {
	me, now, lang := c.user().ID, vs.clock.Now(), c.lang()
	games, err := vs.banks.PlayerGames(c.ctx, me)
	if err != nil {
		return err
	}
	v, err := vs.banks.Vacation(c.ctx, me)
	switch {
	case errors.Is(err, storage.ErrNotFound) && len(games) > 0:
		v, games, err = vs.banks.UpdateVacation(c.ctx, me, func(v *storage.Vacation, games []*storage.Game) error {
			v.Open(plainGames(games), now)
			return nil
		})
	case errors.Is(err, storage.ErrNotFound):
		v, err = &storage.Vacation{UserID: me}, nil
	}
	if err != nil {
		return err
	}
	var lines []string
	switch {
	case limit <= 0:
		lines = append(lines, lang.T("vacation.off"))
	case v.On():
		lines = append(lines, "🏖️ "+lang.T("vacation.status_on", "Since", fullTime(v.Since), "Ends", timestamp(v.Ends()),
			"EndsAt", fullTime(v.Ends()), "Left", lang.Duration(v.Balance(now, limit))))
	case v.Joined.IsZero():
		lines = append(lines, lang.T("vacation.status_off", "Bank", lang.Duration(min(game.VacationStart, limit)), "Cap", lang.Duration(limit)),
			lang.T("vacation.status_unopened"))
	default:
		lines = append(lines, lang.T("vacation.status_off", "Bank", lang.Duration(v.Balance(now, limit)), "Cap", lang.Duration(limit)))
		if next := v.Grows(now, limit); next.IsZero() {
			lines = append(lines, lang.T("vacation.status_full"))
		} else {
			lines = append(lines, lang.T("vacation.status_grows", "Since", fmt.Sprintf("<t:%d:D>", v.Joined.Unix()), "Next", fmt.Sprintf("<t:%d:D>", next.Unix())))
		}
	}
	if len(games) == 0 {
		lines = append(lines, lang.T("vacation.no_games"))
	} else {
		lines = append(lines, lang.T("vacation.games"), vs.gameLines(lang, games, me, c.i.GuildID, listBudget))
	}
	return c.say(truncate(strings.Join(lines, "\n"), maxContent))
}

// gameLines lists in lang the games of userID, a line each, as a
// vacation treats them: live (never stopped), their move with their clock
// stopped or running, their opponent's move; a game of another server
// than guildID by a link. The lines stop where a message would grow too
// long, with how many more there are.
func (vs *vacations) gameLines(lang i18n.Lang, games []*storage.Game, userID, guildID string, budget int) string {
	var out []string
	size := 0
	for i, g := range games {
		col, err := g.Seat(userID)
		if err != nil {
			continue
		}
		opp := escape(playerName(lang, g.Player(col.Other())))
		channel := "<#" + g.ChannelID + ">"
		switch {
		case answerOnly(g) && g.ServerID == "": // a DM or group DM is no server
			channel = lang.T("vacation.in_dm", "Link", placeLink(g, ""))
		case g.GuildID != guildID: // a vacation stops clocks on every server
			channel = lang.T("vacation.elsewhere", "Link", placeLink(g, ""))
		}
		var line string
		switch _, stopped := g.Stopped(); {
		case g.Clock().OneSitting():
			line = lang.T("vacation.game_live", "Channel", channel, "Opponent", opp)
		case g.ToMove() == col && stopped:
			line = lang.T("vacation.game_stopped", "Channel", channel, "Opponent", opp)
		case g.ToMove() == col:
			line = lang.T("vacation.game_your_move", "Channel", channel, "Opponent", opp)
		default:
			line = lang.T("vacation.game_their_move", "Channel", channel, "Opponent", opp)
		}
		if size += len(line) + 3; size > budget && i < len(games)-1 {
			out = append(out, lang.N("vacation.more", len(games)-i))
			break
		}
		out = append(out, line)
	}
	return "• " + strings.Join(out, "\n• ")
}

// listBudget is about the most characters a list of games takes in an
// answer, which Discord cuts at maxContent with the rest of its text.
const listBudget = 1200

// wakeVacation does what is due in the vacation of userID at now: the
// notice a day before it runs out (a direct message), or its end, when
// each game whose clock runs again gets a reminder.
func (vs *vacations) wakeVacation(ctx context.Context, userID string, now time.Time) error {
	v, err := vs.banks.Vacation(ctx, userID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	switch w := v.Wake(); {
	case w.IsZero() || w.After(now):
		return nil // moved on since
	case !v.Ends().After(now): // warned or not: a notice would come too late
		_, games, err := vs.finish(ctx, userID, now, game.VacationCap, true)
		if errors.Is(err, errNotDue) {
			return nil
		} else if err != nil {
			return err
		}
		vs.log.Info("vacation ran out", "user", userID, "games", len(games))
		vs.remindBack(ctx, games, userID)
		return nil
	}
	_, _, err = vs.banks.UpdateVacation(ctx, userID, func(s *storage.Vacation, _ []*storage.Game) error {
		if !s.On() || !s.Since.Equal(v.Since) || s.Warned {
			return errNotDue
		}
		s.Warned = true
		return nil
	})
	if errors.Is(err, errNotDue) {
		return nil
	} else if err != nil {
		return err
	}
	// Marked before it is sent, as a reminder is: never sent twice.
	vs.notices.dm(ctx, nil, userID, func(lang i18n.Lang) message {
		return message{content: "⏳ " + lang.T("vacation.notice", "Ends", timestamp(v.Ends()), "EndsAt", fullTime(v.Ends()))}
	})
	return nil
}
