package bot

import (
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// playing handles a game's play: a move (menu or /kulami move) and its
// autocomplete, /kulami board, resigning, aborting and draw offers. It is
// safe for concurrent use.
type playing struct {
	store GameStore
	clock Clock
	out   *outbound
	langs *locales
	table *table
}

// moveSelect plays the hole picked from a board's menu.
func (pl *playing) moveSelect(c *interaction, id customID) error {
	values := c.i.MessageComponentData().Values
	if len(values) != 1 {
		return refuse("move.pick_one")
	}
	return pl.move(c, id.channel, id.id, id.n, values[0])
}

// moveCommand plays the hole typed with /kulami move.
func (pl *playing) moveCommand(c *interaction, o options) error {
	return pl.move(c, c.i.ChannelID, 0, -1, strings.TrimSpace(o.str("cell")))
}

// move plays cell for the interaction's user in the game of channel
// (gameID, if not zero: the game of the board clicked) as seen at ply
// seen (-1: the current ply, for a typed move), then shows the new board.
func (pl *playing) move(c *interaction, channel string, gameID uint64, seen int, cell string) error {
	now := pl.clock.Now()
	// The answer to this click retires the board clicked. Marked before
	// the move commits, so that no other path (a board noted too late, in
	// this process or another) retires it as well; and outside the
	// store's transaction, which changes nothing but the game: the mark is
	// undone below if the move does not commit, so that the board can
	// still be retired by the path that moves the game past it.
	var clicked string
	var dropped []game.PlanNote // lines of the opponent's plan the move dropped, for a note to them
	if c.i.Message != nil && pl.out.retired.first(c.i.Message.ID, time.Now()) {
		clicked = c.i.Message.ID
	}
	g, old, err := pl.table.update(c.ctx, channel, gameID, asker{user: c.user().ID, cell: cell}, seated(c.user().ID, func(g *storage.Game, by engine.Color) error {
		at, err := engine.ParseCell(cell)
		if err != nil {
			return err
		}
		if seen < 0 {
			seen = g.Ply()
		}
		turn, err := g.PlayTurn(by, seen, at, now)
		if err != nil {
			return err
		}
		dropped = turn.Dropped
		if c.i.Message != nil && g.BoardMessageID == "" {
			// The board is not noted yet: its note, when it comes, must
			// learn that this click retired it.
			g.ClickedBoards = append(g.ClickedBoards, c.i.Message.ID)
			g.ClickedBoards = g.ClickedBoards[max(0, len(g.ClickedBoards)-keptClicks):]
		}
		return nil
	}))
	if err != nil {
		if clicked != "" {
			pl.out.retired.forget(clicked)
		}
		return err
	}
	pl.table.droppedPlans(c.ctx, g, dropped)
	// The move is stored: answer the interaction, then post the board
	// whatever the answer met (a late or failed interaction loses nothing).
	// Where the bot cannot post (answerOnly), the new board itself is
	// the answer, a new message that pings the player to move.
	var answered error
	switch {
	case answerOnly(g):
	case c.i.Type == discordgo.InteractionMessageComponent:
		answered = c.update(retired(c.i.Message))
	default:
		answered = c.say(c.lang().T("move.played", "Hole", strings.ToUpper(cell)))
	}
	return pl.table.shown(c.ctx, c, g, old, answered)
}

// keptClicks is how many boards clicked before they were noted a game
// keeps (storage.Game.ClickedBoards). A note comes within one REST call
// of its board, so a game rarely has one; under overload (the load test
// on a machine with a load average of 12) notes came several moves late.
const keptClicks = 16

// retired is a board message that the game has moved past: the same text
// and image, without its menus.
func retired(m *discordgo.Message) message {
	if m == nil {
		return message{}
	}
	return message{content: m.Content, embeds: m.Embeds}
}

// moveAutocomplete offers the legal holes that start with what was typed.
func (pl *playing) moveAutocomplete(c *interaction, o options) error {
	hint := func(text string) error {
		return c.choices([]*discordgo.ApplicationCommandOptionChoice{{Name: text, Value: "-"}})
	}
	g, err := pl.store.Game(c.ctx, c.i.ChannelID)
	if errors.Is(err, storage.ErrNotFound) {
		return hint(c.lang().T("move.autocomplete_no_game"))
	} else if err != nil {
		return err
	}
	by, err := g.Seat(c.user().ID)
	if err == nil {
		err = g.CheckTurn(by)
	}
	if err != nil {
		msg, _ := explain(c.lang(), &gameError{err: err, g: g, user: c.user().ID})
		return hint(truncate(strings.ReplaceAll(msg, "*", ""), 100))
	}
	p := g.Position()
	typed := strings.ToUpper(strings.TrimSpace(o.str("cell")))
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, cell := range p.Legal().Cells(p.Layout()) {
		h := cell.String()
		if len(out) < maxOptions && strings.HasPrefix(h, typed) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: h, Value: h})
		}
	}
	return c.choices(out)
}

// boardCommand shows the current board again, at the bottom of the channel.
func (pl *playing) boardCommand(c *interaction, _ options) error {
	g, err := pl.table.channelGame(c)
	if err != nil {
		return err
	}
	if err := c.say(c.lang().T("move.board_again")); err != nil {
		return err
	}
	return pl.table.showAgain(c, g)
}
