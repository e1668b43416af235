package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/storage"
)

// aiName is how the computer opponent of a level is named in games.
func aiName(l ai.Level) string { return fmt.Sprintf("Kulami AI (%s)", l) }

// playCommand handles /kulami play: a game against the computer.
func (b *Bot) playCommand(c *interaction, o options) error {
	return b.playAI(c, o, o.str("level"))
}

// playAI starts a game against the computer at the named level (medium if
// empty) in the interaction's channel; who begins is drawn by lot unless
// the options say.
func (b *Bot) playAI(c *interaction, o options, levelName string) error {
	level := ai.Medium
	if levelName != "" {
		l, err := ai.ParseLevel(levelName)
		if err != nil {
			return refuse("Pick the level from the list: easy, medium or hard.")
		}
		level = l
	}
	if err := checkPermissions(c); err != nil {
		return err
	}
	layout, rules, err := gameOptions(o)
	if err != nil {
		return err
	}
	settings, err := b.store.GuildSettings(c.i.GuildID)
	if err != nil {
		return err
	}
	now := b.clock.Now()
	human := storage.Player{UserID: c.user().ID, Name: c.displayName()}
	computer := storage.Player{UserID: c.i.AppID, Name: aiName(level), AI: level.String()}
	players := [2]storage.Player{human, computer}
	switch o.str("first") {
	case "them":
		players = [2]storage.Player{computer, human}
	case "me":
	default:
		if rand.IntN(2) == 0 {
			players = [2]storage.Player{computer, human}
		}
	}
	g := &storage.Game{
		GuildID:   c.i.GuildID,
		ChannelID: c.i.ChannelID,
		Layout:    layout.String(),
		Rules:     rules,
		First:     engine.Red,
		Players:   players,
		Created:   now,
		MoveTime:  cmp(settings.MoveTime, b.opt.MoveTime),
	}
	b.setClock(g, now)
	if err := b.store.CreateGame(g); err != nil {
		if errors.Is(err, storage.ErrChannelBusy) {
			return b.busy(c)
		}
		return err
	}
	b.poke()
	return b.afterMove(c, g, "")
}

// aiConfig is the search of a computer player.
func (b *Bot) aiConfig(p storage.Player) (ai.Config, error) {
	level, err := ai.ParseLevel(p.AI)
	if err != nil {
		return ai.Config{}, err
	}
	cfg := level.Config()
	if level == ai.Hard && b.opt.AITime > 0 {
		cfg.Time = b.opt.AITime
	}
	return cfg, nil
}

// aiMove lets the computer play its move in the game of channelID, which
// was at ply with its board in message board, and shows the new board
// (in reply to c if c is not nil). One search runs at a time: each uses
// every core.
func (b *Bot) aiMove(c *interaction, channelID string, gameID uint64, ply int, board string) error {
	select {
	case b.aiSlot <- struct{}{}:
		defer func() { <-b.aiSlot }()
	case <-b.baseCtx.Done():
		return b.baseCtx.Err()
	}
	g, err := b.store.Game(channelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // the game ended meanwhile
	} else if err != nil {
		return err
	}
	if g.ID != gameID || g.Ply() != ply || !g.Players[g.ToMove()].IsAI() {
		return nil // someone else moved it on
	}
	cfg, err := b.aiConfig(g.Players[g.ToMove()])
	if err != nil {
		return err
	}
	p, err := g.Position()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(b.baseCtx, cfg.Time)
	mv, err := cfg.Move(ctx, p, g.Rules)
	cancel()
	if err != nil {
		return fmt.Errorf("computer move: %w", err)
	}
	now := b.clock.Now()
	g, err = b.store.UpdateGame(channelID, func(g *storage.Game) error {
		if g.ID != gameID || g.Ply() != ply {
			return storage.ErrStale
		}
		return b.playCell(g, mv.Cell.String(), now)
	})
	if errors.Is(err, storage.ErrStale) || errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	b.poke()
	return b.afterMove(c, g, board)
}

// hintCommand shows the player to move the computer's suggestion, if the
// server allows hints.
func (b *Bot) hintCommand(c *interaction, _ options) error {
	settings, err := b.store.GuildSettings(c.i.GuildID)
	if err != nil {
		return err
	}
	if !settings.Hints {
		return refuse("Hints are off in this server. Someone with Manage Server can turn them on with **/kulami settings hints:on**.")
	}
	g, err := b.channelGame(c)
	if err != nil {
		return err
	}
	if err := checkTurn(g, c.user().ID); err != nil {
		return err
	}
	p, err := g.Position()
	if err != nil {
		return err
	}
	if err := c.deferReply(true); err != nil {
		return err
	}
	cfg := ai.Medium.Config()
	ctx, cancel := context.WithTimeout(b.baseCtx, cfg.Time)
	defer cancel()
	select {
	case b.aiSlot <- struct{}{}:
		defer func() { <-b.aiSlot }()
	case <-ctx.Done():
		return refuse("The computer is busy with other games; try again in a moment.")
	}
	mv, err := cfg.Move(ctx, p, g.Rules)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("The computer would play **%s**.", mv.Cell)
	if mv.WinChance != ai.NoEstimate {
		text += fmt.Sprintf(" It rates your chances after that move at %.0f%%.", 100*mv.WinChance)
	}
	return c.reply(message{content: text, ephemeral: true})
}
