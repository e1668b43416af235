package bot

import (
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// drawCommand offers the opponent a draw, with buttons to answer.
func (pl *playing) drawCommand(c *interaction, _ options) error {
	now := pl.clock.Now()
	var by engine.Color
	g, _, err := pl.table.update(c.ctx, c.i.ChannelID, 0, asker{user: c.user().ID}, seated(c.user().ID, func(g *storage.Game, c engine.Color) error {
		by = c
		return g.OfferDraw(c, now)
	}))
	if err != nil {
		return err
	}
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String() }
	opp := g.Player(by.Other())
	lang := pl.table.notices.readerLang(c, opp.UserID) // the words are for the opponent
	offer := message{
		content:  lang.T("offer.message", "Opponent", who(lang, opp), "Player", escape(playerName(lang, g.Player(by)))),
		mentions: []string{opp.UserID},
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lang.T("button.accept_draw"), Style: discordgo.SuccessButton, CustomID: id(actDrawAccept)},
			discordgo.Button{Label: lang.T("button.decline"), Style: discordgo.SecondaryButton, CustomID: id(actDrawReject)},
		}}},
	}
	if answerOnly(g) {
		// The offer is the answer, a new message that pings the opponent.
		return pl.table.courier.tell(c, pl.table.notices.answer(c, g.Game, offer))
	}
	answered := c.say(c.lang().T("offer.offered", "Opponent", escape(playerName(c.lang(), opp))))
	// A message of its own, so that it notifies the opponent whatever
	// happened to the interaction.
	_, err = pl.table.notices.post(c.ctx, g.Game, g.ChannelID, offer)
	return errors.Join(err, answered)
}

// drawAnswer is the handler of the buttons that answer the draw offer
// they name, for the player who clicked: accept ends the game drawn,
// decline withdraws the offer.
func drawAnswer(pl *playing, accept bool) componentHandler {
	return func(c *interaction, id customID) error { return pl.answerDraw(c, id, accept) }
}

// answerDraw answers the draw offer id names; see drawAnswer.
func (pl *playing) answerDraw(c *interaction, id customID, accept bool) error {
	now := pl.clock.Now()
	g, old, err := pl.table.update(c.ctx, id.channel, id.id, asker{user: c.user().ID}, seated(c.user().ID, func(g *storage.Game, by engine.Color) error {
		return g.AnswerDraw(by, id.n, accept, now)
	}))
	if err != nil {
		return err
	}
	name, lang := escape(c.displayName()), pl.langs.publicLang(c)
	if !accept {
		return c.update(message{content: lang.T("offer.declined", "Player", name)})
	}
	answered := c.update(message{content: lang.T("offer.accepted", "Player", name)})
	return pl.table.shown(c.ctx, c, g, old, answered)
}
