package bot

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// aiGrace is how long the scheduler leaves the computer's move to the
// interaction that made it the computer's turn, before it moves itself
// (after a restart, say).
const aiGrace = 30 * time.Second

// setClock starts the clock of the player to move in g at now: a deadline
// MoveTime away, with the scheduler woken for the reminders and the
// timeout; for the computer, a wake-up in case its move is lost.
func (b *Bot) setClock(g *storage.Game, now time.Time) {
	g.Reminders, g.Deadline, g.WakeAt = 0, time.Time{}, time.Time{}
	switch {
	case g.Result != nil:
	case g.Players[g.ToMove()].IsAI():
		g.WakeAt = now.Add(aiGrace)
	case g.MoveTime > 0:
		g.Deadline = now.Add(g.MoveTime)
		g.WakeAt = nextWake(g)
	}
}

// reminderShares are the parts of the move time left when the reminders
// go out: at half the time and with a tenth left.
var reminderShares = []time.Duration{2, 10}

// nextWake is when the scheduler must next look at a game whose clock
// runs: the next reminder not yet sent, else the deadline.
func nextWake(g *storage.Game) time.Time {
	if int(g.Reminders) < len(reminderShares) {
		return g.Deadline.Add(-g.MoveTime / reminderShares[g.Reminders])
	}
	return g.Deadline
}

// channelGame returns the game of the interaction's channel.
func (b *Bot) channelGame(c *interaction) (*storage.Game, error) {
	g, err := b.store.Game(c.i.ChannelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, refuse("There is no game in this channel. Start one with **/kulami challenge**, or play me with **/kulami play**.")
	}
	return g, err
}

// boardLink is a link to the message that shows the game's board.
func boardLink(g *storage.Game) string {
	if g.BoardMessageID == "" {
		return "**/kulami board** shows it"
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", g.GuildID, g.ChannelID, g.BoardMessageID)
}

// clickedGame returns the game a board's component belongs to, or explains
// why the click cannot count.
func (b *Bot) clickedGame(c *interaction, id customID) (*storage.Game, error) {
	g, err := b.store.Game(id.channel)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && g.ID != id.id):
		if err == nil {
			return nil, refuse("This board is from a game that has ended. The game in this channel now is here: %s", boardLink(g))
		}
		return nil, refuse("This board is from a game that has ended. Start a new one with **/kulami challenge**.")
	case err != nil:
		return nil, err
	}
	if _, ok := g.PlayerColor(c.user().ID); !ok {
		return nil, refuse("This game is between %s and %s; you can watch, but not play. Start your own with **/kulami challenge**.",
			escape(g.Players[engine.Red].Name), escape(g.Players[engine.Black].Name))
	}
	return g, nil
}

// moveSelect plays the hole picked from a board's menu.
func (b *Bot) moveSelect(c *interaction, id customID) error {
	g, err := b.clickedGame(c, id)
	if err != nil {
		return err
	}
	if id.n != g.Ply() {
		return refuse("This board is out of date: the game is at move %d now. The current board is here: %s", g.Ply()+1, boardLink(g))
	}
	values := c.i.MessageComponentData().Values
	if len(values) != 1 {
		return refuse("Pick one hole from the menu.")
	}
	return b.move(c, g, id.n, values[0])
}

// moveCommand plays the hole typed with /kulami move.
func (b *Bot) moveCommand(c *interaction, o options) error {
	g, err := b.channelGame(c)
	if err != nil {
		return err
	}
	return b.move(c, g, g.Ply(), strings.TrimSpace(o.str("cell")))
}

// move plays cell for the interaction's user in g as seen at ply, then
// shows the new board (and lets the computer answer in games against it).
func (b *Bot) move(c *interaction, seen *storage.Game, ply int, cell string) error {
	userID := c.user().ID
	old := seen.BoardMessageID
	now := b.clock.Now()
	g, err := b.store.UpdateGame(seen.ChannelID, func(g *storage.Game) error {
		if g.ID != seen.ID || g.Ply() != ply {
			return storage.ErrStale
		}
		if err := checkTurn(g, userID); err != nil {
			return err
		}
		if err := b.playCell(g, cell, now); err != nil {
			return err
		}
		old = g.BoardMessageID
		return nil
	})
	if errors.Is(err, storage.ErrStale) {
		cur, err2 := b.store.Game(seen.ChannelID)
		if err2 != nil {
			return refuse("The game ended while you were choosing.")
		}
		return refuse("The board changed while you were choosing: the game is at move %d now. The current board is here: %s", cur.Ply()+1, boardLink(cur))
	}
	if err != nil {
		return err
	}
	b.poke()
	if c.i.Type == discordgo.InteractionMessageComponent {
		if err := c.update(retired(c.i.Message)); err != nil {
			return err
		}
	}
	return b.afterMove(c, g, old)
}

// checkTurn refuses a move by someone who does not play in g or whose turn
// it is not.
func checkTurn(g *storage.Game, userID string) error {
	color, ok := g.PlayerColor(userID)
	switch {
	case !ok:
		return refuse("This game is between %s and %s; you can watch, but not play. Start your own with **/kulami challenge**.",
			escape(g.Players[engine.Red].Name), escape(g.Players[engine.Black].Name))
	case color != g.ToMove():
		return refuse("It's %s's turn, not yours. You'll be pinged when it's your move.", escape(g.Players[g.ToMove()].Name))
	}
	return nil
}

// playCell plays cell (as typed or picked) in g at now and restarts the
// clock; an illegal move is refused in plain words with the legal holes.
func (b *Bot) playCell(g *storage.Game, cell string, now time.Time) error {
	p, err := g.Position()
	if err != nil {
		return err
	}
	if err := p.PlayMove(cell); err != nil {
		return refuse("%s", illegalMove(&p, cell, err))
	}
	c, _ := engine.ParseCell(cell)
	if _, err := g.Play(c, now); err != nil {
		return err
	}
	g.DrawOffer = nil
	b.setClock(g, now)
	return nil
}

// illegalMove says in plain words why cell cannot be played in p and which
// holes can.
func illegalMove(p *engine.Position, cell string, err error) string {
	l := p.Layout()
	last, prev := p.Last()
	name := strings.ToUpper(cell)
	var why string
	switch {
	case errors.Is(err, engine.ErrGameOver):
		return "The game is over."
	case errors.Is(err, engine.ErrSyntax):
		why = fmt.Sprintf("“%s” is not a hole: write a column letter A–J and a row number 1–10, like **D4**.", truncate(cell, 20))
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
	l := p.Layout()
	var s []string
	for _, c := range p.Legal().Cells(l) {
		s = append(s, c.String())
	}
	if len(s) > 30 {
		return fmt.Sprintf("any empty hole (%d of them)", len(s))
	}
	return strings.Join(s, ", ")
}

// retired is a board message that the game has moved past: the same text
// and image, without its menus.
func retired(m *discordgo.Message) message {
	if m == nil {
		return message{}
	}
	return message{content: m.Content, embeds: m.Embeds}
}

// afterMove shows the board of g after a change of position: in reply to c
// when g is played in c's channel (c may be nil), else as a message in g's
// channel. It retires the old board, remembers the new one and, in a game
// against the computer, has it answer.
func (b *Bot) afterMove(c *interaction, g *storage.Game, oldBoard string) error {
	p, err := g.Position()
	if err != nil {
		return err
	}
	m, err := b.boardMessage(g, &p)
	if err != nil {
		return err
	}
	msg, err := b.publish(c, g.ChannelID, m)
	if err != nil {
		return fmt.Errorf("post the board: %w", err)
	}
	if oldBoard != "" && (c == nil || c.i.Message == nil || c.i.Message.ID != oldBoard) {
		b.retire(g.ChannelID, oldBoard)
	}
	if g.Result != nil {
		return nil
	}
	ply := g.Ply()
	_, err = b.store.UpdateGame(g.ChannelID, func(s *storage.Game) error {
		if s.ID != g.ID || s.Ply() != ply {
			return storage.ErrStale // a newer board is out
		}
		s.BoardMessageID = msg.ID
		return nil
	})
	switch {
	case errors.Is(err, storage.ErrStale) || errors.Is(err, storage.ErrNotFound):
		// The game moved on before this board was remembered, so the
		// move that did it could not retire it: do it here.
		b.retire(g.ChannelID, msg.ID)
		return nil
	case err != nil:
		return err
	}
	if g.Players[g.ToMove()].IsAI() {
		return b.aiMove(c, g.ChannelID, g.ID, ply, msg.ID)
	}
	return nil
}

// publish posts m in channelID: as the answer to c if c was sent there,
// else as a message of the bot.
func (b *Bot) publish(c *interaction, channelID string, m message) (*discordgo.Message, error) {
	if c != nil && c.i.ChannelID == channelID {
		return c.post(m)
	}
	return b.send(channelID, m)
}

// send posts m in a channel, as the bot.
func (b *Bot) send(channelID string, m message) (*discordgo.Message, error) {
	comps := m.components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return b.session.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      comps,
		Files:           m.files(),
		AllowedMentions: m.allowedMentions(),
	}, discordgo.WithContext(b.baseCtx))
}

// retire removes the menus of an old board message. A board that cannot be
// edited (deleted, say) is left alone: its clicks are refused anyway.
func (b *Bot) retire(channelID, messageID string) {
	_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Components: &[]discordgo.MessageComponent{},
	}, discordgo.WithContext(b.baseCtx))
	if err != nil {
		b.log.Warn("cannot retire an old board", "channel", channelID, "message", messageID, "err", err)
	}
}

// moveAutocomplete offers the legal holes that start with what was typed.
func (b *Bot) moveAutocomplete(c *interaction, o options) error {
	hint := func(text string) error {
		return c.choices([]*discordgo.ApplicationCommandOptionChoice{{Name: text, Value: "-"}})
	}
	g, err := b.store.Game(c.i.ChannelID)
	if errors.Is(err, storage.ErrNotFound) {
		return hint("No game in this channel: start one with /kulami challenge")
	} else if err != nil {
		return err
	}
	if err := checkTurn(g, c.user().ID); err != nil {
		var ue *userError
		if errors.As(err, &ue) {
			return hint(truncate(strings.ReplaceAll(ue.msg, "*", ""), 100))
		}
		return err
	}
	p, err := g.Position()
	if err != nil {
		return err
	}
	typed := strings.ToUpper(strings.TrimSpace(o.str("cell")))
	var out []*discordgo.ApplicationCommandOptionChoice
	l := p.Layout()
	for _, c := range p.Legal().Cells(l) {
		h := c.String()
		if len(out) < maxOptions && strings.HasPrefix(h, typed) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: h, Value: h})
		}
	}
	return c.choices(out)
}

// boardCommand shows the current board again, at the bottom of the channel.
func (b *Bot) boardCommand(c *interaction, _ options) error {
	g, err := b.channelGame(c)
	if err != nil {
		return err
	}
	return b.afterMove(c, g, g.BoardMessageID)
}

// resignCommand asks a player to confirm resigning.
func (b *Bot) resignCommand(c *interaction, _ options) error {
	g, err := b.channelGame(c)
	if err != nil {
		return err
	}
	return b.askResign(c, g)
}

func (b *Bot) resignButton(c *interaction, id customID) error {
	g, err := b.clickedGame(c, id)
	if err != nil {
		return err
	}
	return b.askResign(c, g)
}

// askResign asks the player for confirmation, with buttons only they see.
func (b *Bot) askResign(c *interaction, g *storage.Game) error {
	if _, ok := g.PlayerColor(c.user().ID); !ok {
		return checkTurn(g, c.user().ID)
	}
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID}.String() }
	return c.reply(message{
		ephemeral: true,
		content:   "Do you really want to resign? Your opponent wins the game.",
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Yes, resign", Style: discordgo.DangerButton, CustomID: id(actResignYes)},
			discordgo.Button{Label: "Keep playing", Style: discordgo.SecondaryButton, CustomID: id(actResignNo)},
		}}},
	})
}

// resignConfirm ends the game: the player who confirmed loses.
func (b *Bot) resignConfirm(c *interaction, id customID) error {
	return b.finish(c, id, storage.Resigned, "You resigned.")
}

// finish ends the game a button names as ending says, for the player who
// clicked (the loser, for a resignation), and shows the final board.
func (b *Bot) finish(c *interaction, id customID, ending storage.Ending, done string) error {
	now := b.clock.Now()
	var old string
	g, err := b.store.UpdateGame(id.channel, func(g *storage.Game) error {
		if g.ID != id.id {
			return storage.ErrNotFound
		}
		color, ok := g.PlayerColor(c.user().ID)
		if !ok {
			return checkTurn(g, c.user().ID)
		}
		old = g.BoardMessageID
		return g.Finish(ending, color, now)
	})
	if errors.Is(err, storage.ErrNotFound) {
		return refuse("That game has already ended.")
	}
	if err != nil {
		return err
	}
	b.poke()
	if err := c.update(message{content: done}); err != nil {
		return err
	}
	return b.afterMove(c, g, old)
}

// resignCancel closes the confirmation.
func (b *Bot) resignCancel(c *interaction, _ customID) error {
	return c.update(message{content: "Good — play on!"})
}
