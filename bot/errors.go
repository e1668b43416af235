package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// userError is a refusal meant for the person who typed or clicked: its
// message says what was wrong and what to do.
type userError struct{ msg string }

func (e *userError) Error() string { return e.msg }

// refuse returns a userError with a formatted message.
func refuse(format string, args ...any) error {
	return &userError{fmt.Sprintf(format, args...)}
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

// genericFailure is what people see when something unexpected went wrong.
const genericFailure = "Something went wrong on my side and nothing was changed. Please try again in a moment; if it keeps happening, tell the server's admins."

// errorMessages is the table from sentinel errors to what people are told,
// for errors without a game to word them with.
var errorMessages = []struct {
	err error
	msg string
}{
	{errNoGame, "There is no game in this channel. Start one with **/kulami challenge**, or play me with **/kulami play**."},
	{errGameGone, "This board is from a game that has ended. Start a new one with **/kulami challenge**."},
	{storage.ErrChannelBusy, "This channel already has a game or an open challenge. Finish it first, or play in another channel or a thread."},
	{storage.ErrNotFound, "That game or challenge is over. Use **/kulami board** to see this channel's current game, if there is one."},
	{engine.ErrGameOver, "That game is over."},
	{context.DeadlineExceeded, "Discord took too long to answer me. Please try again."},
}

// explain returns what to tell the user about err, and whether err was
// expected (a refusal) rather than a fault to log. It is the one place
// where errors get the user's words.
func explain(err error) (string, bool) {
	var ue *userError
	if errors.As(err, &ue) {
		return ue.msg, true
	}
	var ge *gameError
	if errors.As(err, &ge) {
		if msg, ok := ge.explain(); ok {
			return msg, true
		}
	}
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		switch rest.Message.Code {
		case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess:
			return "Discord did not let me do that here: I am missing a permission in this channel. Ask an admin to let me View Channel, Send Messages, Send Messages in Threads, Attach Files and Embed Links.", false
		}
	}
	for _, e := range errorMessages {
		if errors.Is(err, e.err) {
			return e.msg, true
		}
	}
	return genericFailure, false
}

// explain words a refusal by the game's rules, or returns false for an
// error that is not one.
func (e *gameError) explain() (string, bool) {
	g := e.g
	players := g.Players()
	name := func(c engine.Color) string { return escape(players[c].Name) }
	by, seatErr := g.Seat(e.user)
	var rule *engine.RuleError
	switch {
	case errors.Is(e.err, game.ErrNotAPlayer):
		return fmt.Sprintf("This game is between %s and %s; you can watch, but not play. Start your own with **/kulami challenge**.",
			name(engine.Red), name(engine.Black)), true
	case errors.Is(e.err, game.ErrNotYourTurn):
		return fmt.Sprintf("It's %s's turn, not yours. You'll be pinged when it's your move.", name(g.ToMove())), true
	case errors.Is(e.err, game.ErrStale):
		return fmt.Sprintf("This board is out of date: the game is at move %d now. The current board is here: %s", g.Ply()+1, boardLink(g)), true
	case errors.Is(e.err, game.ErrTooLateToAbort):
		return "Too late to call it off: both players have made two moves. You can offer a draw with **/kulami draw**, or resign with **/kulami resign**.", true
	case errors.Is(e.err, game.ErrNoDrawOffer):
		return "This draw offer has lapsed: a move was made, or it was answered.", true
	case errors.Is(e.err, game.ErrOwnDrawOffer):
		return fmt.Sprintf("You made this offer; %s has to answer it.", name(by.Other())), true
	case errors.Is(e.err, game.ErrDrawOffered):
		if d := g.DrawOffer(); seatErr == nil && d != nil && d.By == by {
			return fmt.Sprintf("You have already offered a draw; wait for %s to answer.", name(by.Other())), true
		}
		return fmt.Sprintf("%s has offered you a draw: answer with the buttons of their offer.", name(by.Other())), true
	case errors.Is(e.err, game.ErrComputerDeclines):
		return "The computer does not take draws. Play on, or resign with **/kulami resign**.", true
	case errors.Is(e.err, engine.ErrGameOver):
		return "That game has already ended.", true
	case errors.As(e.err, &rule):
		p := g.Position()
		return illegalMove(&p, e.cell, e.err), true
	}
	return "", false
}

// illegalMove says in plain words why cell cannot be played in p and which
// holes can.
func illegalMove(p *engine.Position, cell string, err error) string {
	l := p.Layout()
	last, prev := p.Last()
	name := strings.ToUpper(cell)
	var why string
	switch {
	case errors.Is(err, engine.ErrSyntax):
		why = fmt.Sprintf("“%s” is not a hole: write a column letter A–%c and a row number 1–%d, like **D4**.",
			truncate(cell, 20), 'A'+rune(l.Width()-1), l.Height())
	case errors.Is(err, engine.ErrOffBoard):
		why = fmt.Sprintf("There is no hole at **%s** on this board.", name)
	case errors.Is(err, engine.ErrOccupied):
		why = fmt.Sprintf("**%s** already holds a marble.", name)
	case errors.Is(err, engine.ErrNotInLine):
		why = fmt.Sprintf("**%s** is not in the row or column of the last marble (**%s**): your marble must go in that row or column.", name, l.Cell(last))
	case errors.Is(err, engine.ErrSamePanel):
		why = fmt.Sprintf("**%s** is on the same panel as the last marble (**%s**): you must leave that panel.", name, l.Cell(last))
	case errors.Is(err, engine.ErrPreviousPanel):
		why = fmt.Sprintf("**%s** is on the panel of the marble before the last (**%s**), which is closed for this move.", name, l.Cell(prev))
	default:
		why = err.Error()
	}
	return why + "\nYou can play: " + legalList(p) + "."
}

// legalList lists the legal holes of p.
func legalList(p *engine.Position) string {
	cells := p.Legal().Cells(p.Layout())
	if len(cells) > 30 {
		return fmt.Sprintf("any empty hole (%d of them)", len(cells))
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
	msg, expected := explain(err)
	if !expected {
		b.log.Error("interaction failed", "name", interactionName(c.i), "user", c.user().ID, "channel", c.i.ChannelID, "err", err)
	}
	if c.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		if !c.responded {
			c.choices(nil)
		}
		return
	}
	if err := c.reply(message{content: msg, ephemeral: true}); err != nil {
		b.log.Error("could not tell the user about a failure", "err", err)
	}
}
