package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
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
// A claim from the claim's DM (fromDM: its buttons are clicked in the
// bot's DM, not in the game's place) shows the final board as the
// scheduler would: in the game's channel, or by DM to both players of a
// game where the bot cannot post.
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
	if fromDM(c, g) {
		return ov.table.shown(c.ctx, nil, g, old, answered)
	}
	return ov.table.shown(c.ctx, c, g, old, answered)
}

// fromDM reports whether c is a click on the claim's DM about g: in
// another channel than g's.
func fromDM(c *interaction, g *storage.Game) bool { return c.i.ChannelID != g.ChannelID }

// keepWaiting is the Keep waiting button of a claim message: the player
// who may claim lets the late player move on. Nothing is stored: the claim
// stays open (/kulami claim) until the late player moves or the claim
// window ends; the message loses its buttons and says so. From the
// claim's DM, the late player is told too.
func (ov *overtime) keepWaiting(c *interaction, g *storage.Game) error {
	since, by, ok := g.Claimable(ov.clock.Now())
	if !ok {
		return refuse("claim.moved_on")
	}
	if err := ov.claimant(c, g, by); err != nil {
		return err
	}
	late := g.Player(by.Other())
	until := timestamp(since.Add(game.ClaimWindow))
	if fromDM(c, g) {
		// The claimant's own DM: it says so, and the late player is told
		// as a notice of the game (in its channel, or by DM).
		if err := c.update(message{content: c.i.Message.Content + "\n" + c.lang().T("claim.waiting_you", "Until", until)}); err != nil {
			return err
		}
		return ov.table.notices.tell(c.ctx, g, []string{late.UserID}, func(lang i18n.Lang, to string) message {
			return message{content: "⌛ " + lang.T("claim.waiting", "Claimant", escape(c.displayName()), "Late", whoFor(lang, late, to), "Until", until)}
		})
	}
	lang := ov.langs.publicLang(c)
	return c.update(message{content: "⌛ " + lang.T("claim.waiting", "Claimant", escape(c.displayName()), "Late", who(lang, late), "Until", until),
		mentions: []string{late.UserID}})
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

// sendClaim tells the player who may claim the win in g, whose
// opponent's clock just ran out in a game of claims, with the buttons
// Claim the win and Keep waiting: in the game's channel, or where the bot
// cannot post by DM in their language, whose buttons work from the DM
// (actClaimDM, actWaitDM). In their quiet hours it comes without a ping.
func (s *scheduler) sendClaim(ctx context.Context, g *storage.Game) error {
	since, by, ok := g.Claimable(s.clock.Now())
	if !ok {
		return nil
	}
	claimant, late := g.Player(by), g.Player(by.Other())
	claim, wait := actClaim, actWait
	if answerOnly(g) {
		claim, wait = actClaimDM, actWaitDM
	}
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String() }
	err := s.table.notices.tell(ctx, g, []string{claimant.UserID}, func(lang i18n.Lang, to string) message {
		return message{
			content: "⌛ " + lang.T("claim.message", "Player", whoFor(lang, claimant, to), "Late", escape(playerName(lang, late)),
				"Since", timestamp(since), "Until", timestamp(since.Add(game.ClaimWindow)), "Board", boardLink(lang, g)),
			components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: lang.T("claim.button"), Style: discordgo.SuccessButton, CustomID: id(claim)},
				discordgo.Button{Label: lang.T("claim.button_wait"), Style: discordgo.SecondaryButton, CustomID: id(wait)},
			}}},
		}
	})
	if err != nil {
		return s.table.abandonIfGone(ctx, g, fmt.Errorf("send the claim message: %w", err))
	}
	return nil
}

// whoFor names player p in a notice to the user to: "you"'s mention in a
// channel (to is ""), where it pings them; their name in a DM to them,
// where a mention of the reader pings nobody and reads oddly.
func whoFor(lang i18n.Lang, p game.Player, to string) string {
	if to == "" {
		return who(lang, p)
	}
	return escape(playerName(lang, p))
}
