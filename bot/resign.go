package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// askResign asks the player for confirmation, with buttons only they see.
func (pl *playing) askResign(c *interaction, g *storage.Game) error {
	if _, err := g.Seat(c.user().ID); err != nil {
		return &gameError{err: err, g: g, user: c.user().ID}
	}
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID}.String() }
	lang := c.lang()
	return c.reply(message{
		ephemeral: true,
		content:   lang.T("resign.ask"),
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lang.T("button.resign_yes"), Style: discordgo.DangerButton, CustomID: id(actResignYes)},
			discordgo.Button{Label: lang.T("button.resign_no"), Style: discordgo.SecondaryButton, CustomID: id(actResignNo)},
		}}},
	})
}

// resignConfirm ends the game: the player who confirmed loses.
func (pl *playing) resignConfirm(c *interaction, id customID) error {
	now := pl.clock.Now()
	g, old, err := pl.table.update(c.ctx, id.channel, id.id, asker{user: c.user().ID}, seated(c.user().ID, func(g *storage.Game, by engine.Color) error {
		return g.Resign(by, now)
	}))
	if err != nil {
		return err
	}
	answered := c.update(message{content: c.lang().T("resign.done")})
	return pl.table.shown(c.ctx, c, g, old, answered)
}

// resignCancel closes the confirmation.
func (pl *playing) resignCancel(c *interaction, _ customID) error {
	return c.update(message{content: c.lang().T("resign.cancelled")})
}

// abortCommand calls off a game that has barely begun, without a result.
func (pl *playing) abortCommand(c *interaction, _ options) error {
	now := pl.clock.Now()
	g, old, err := pl.table.update(c.ctx, c.i.ChannelID, 0, asker{user: c.user().ID}, seated(c.user().ID, func(g *storage.Game, by engine.Color) error {
		if g.Tournament != nil {
			return refuse("tournament.no_abort")
		}
		return g.Abort(by, now)
	}))
	if err != nil {
		return err
	}
	answered := c.say(c.lang().T("resign.aborted"))
	return pl.table.shown(c.ctx, c, g, old, answered)
}
