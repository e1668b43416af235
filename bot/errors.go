package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
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

// genericFailure is what people see when something unexpected went wrong.
const genericFailure = "Something went wrong on my side and nothing was changed. Please try again in a moment; if it keeps happening, tell the server's admins."

// errorMessages is the one table from the core's sentinel errors to what
// people are told, for errors a handler did not word itself.
var errorMessages = []struct {
	err error
	msg string
}{
	{storage.ErrChannelBusy, "This channel already has a game or an open challenge. Finish it first, or play in another channel or a thread."},
	{storage.ErrStale, "The board changed while you were choosing. Here is what happened: see the latest board in this channel (or **/kulami board**)."},
	{storage.ErrNotFound, "That game or challenge is over. Use **/kulami board** to see this channel's current game, if there is one."},
	{engine.ErrGameOver, "That game is over."},
	{engine.ErrSyntax, "A move is a column letter A–J and a row number 1–10, like **D4**."},
	{engine.ErrOffBoard, "There is no hole there."},
	{engine.ErrOccupied, "That hole already holds a marble."},
	{engine.ErrNotInLine, "Your marble must go in the row or column of the marble just placed."},
	{engine.ErrSamePanel, "Your marble may not go on the panel of the marble just placed."},
	{engine.ErrPreviousPanel, "Your marble may not go on the panel of the marble placed before the last one."},
	{context.DeadlineExceeded, "Discord took too long to answer me. Please try again."},
}

// explain returns what to tell the user about err, and whether err was
// expected (a refusal) rather than a fault to log.
func explain(err error) (string, bool) {
	var ue *userError
	if errors.As(err, &ue) {
		return ue.msg, true
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
