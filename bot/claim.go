package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// claimCommand claims the win for the player who asks: /kulami claim.
func (ov *overtime) claimCommand(c *interaction, g *storage.Game) error {
	return ov.claim(c, g, false)
}

// claimButton is the Claim the win button of a claim message.
func (ov *overtime) claimButton(c *interaction, g *storage.Game) error {
	return ov.claim(c, g, true)
}

// claim ends g as a win on time, claimed, for the player who asks
// (game.Game.Claim) and shows the final board; a button's claim message
// loses its buttons. A game owed the time the bot was down has it first.
func (ov *overtime) claim(c *interaction, g *storage.Game, button bool) error {
	if err := ov.giver.first(c.ctx, g.ChannelID); err != nil {
		return err
	}
	now := ov.clock.Now()
	user := c.user().ID
	g, old, err := ov.table.update(c.ctx, g.ChannelID, g.ID, asker{user: user}, seated(user, func(g *storage.Game, by engine.Color) error {
		return g.Claim(by, now)
	}))
	if err != nil {
		return err
	}
	lang := c.lang()
	var answered error
	if button && c.i.Message != nil {
		answered = c.update(message{content: c.i.Message.Content + "\n" + ov.langs.publicLang(c).T("claim.claimed_note", "Player", escape(c.displayName()))})
	} else {
		answered = c.say(lang.T("claim.done"))
	}
	return ov.table.shown(c.ctx, c, g, old, answered)
}

// keepWaiting is the Keep waiting button of a claim message: the player
// who may claim lets the late player move on. Nothing is stored: the claim
// stays open (/kulami claim) until the late player moves or the claim
// window ends; the message loses its buttons and says so.
func (ov *overtime) keepWaiting(c *interaction, g *storage.Game) error {
	since, by, ok := g.Claimable(ov.clock.Now())
	if !ok {
		return refuse("claim.moved_on")
	}
	if err := ov.claimant(c, g, by); err != nil {
		return err
	}
	lang := ov.langs.publicLang(c)
	late := g.Player(by.Other())
	return c.update(message{content: "⌛ " + lang.T("claim.waiting", "Claimant", escape(c.displayName()), "Late", who(lang, late),
		"Until", timestamp(since.Add(game.ClaimWindow))), mentions: []string{late.UserID}})
}

// claimant returns nil if the user of c is the player of colour by, who
// may claim, else their refusal.
func (ov *overtime) claimant(c *interaction, g *storage.Game, by engine.Color) error {
	me, err := g.Seat(c.user().ID)
	switch {
	case err != nil:
		return &gameError{err: err, g: g, user: c.user().ID}
	case me != by:
		return &gameError{err: game.ErrNotClaimant, g: g, user: c.user().ID}
	}
	return nil
}

// sendClaim posts the claim message of g, whose clock just ran out in a
// game of claims, in its channel.
func (s *scheduler) sendClaim(ctx context.Context, g *storage.Game) error {
	since, by, ok := g.Claimable(s.clock.Now())
	if !ok {
		return nil
	}
	lang := s.langs.guildLang(ctx, g.GuildID)
	claimant, late := g.Player(by), g.Player(by.Other())
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String() }
	m := message{
		content: "⌛ " + lang.T("claim.message", "Player", who(lang, claimant), "Late", escape(playerName(lang, late)),
			"Since", timestamp(since), "Until", timestamp(since.Add(game.ClaimWindow)), "Board", boardLink(lang, g)),
		mentions: []string{claimant.UserID},
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lang.T("claim.button"), Style: discordgo.SuccessButton, CustomID: id(actClaim)},
			discordgo.Button{Label: lang.T("claim.button_wait"), Style: discordgo.SecondaryButton, CustomID: id(actWait)},
		}}},
	}
	if answerOnly(g) {
		// By DM, without its buttons: /kulami claim in the game's place.
		m.content += "\n" + lang.T("anywhere.claim_there")
		s.table.courier.dm(ctx, g, m)
		return nil
	}
	if _, err := s.out.send(ctx, g.ChannelID, m); err != nil {
		return s.table.abandonIfGone(ctx, g, fmt.Errorf("send the claim message: %w", err))
	}
	return nil
}
