package bot

import (
	"errors"
	"math/rand/v2"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// The refusals of the buttons of a finished game.
var (
	// errFinishedGone: the finished game a button names is not stored.
	errFinishedGone = refuse("rematch.gone")
)

// gameOverComponents are the buttons of the board of a finished game:
// Rematch, and Replay (GIF) for a game with moves. A
// Rematch is offered after every ending, an abort or a game nobody began
// included: it starts nothing until the other player accepts (against the
// computer, the player who asks is the only one to agree), so it can do
// no harm, and a game called off early is just when people want another
// go. The custom IDs name the finished game, so the buttons work after a
// restart.
func gameOverComponents(lang i18n.Lang, g *storage.Game) []discordgo.MessageComponent {
	id := func(a string) string { return customID{action: a, channel: g.ChannelID, id: g.ID}.String() }
	row := []discordgo.MessageComponent{
		discordgo.Button{Label: lang.T("button.rematch"), Style: discordgo.PrimaryButton, CustomID: id(actRematch)},
	}
	if g.Ply() > 0 {
		row = append(row, discordgo.Button{Label: lang.T("button.replay_gif"), Style: discordgo.SecondaryButton, CustomID: id(actReplayGIF)})
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// finishedButton runs h on the finished game a button of a final board
// names.
func finishedButton(store FinishedStore, h func(c *interaction, f *storage.FinishedGame) error) componentHandler {
	return func(c *interaction, id customID) error {
		f, err := store.FinishedGame(c.ctx, c.guild(), id.id)
		if errors.Is(err, storage.ErrNotFound) {
			return errFinishedGone
		} else if err != nil {
			return err
		}
		return h(c, f)
	}
}

// rematch answers a click on Rematch by a player of the finished game f:
// against the computer the new game starts at once; between two people
// it posts an offer, a challenge the other player accepts or declines
// with its buttons. The new game is played in the same channel, with the
// colours and the first move swapped, the same rules and clock, and the
// same board, or a new one of the same kind when the board was drawn at
// random.
func (cl *challenges) rematch(c *interaction, f *storage.FinishedGame) error {
	me, err := f.Seat(c.user().ID)
	if err != nil {
		return refuse("rematch.not_a_player", "Red", escape(playerName(c.lang(), f.Player(engine.Red))), "Black", escape(playerName(c.lang(), f.Player(engine.Black))))
	}
	if err := cl.chans.checkPlace(c); err != nil {
		return err
	}
	by, other := f.Player(me), f.Player(me.Other())
	by.Name = c.displayName()
	if ch, err := cl.store.Challenge(c.ctx, f.ChannelID); err == nil {
		if err := challenge.CheckRematch(&ch.Challenge, by, other); err != nil {
			return &challengeError{err: err, ch: ch, other: other}
		}
	}
	layout := challenge.RematchLayout(f.Layout(), rand.Uint64())
	players := challenge.RematchPlayers(f.Game.Game)
	for i := range players {
		if players[i].UserID == by.UserID {
			players[i].Name = by.Name
		}
	}
	if players[engine.Red].IsAI() || players[engine.Black].IsAI() {
		return cl.rematchAI(c, f, players, layout)
	}
	cc, err := challenge.Rematch(f.Game.Game, by, layout, cl.clock.Now(), cl.expiry)
	if err != nil {
		return err
	}
	ch := &storage.Challenge{GuildID: f.GuildID, ChannelID: f.ChannelID, Challenge: *cc}
	return cl.openChallenge(c, ch, func(lang i18n.Lang) message { return rematchMessage(lang, ch, f, layout) },
		c.lang().T("rematch.sent", "Opponent", escape(ch.To.Name)))
}

// rematchMessage is the public message of a rematch offer, in lang: a
// challenge with the buttons of one.
func rematchMessage(lang i18n.Lang, ch *storage.Challenge, f *storage.FinishedGame, l *engine.Layout) message {
	m := challengeMessage(lang, ch, l)
	firstName := ch.From.Name
	if ch.First == challenge.FirstOpponent {
		firstName = ch.To.Name
	}
	m.content = lang.T("rematch.message", "Opponent", who(lang, ch.To), "Challenger", escape(ch.From.Name), "Game", f.ID,
		"Board", layoutName(lang, l), "Rules", lang.T(rulesNames[ch.Rules]), "First", colorMark[engine.Red]+" "+escape(firstName),
		"MoveTime", clockWords(lang, ch.Clock()), "Expires", timestamp(ch.Expires))
	return m
}

// rematchAI starts the rematch of f against the computer at once, with
// players (red first).
func (cl *challenges) rematchAI(c *interaction, f *storage.FinishedGame, players [2]game.Player, layout *engine.Layout) error {
	clock := f.Clock()
	set, err := game.Defaults{}.Settings(game.Asked{Clock: &clock}, true) // the clock of the game it follows
	if err != nil {
		return err
	}
	cfg := game.Config{Layout: layout, Rules: f.Rules(), First: engine.Red, Players: players}
	set.Apply(&cfg)
	// The computer is never away, nor told that the person is.
	gg, _, err := cl.vacations.newGame(c.ctx, cl.clock.Now(), configured(cfg, cl.clock.Now()))
	if err != nil {
		return err
	}
	g := placed(storage.Game{GuildID: f.GuildID, ChannelID: f.ChannelID, ParentChannelID: f.ParentChannelID}, gg, cl.clock.Now())
	if err := cl.store.CreateGame(c.ctx, g); err != nil {
		if errors.Is(err, storage.ErrChannelBusy) {
			return cl.chans.busy(c)
		}
		return err
	}
	cl.wake.poke()
	answered := c.say(c.lang().T("rematch.started", "Game", f.ID, "First", colorMark[engine.Red]+" "+escape(playerName(c.lang(), players[engine.Red]))))
	return cl.table.shown(c.ctx, c, g, "", answered)
}
