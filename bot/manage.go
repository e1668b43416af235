package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// abortPlies is the number of moves before which a game may be called off:
// until each player has made two moves.
const abortPlies = 4

// abortCommand calls off a game that has barely begun, without a result.
func (b *Bot) abortCommand(c *interaction, _ options) error {
	seen, err := b.channelGame(c)
	if err != nil {
		return err
	}
	now := b.clock.Now()
	var old string
	g, err := b.store.UpdateGame(seen.ChannelID, func(g *storage.Game) error {
		if g.ID != seen.ID {
			return storage.ErrStale
		}
		if _, ok := g.PlayerColor(c.user().ID); !ok {
			return checkTurn(g, c.user().ID)
		}
		if g.Ply() >= abortPlies {
			return refuse("Too late to call it off: both players have made two moves. You can offer a draw with **/kulami draw**, or resign with **/kulami resign**.")
		}
		old = g.BoardMessageID
		return g.Finish(storage.Aborted, 0, now)
	})
	if err != nil {
		return err
	}
	b.poke()
	return b.afterMove(c, g, old)
}

// drawCommand offers the opponent a draw, with buttons to answer.
func (b *Bot) drawCommand(c *interaction, _ options) error {
	seen, err := b.channelGame(c)
	if err != nil {
		return err
	}
	var by engine.Color
	g, err := b.store.UpdateGame(seen.ChannelID, func(g *storage.Game) error {
		color, ok := g.PlayerColor(c.user().ID)
		switch {
		case g.ID != seen.ID:
			return storage.ErrStale
		case !ok:
			return checkTurn(g, c.user().ID)
		case g.Players[color.Other()].IsAI():
			return refuse("The computer does not take draws. Play on, or resign with **/kulami resign**.")
		case g.DrawOffer != nil && g.DrawOffer.Ply == g.Ply():
			if g.DrawOffer.By == color {
				return refuse("You have already offered a draw; wait for %s to answer.", escape(g.Players[color.Other()].Name))
			}
			return refuse("%s has offered you a draw: answer with the buttons of their offer.", escape(g.Players[color.Other()].Name))
		}
		by = color
		g.DrawOffer = &storage.DrawOffer{By: color, Ply: g.Ply()}
		return nil
	})
	if err != nil {
		return err
	}
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String() }
	opp := g.Players[by.Other()]
	return c.reply(message{
		content:  fmt.Sprintf("%s, %s offers you a draw. The offer stands until the next move.", who(opp), escape(g.Players[by].Name)),
		mentions: []string{opp.UserID},
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept draw", Style: discordgo.SuccessButton, CustomID: id(actDrawAccept)},
			discordgo.Button{Label: "Decline", Style: discordgo.SecondaryButton, CustomID: id(actDrawReject)},
		}}},
	})
}

// drawAnswer checks that the clicker may answer the draw offer a button
// names, and answers it: accept ends the game drawn, else the offer is
// withdrawn.
func (b *Bot) drawAnswer(c *interaction, id customID, accept bool) error {
	now := b.clock.Now()
	var old string
	g, err := b.store.UpdateGame(id.channel, func(g *storage.Game) error {
		color, ok := g.PlayerColor(c.user().ID)
		d := g.DrawOffer
		switch {
		case g.ID != id.id:
			return refuse("That game has ended.")
		case d == nil || d.Ply != id.n || g.Ply() != id.n:
			return refuse("This draw offer has lapsed: a move was made, or it was answered.")
		case !ok:
			return checkTurn(g, c.user().ID)
		case color == d.By && accept:
			return refuse("You made this offer; %s has to answer it.", escape(g.Players[color.Other()].Name))
		}
		g.DrawOffer = nil
		old = g.BoardMessageID
		if accept {
			return g.Finish(storage.DrawAgreed, 0, now)
		}
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) {
		return refuse("That game has ended.")
	}
	if err != nil {
		return err
	}
	name := escape(c.displayName())
	if !accept {
		return c.update(message{content: fmt.Sprintf("The draw offer was turned down by %s. Play on!", name)})
	}
	b.poke()
	if err := c.update(message{content: fmt.Sprintf("%s accepted the draw.", name)}); err != nil {
		return err
	}
	return b.afterMove(c, g, old)
}

func (b *Bot) drawAccept(c *interaction, id customID) error { return b.drawAnswer(c, id, true) }
func (b *Bot) drawReject(c *interaction, id customID) error { return b.drawAnswer(c, id, false) }

// notifyCommand turns reminders by direct message on or off.
func (b *Bot) notifyCommand(c *interaction, o options) error {
	on := o.str("dm") == "on"
	if _, err := b.store.UpdateUserSettings(c.user().ID, func(u *storage.UserSettings) error {
		u.DMReminders = on
		return nil
	}); err != nil {
		return err
	}
	if on {
		return c.say("I'll also remind you by direct message when your move is due. (Discord only delivers it if you allow direct messages from members of this server.)")
	}
	return c.say("No more reminders by direct message; you'll still be pinged in the game's channel.")
}

// settingsCommand shows or changes the server's settings; changing them
// needs Manage Server.
func (b *Bot) settingsCommand(c *interaction, o options) error {
	if len(o) > 0 {
		if m := c.i.Member; m == nil || m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
			return refuse("Changing the server's Kulami settings needs the **Manage Server** permission.")
		}
	}
	s, err := b.store.UpdateGuildSettings(c.i.GuildID, func(s *storage.GuildSettings) error {
		if v := o.str("threads"); v != "" {
			s.Threads = v == "on"
		}
		if v := o.str("hints"); v != "" {
			s.Hints = v == "on"
		}
		if v := o.str("move_time"); v != "" {
			d, err := parseMoveTime(v)
			if err != nil {
				return refuse("Pick a move time from the list.")
			}
			s.MoveTime = d
		}
		return nil
	})
	if err != nil {
		return err
	}
	onOff := map[bool]string{true: "on", false: "off"}
	var lines []string
	if len(o) > 0 {
		lines = append(lines, "Settings saved.")
	}
	lines = append(lines,
		fmt.Sprintf("**Threads**: %s — each accepted challenge gets a thread of its own.", onOff[s.Threads]),
		fmt.Sprintf("**Move time**: %s per move for new challenges (unless the challenge picks one).", moveTimeName(cmp(s.MoveTime, b.opt.MoveTime))),
		fmt.Sprintf("**Hints**: %s — **/kulami hint** shows the computer's suggestion.", onOff[s.Hints]),
	)
	return c.say(strings.Join(lines, "\n"))
}
