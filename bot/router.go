package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// options are the options of a subcommand, by name. Its accessors read
// the values as Discord sends them and treat a value of the wrong type as
// missing (discordgo's own accessors panic on those).
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

// str returns a string option, or "".
func (o options) str(name string) string {
	if v, ok := o[name]; ok {
		if s, ok := v.Value.(string); ok {
			return s
		}
	}
	return ""
}

// int returns an integer option, or def.
func (o options) int(name string, def int) int {
	if v, ok := o[name]; ok {
		switch n := v.Value.(type) {
		case float64: // as JSON decodes it
			if n == math.Trunc(n) && math.Abs(n) <= 1<<53 {
				return int(n)
			}
		case int64:
			return int(n)
		}
	}
	return def
}

// userID returns the ID of a user option, or "".
func (o options) userID(name string) string { return o.str(name) }

type commandHandler func(b *Bot, c *interaction, o options) error

type componentHandler func(b *Bot, c *interaction, id customID) error

// challengeHandler acts on an open challenge, whether a command (the
// challenge of its channel) or a button (the challenge it names) asked.
type challengeHandler func(b *Bot, c *interaction, ch *storage.Challenge) error

// gameHandler acts on a running game, whether a command (the game of its
// channel) or a button (the game it names) asked.
type gameHandler func(b *Bot, c *interaction, g *storage.Game) error

// errNoChallenge and errChallengeGone are the refusals of a challenge
// handler whose challenge is not there.
var (
	errNoChallenge   = refuse("challenge.none")
	errChallengeGone = refuse("challenge.gone")
)

// challengeCommand runs h on the open challenge of the command's channel.
func challengeCommand(h challengeHandler) commandHandler {
	return func(b *Bot, c *interaction, _ options) error {
		ch, err := b.store.Challenge(c.ctx, c.i.ChannelID)
		if errors.Is(err, storage.ErrNotFound) {
			return errNoChallenge
		} else if err != nil {
			return err
		}
		return h(b, c, ch)
	}
}

// challengeButton runs h on the challenge a button names, if it is still
// open.
func challengeButton(h challengeHandler) componentHandler {
	return func(b *Bot, c *interaction, id customID) error {
		ch, err := b.store.Challenge(c.ctx, id.channel)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && ch.ID != id.id) {
			return errChallengeGone
		} else if err != nil {
			return err
		}
		return h(b, c, ch)
	}
}

// gameCommand runs h on the game of the command's channel.
func gameCommand(h gameHandler) commandHandler {
	return func(b *Bot, c *interaction, _ options) error {
		g, err := b.channelGame(c)
		if err != nil {
			return err
		}
		return h(b, c, g)
	}
}

// gameButton runs h on the game a button names, if it is still going on.
func gameButton(h gameHandler) componentHandler {
	return func(b *Bot, c *interaction, id customID) error {
		g, err := b.store.Game(c.ctx, id.channel)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && g.ID != id.id) {
			return errGameGone
		} else if err != nil {
			return err
		}
		return h(b, c, g)
	}
}

// commandHandlers runs each subcommand of /kulami.
var commandHandlers = map[string]commandHandler{
	"challenge":   (*Bot).challenge,
	"accept":      challengeCommand((*Bot).accept),
	"decline":     challengeCommand((*Bot).decline),
	"move":        (*Bot).moveCommand,
	"board":       (*Bot).boardCommand,
	"resign":      gameCommand((*Bot).askResign),
	"abort":       (*Bot).abortCommand,
	"draw":        (*Bot).drawCommand,
	"rules":       func(_ *Bot, c *interaction, _ options) error { return c.reply(rulesMessage(c.lang(), 0)) },
	"help":        func(_ *Bot, c *interaction, _ options) error { return c.reply(helpMessage(c.lang())) },
	"leaderboard": (*Bot).leaderboardCommand,
	"stats":       (*Bot).statsCommand,
	"history":     (*Bot).historyCommand,
	"export":      (*Bot).exportCommand,
	"notify":      (*Bot).notifyCommand,
	"settings":    (*Bot).settingsCommand,
	"play":        (*Bot).playCommand,
	"hint":        (*Bot).hintCommand,
	"games":       (*Bot).gamesCommand,
	"review":      (*Bot).reviewCommand,
}

// inDMs are the subcommands that also work outside a server.
var inDMs = map[string]bool{"rules": true, "help": true}

// componentHandlers runs each component action.
var componentHandlers = map[string]componentHandler{
	actMove:       (*Bot).moveSelect,
	actResign:     gameButton((*Bot).askResign),
	actResignYes:  (*Bot).resignConfirm,
	actResignNo:   (*Bot).resignCancel,
	actAccept:     challengeButton((*Bot).accept),
	actDecline:    challengeButton((*Bot).decline),
	actCancel:     challengeButton((*Bot).withdraw),
	actRules:      func(_ *Bot, c *interaction, id customID) error { return c.update(rulesMessage(c.lang(), id.n)) },
	actLeaders:    (*Bot).leaderboardPage,
	actDrawAccept: drawAnswer(true),
	actDrawReject: drawAnswer(false),
	actRematch:    finishedButton((*Bot).rematch),
	actReviewStep: (*Bot).reviewStep,
	actReplayGIF:  finishedButton((*Bot).replayGIF),
}

// elsewhere is, by action, the refusal of a component whose custom ID
// names a channel other than the interaction's own (for actLeaders, a
// guild): a message's components are clicked where it was posted, so such
// an ID is stale or forged, and acting on the place it names would change
// another channel's game or show another guild's leaderboard. The actions
// not listed name no place to check: the rules, and a review's steps,
// which may be posted in another channel than their game's and read the
// interaction's own guild.
var elsewhere = map[string]error{
	actMove:       errGameGone,
	actResign:     errGameGone,
	actResignYes:  errGameGone,
	actResignNo:   errGameGone,
	actDrawAccept: errGameGone,
	actDrawReject: errGameGone,
	actAccept:     errChallengeGone,
	actDecline:    errChallengeGone,
	actCancel:     errChallengeGone,
	actRematch:    errFinishedGone,
	actReplayGIF:  errFinishedGone,
	actLeaders:    refuse("ladder.gone"),
}

// ownPlace returns elsewhere's refusal if id names a channel (or guild)
// other than c's own.
func ownPlace(c *interaction, id customID) error {
	refusal, ok := elsewhere[id.action]
	own := c.i.ChannelID
	if id.action == actLeaders {
		own = c.i.GuildID
	}
	if ok && id.channel != own {
		return refusal
	}
	return nil
}

// handle answers one interaction, from either transport. Every interaction
// gets an answer: a handler's error is translated for the user by fail.
// The interaction's context (c.ctx, which its handler passes to the store
// and to Discord) is ctx's, cancelled when ctx is (the bot's, by Close) or
// when handle returns; work that outlives the interaction runs with a
// context of its own (a job's, the scheduler's).
func (b *Bot) handle(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, respond respondFunc) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := b.clock.Now()
	kind, name := metricName(i)
	b.metrics.Interaction(kind, name)
	c := &interaction{ctx: ctx, s: s, i: i, respond: b.timed(respond, kind, name, start)}
	stop := c.deferWhenSlow(b.opt.AnswerWithin, b.log)
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("handler panicked", "panic", r, "stack", string(debug.Stack()))
			b.fail(c, fmt.Errorf("panic: %v", r))
		}
		stop()
	}()
	b.noteLocales(c)
	err := b.dispatch(c)
	if err == nil && !c.responded() {
		err = errNoAnswer
	}
	if err != nil {
		b.fail(c, err)
	}
	b.log.Debug("interaction", "type", i.Type.String(), "name", interactionName(i), "user", c.user().ID,
		"channel", i.ChannelID, "took", b.clock.Now().Sub(start), "err", err)
}

// errNoAnswer is a handler's bug: it returned without answering.
var errNoAnswer = errors.New("the handler did not answer")

func (b *Bot) dispatch(c *interaction) error {
	switch c.i.Type {
	case discordgo.InteractionApplicationCommand:
		name, o := subcommand(c.i)
		h, ok := commandHandlers[name]
		if !ok {
			return refuse("error.unknown_command")
		}
		if c.i.GuildID == "" && !inDMs[name] {
			return refuse("error.not_in_dm")
		}
		return h(b, c, o)
	case discordgo.InteractionApplicationCommandAutocomplete:
		name, o := subcommand(c.i)
		if name != "move" || c.i.GuildID == "" {
			return c.choices(nil)
		}
		return b.moveAutocomplete(c, o)
	case discordgo.InteractionMessageComponent:
		id, err := parseCustomID(c.i.MessageComponentData().CustomID)
		h, ok := componentHandlers[id.action]
		if err != nil || !ok {
			return refuse("error.old_button")
		}
		if err := ownPlace(c, id); err != nil {
			return err
		}
		return h(b, c, id)
	}
	return refuse("error.unknown_interaction")
}

// subcommand returns the /kulami subcommand an interaction names and its
// options.
func subcommand(i *discordgo.Interaction) (string, options) {
	d := i.ApplicationCommandData()
	if d.Name != commandName || len(d.Options) == 0 {
		return "", nil
	}
	s := d.Options[0]
	o := options{}
	for _, v := range s.Options {
		o[v.Name] = v
	}
	return s.Name, o
}

func interactionName(i *discordgo.Interaction) string {
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		name, _ := subcommand(i)
		return name
	case discordgo.InteractionMessageComponent:
		id, _, _ := strings.Cut(strings.TrimPrefix(i.MessageComponentData().CustomID, customIDPrefix+":"), ":")
		return id
	}
	return ""
}
