package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// userError is a refusal meant for the person who typed or clicked: its
// message (a message ID of bot/i18n, its count if it is plural, and its
// placeholders) says what was wrong and what to do.
type userError struct {
	id     string
	plural bool
	n      int
	args   []any
}

func (e *userError) Error() string { return e.in(i18n.English) }

// in returns the refusal's message in lang.
func (e *userError) in(lang i18n.Lang) string {
	if e.plural {
		return lang.N(e.id, e.n, e.args...)
	}
	return lang.T(e.id, e.args...)
}

// refuse returns a userError with the message id and its placeholders, as
// i18n.Lang.T takes them.
func refuse(id string, args ...any) error {
	return &userError{id: id, args: args}
}

// refuseN returns a userError with the plural message id for n, as
// i18n.Lang.N takes it.
func refuseN(id string, n int, args ...any) error {
	return &userError{id: id, plural: true, n: n, args: args}
}

// The bot's own reasons to refuse, worded by explain.
var (
	// errNoGame: the channel has no game.
	errNoGame = errors.New("no game in this channel")
	// errGameGone: a component of a game that has ended, or a change to a
	// game that ended meanwhile.
	errGameGone = errors.New("the game has ended")
)

// gameError is a change to a game refused by the game's rules (a sentinel
// of engine/game or engine), with what explain needs to word it: the game
// as it was, who asked and, for a move, the hole they asked for.
type gameError struct {
	err  error
	g    *storage.Game
	user string // the user ID of who asked
	cell string // the hole asked for, as typed or picked
}

func (e *gameError) Error() string { return e.err.Error() }
func (e *gameError) Unwrap() error { return e.err }

// storedError is a failure after a change committed: posting its board
// (a board posted that the store failed to note is shown, and answered as
// a success: errUnnoted). The change is stored, so the user is told so, never that
// nothing changed or to try again, and that the board follows if it is
// owed (errBoardOwed: the scheduler posts it, see table.owe); it is logged
// as a fault.
type storedError struct{ err error }

func (e *storedError) Error() string { return "stored, but not shown: " + e.err.Error() }
func (e *storedError) Unwrap() error { return e.err }

// challengeError is an answer to a challenge refused by the challenge's
// rules (a sentinel of engine/challenge), with what explain needs to word
// it: the challenge, whether it was declined and, for a rematch, the other
// player of the game.
type challengeError struct {
	err     error
	ch      *storage.Challenge
	decline bool
	other   game.Player
}

func (e *challengeError) Error() string { return e.err.Error() }
func (e *challengeError) Unwrap() error { return e.err }

// sentinelWords is a table from sentinel errors to the message IDs that word
// them.
type sentinelWords []struct {
	err error
	id  string
}

// refusal returns the refusal of the first entry that err is, worded
// with args, or err itself if it is none of them.
func (rs sentinelWords) refusal(err error, args ...any) error {
	for _, r := range rs {
		if errors.Is(err, r.err) {
			return refuse(r.id, args...)
		}
	}
	return err
}

// errorMessages is the table from sentinel errors to what people are told
// (message IDs), for errors without a game to word them with.
var errorMessages = sentinelWords{
	{errNoGame, "error.no_game"},
	{errGameGone, "error.game_gone"},
	{storage.ErrChannelBusy, "error.channel_busy"},
	{storage.ErrNotFound, "error.not_found"},
	{storage.ErrBusy, "error.busy"},
	{engine.ErrGameOver, "error.game_over"},
	{challenge.ErrSelfChallenge, "challenge.yourself"},
	{challenge.ErrExpired, "challenge.expired"},
	{context.DeadlineExceeded, "error.discord_slow"},
}

// explain returns what to tell the user about err in lang, and whether
// err was expected (a refusal) rather than a fault to log. It is the one
// place where errors get the user's words.
func explain(lang i18n.Lang, err error) (string, bool) {
	var se *storedError
	if errors.As(err, &se) {
		if errors.Is(se.err, errBoardOwed) {
			return lang.T("error.stored"), false
		}
		return lang.T("error.stored_unseen"), false
	}
	var ue *userError
	if errors.As(err, &ue) {
		return ue.in(lang), true
	}
	var ge *gameError
	if errors.As(err, &ge) {
		if msg, ok := ge.explain(lang); ok {
			return msg, true
		}
	}
	var ce *challengeError
	if errors.As(err, &ce) {
		if msg, ok := ce.explain(lang); ok {
			return msg, true
		}
	}
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		switch rest.Message.Code {
		case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess:
			return lang.T("error.missing_permission"), false
		}
	}
	for _, e := range errorMessages {
		if errors.Is(err, e.err) {
			return lang.T(e.id), true
		}
	}
	// Something unexpected went wrong.
	return lang.T("error.generic"), false
}

// explain words a refusal by the game's rules in lang, or returns false
// for an error that is not one.
func (e *gameError) explain(lang i18n.Lang) (string, bool) {
	g := e.g
	players := g.Players()
	name := func(c engine.Color) string { return escape(playerName(lang, players[c])) }
	by, seatErr := g.Seat(e.user)
	var rule *engine.RuleError
	var plan *game.PlanError
	switch {
	case errors.Is(e.err, game.ErrNotAPlayer):
		return lang.T("error.not_a_player", "Red", name(engine.Red), "Black", name(engine.Black)), true
	case errors.Is(e.err, game.ErrNotYourTurn):
		return lang.T("error.not_your_turn", "Player", name(g.ToMove())), true
	case errors.Is(e.err, game.ErrStale):
		return lang.T("error.stale", "Move", g.Ply()+1, "Board", boardLink(lang, g)), true
	case errors.Is(e.err, game.ErrTooLateToAbort):
		return lang.T("error.too_late_to_abort"), true
	case errors.Is(e.err, game.ErrNoDrawOffer):
		return lang.T("error.no_draw_offer"), true
	case errors.Is(e.err, game.ErrOwnDrawOffer):
		return lang.T("error.own_draw_offer", "Opponent", name(by.Other())), true
	case errors.Is(e.err, game.ErrDrawOffered):
		if d := g.DrawOffer(); seatErr == nil && d != nil && d.By == by {
			return lang.T("error.draw_offered_by_you", "Opponent", name(by.Other())), true
		}
		return lang.T("error.draw_offered_to_you", "Opponent", name(by.Other())), true
	case errors.Is(e.err, game.ErrComputerDeclines):
		return lang.T("error.computer_declines"), true
	case errors.Is(e.err, engine.ErrGameOver):
		return lang.T("error.game_ended"), true
	case errors.Is(e.err, game.ErrCutoff) && g.Ply() == 0:
		return lang.T("error.cutoff_first", "Due", fullTime(g.MoveCutoff())), true
	case errors.Is(e.err, game.ErrCutoff):
		return lang.T("error.cutoff", "Due", fullTime(g.Cutoff())), true
	case errors.Is(e.err, game.ErrOwnTurn):
		return lang.T("give.own_turn"), true
	case errors.Is(e.err, game.ErrNoClock):
		return lang.T("give.no_clock"), true
	case errors.Is(e.err, game.ErrTimeLimit):
		return lang.T("give.limit", "Opponent", name(g.ToMove()), "Max", lang.Duration(2*g.MoveTime()), "Due", timestamp(g.Deadline())), true
	case errors.Is(e.err, game.ErrNotClaimable) && g.Timeouts() == game.Claim && !g.Deadline().IsZero():
		return lang.T("claim.not_yet", "Player", name(g.ToMove()), "Due", timestamp(g.Deadline())), true
	case errors.Is(e.err, game.ErrNotClaimable):
		return lang.T("claim.none"), true
	case errors.Is(e.err, game.ErrNotClaimant):
		return lang.T("claim.own_clock"), true
	case errors.As(e.err, &plan):
		return lang.T("plan.illegal", "Line", plan.Line, "Move", plan.Move), true
	case errors.Is(e.err, game.ErrPlanTooLong):
		return lang.T("plan.too_long", "Lines", game.MaxPlanLines), true
	case errors.Is(e.err, game.ErrPlanTooDeep):
		return lang.T("plan.too_deep", "Replies", game.MaxPlanDepth), true
	case errors.Is(e.err, game.ErrPlanConflict):
		return lang.T("plan.conflict"), true
	case errors.As(e.err, &rule):
		p := g.Position()
		return illegalMove(lang, &p, e.cell, e.err), true
	}
	return "", false
}

// explain words a refusal by the challenge's rules in lang, or returns
// false for an error that is not one of those that need the challenge.
func (e *challengeError) explain(lang i18n.Lang) (string, bool) {
	ch := e.ch
	switch {
	case errors.Is(e.err, challenge.ErrOwnChallenge) && e.decline:
		return lang.T("challenge.decline_own"), true
	case errors.Is(e.err, challenge.ErrOwnChallenge) && ch.ForAnyone():
		return lang.T("challenge.open_accept_own"), true
	case errors.Is(e.err, challenge.ErrOwnChallenge):
		return lang.T("challenge.accept_own", "Opponent", escape(ch.To.Name)), true
	case errors.Is(e.err, challenge.ErrNotChallenged) && e.decline && ch.ForAnyone():
		return lang.T("challenge.open_decline", "Challenger", escape(ch.From.Name)), true
	case errors.Is(e.err, challenge.ErrNotChallenged) && e.decline:
		return lang.T("challenge.decline_not_yours", "Opponent", escape(ch.To.Name)), true
	case errors.Is(e.err, challenge.ErrNotChallenged):
		return lang.T("challenge.not_for_you", "Opponent", escape(ch.To.Name)), true
	case errors.Is(e.err, challenge.ErrNotChallenger):
		return lang.T("challenge.withdraw_not_yours", "Challenger", escape(ch.From.Name)), true
	case errors.Is(e.err, challenge.ErrRematchOffered):
		return lang.T("rematch.asked", "Opponent", escape(playerName(lang, e.other))), true
	case errors.Is(e.err, challenge.ErrRematchAsked):
		where := ""
		if ch.MessageID != "" {
			where = fmt.Sprintf(": https://discord.com/channels/%s/%s/%s", ch.GuildID, ch.ChannelID, ch.MessageID)
		}
		return lang.T("rematch.asked_you", "Opponent", escape(playerName(lang, e.other)), "Where", where), true
	}
	return "", false
}

// illegalMove says in plain words, in lang, why cell cannot be played in
// p and which holes can.
func illegalMove(lang i18n.Lang, p *engine.Position, cell string, err error) string {
	l := p.Layout()
	last, prev := p.Last()
	name := strings.ToUpper(cell)
	var why string
	switch {
	case errors.Is(err, engine.ErrSyntax):
		why = lang.T("move.syntax", "Typed", truncate(cell, 20), "LastColumn", string('A'+rune(l.Width()-1)), "Rows", l.Height())
	case errors.Is(err, engine.ErrOffBoard):
		why = lang.T("move.off_board", "Hole", name)
	case errors.Is(err, engine.ErrOccupied):
		why = lang.T("move.occupied", "Hole", name)
	case errors.Is(err, engine.ErrNotInLine):
		why = lang.T("move.not_in_line", "Hole", name, "Last", l.Cell(last))
	case errors.Is(err, engine.ErrSamePanel):
		why = lang.T("move.same_panel", "Hole", name, "Last", l.Cell(last))
	case errors.Is(err, engine.ErrPreviousPanel):
		why = lang.T("move.previous_panel", "Hole", name, "Before", l.Cell(prev))
	default:
		why = lang.T("move.illegal", "Hole", name)
	}
	return why + "\n" + lang.T("move.you_can_play", "Holes", legalList(lang, p))
}

// legalList lists the legal holes of p.
func legalList(lang i18n.Lang, p *engine.Position) string {
	cells := p.Legal().Cells(p.Layout())
	if len(cells) > 30 {
		return lang.N("move.any_empty_hole", len(cells))
	}
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}

// fail tells the user why their interaction did not work, in a message
// only they see, and logs anything that was not a plain refusal.
func (b *Bot) fail(c *interaction, err error) {
	msg, expected := explain(c.lang(), err)
	if !expected {
		b.log.Error("interaction failed", "name", interactionName(c.i), "user", c.user().ID, "channel", c.i.ChannelID, "err", err)
	}
	if c.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		if !c.responded() {
			c.choices(nil)
		}
		return
	}
	m := message{content: msg, ephemeral: true}
	if rerr := c.reply(m); rerr != nil {
		b.log.Error("could not tell the user about a failure", "err", rerr)
		var se *storedError
		if errors.As(err, &se) {
			b.play.table.mendFollowup(c, m, rerr)
		}
	}
}
